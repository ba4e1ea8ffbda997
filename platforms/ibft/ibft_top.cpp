#include "platforms/ibft/ibft_top.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "model/ibft/tree_checker.h"

namespace fabric {

namespace {

// A message's packets: of at most `mtu` bytes each (0: one packet).
std::vector<uint32_t> segments(uint32_t message, uint32_t mtu) {
  if (mtu == 0 || message <= mtu) return {message};
  std::vector<uint32_t> out(message / mtu, mtu);
  if (message % mtu) out.push_back(message % mtu);
  return out;
}

}  // namespace

IbftTop::IbftTop(sc_core::sc_module_name name, const IbftConfig& config, const std::vector<traffic::FlowSpec>& flows,
                 Recorder& recorder)
    : sc_module(name),
      config_(config),
      ledger_(recorder),
      recorder_(ledger_),
      entity_(recorder.declare(EntityKind::system, "ibft")),
      topology_(config.m, config.n),
      subnet_(topology_),
      tables_(subnet_, topology_),
      scheduler_("scheduler") {
  EventQueue& events = scheduler_.queue();
  for (int s = 0; s < topology_.switches(); ++s) {
    switches_.push_back(
        std::make_unique<IbSwitch>(("sw" + std::to_string(s)).c_str(), s, config_.sw, tables_, pool_, events));
  }
  for (int p = 0; p < topology_.nodes(); ++p) {
    hosts_.push_back(
        std::make_unique<HostAdapter>(("host" + std::to_string(p)).c_str(), p, config_.sw.credit_bytes, pool_, events));
    hosts_.back()->set_observer(&host_probes_.emplace_back(*hosts_.back(), recorder_));
  }
  // A link each way on every cable: node to leaf, and lower to upper switch.
  const auto link = [&](const std::string& link_name, TxPort& tx, RxPort& rx) {
    links_.push_back(std::make_unique<Link>(link_name.c_str(), config_.link));
    tx.out.bind(links_.back()->in);
    links_.back()->out.bind(rx.in);
  };
  for (int p = 0; p < topology_.nodes(); ++p) {
    IbSwitch& leaf = *switches_[static_cast<size_t>(topology_.leaf_of(p))];
    const int port = topology_.leaf_port_of(p);
    link("host" + std::to_string(p) + "_up", hosts_[static_cast<size_t>(p)]->tx, leaf.rx(port));
    link("host" + std::to_string(p) + "_down", leaf.tx(port), hosts_[static_cast<size_t>(p)]->rx);
  }
  for (int s = 0; s < topology_.switches(); ++s) {
    for (int k = topology_.half() + 1; k <= topology_.m() && topology_.level(s) > 0; ++k) {
      const IbftTopology::Peer& up = topology_.peer(s, k);
      const std::string base = "sw" + std::to_string(s) + "p" + std::to_string(k);
      link(base + "_up", switches_[static_cast<size_t>(s)]->tx(k),
           switches_[static_cast<size_t>(up.index)]->rx(up.port));
      link(base + "_down", switches_[static_cast<size_t>(up.index)]->tx(up.port),
           switches_[static_cast<size_t>(s)]->rx(k));
    }
  }

  // Each source's message: to its group's multicast LID, or to each member
  // in turn (PID order) with unicast.
  for (const traffic::FlowSpec& f : flows) {
    const int src = static_cast<int>(raw(f.src));
    std::vector<int> group;
    for (PortId d : f.dests) group.push_back(static_cast<int>(raw(d)));
    std::vector<int> lids;
    if (config_.scheme == IbftScheme::unicast) {
      for (int d : group) lids.push_back(subnet_.cyclic_lid(src, d));
    } else {
      const bool cyclic = config_.scheme == IbftScheme::cyclic;
      const int mlid = kFirstMulticastLid + tables_.groups();  // the LID add_group gives the table below
      const SubnetManager::McTable table =
          cyclic ? subnet_.cyclic_tree(src, group) : subnet_.opensm_tree(group, {src}, config_.opensm_root, mlid);
      const TreeCheck check = check_tree(topology_, table, src, group,
                                         cyclic ? TreeForwarding::every_port : TreeForwarding::all_but_arrival, cyclic);
      if (!check.ok)
        throw std::logic_error("ibft: the multicast tree of " + topology_.node_name(src) + ": " + check.problem);
      lids.push_back(kFirstMulticastLid + tables_.add_group(table));
      if (lids.back() != mlid)
        throw std::logic_error("ibft: a group's multicast LID is not the one its root was chosen by");
    }
    std::vector<HostPacket> packets;
    uint64_t seq = 0;
    for (int lid : lids)
      for (uint32_t bytes : segments(config_.message_bytes, config_.mtu))
        packets.push_back({FrameId((uint64_t{static_cast<uint32_t>(src)} << 32) | seq++), f.id, bytes, lid});
    expected_deliveries_ += group.size() * segments(config_.message_bytes, config_.mtu).size();
    // A multicast packet is delivered to every member; a unicast one to its LID's.
    LedgerFlow l{f.id, f.src, 0, config_.scheme != IbftScheme::unicast, {}, {}, false};
    if (l.multicast) {
      for (int d : group) l.members.push_back(static_cast<uint32_t>(d));
      l.deliveries_through[static_cast<uint32_t>(src)] = static_cast<uint32_t>(group.size());
    }
    ledger_.ledger().add_flow(std::move(l));
    hosts_[static_cast<size_t>(src)]->send(config_.start, packets);
  }
}

uint64_t IbftTop::messages_moved() const {
  uint64_t n = 0;
  for (const auto& l : links_) n += l->messages();
  return n;
}

uint64_t IbftTop::backlog() const {
  uint64_t n = 0;
  for (const auto& s : switches_) n += s->held();
  for (const auto& h : hosts_) n += h->unsent();
  return n;
}

void IbftTop::describe_backlog(std::ostream& out, int max_lines) const {
  for (const auto& s : switches_) {
    if (s->held() == 0 || max_lines-- <= 0) continue;
    out << "  " << topology_.switch_name(static_cast<int>(&s - &switches_[0])) << ": " << s->held()
        << " packets held\n";
  }
}

void IbftTop::sample_occupancy(Picos t) {
  uint64_t held = 0;
  for (const auto& s : switches_) held += s->held();
  recorder_.sample(t, entity_, metric::packets_held, static_cast<double>(held));
}

uint64_t IbftTop::frames_sent() const {
  uint64_t n = 0;
  for (const auto& h : hosts_) n += h->sent();
  return n;
}

uint64_t IbftTop::frames_delivered() const {
  uint64_t n = 0;
  for (const auto& h : hosts_) n += h->delivered();
  return n;
}

uint64_t IbftTop::switch_copies() const {
  uint64_t n = 0;
  for (const auto& s : switches_) n += s->copies();
  return n;
}

Picos IbftTop::completion() const {
  Picos t = 0;
  for (const auto& h : hosts_) t = std::max(t, h->last_delivery());
  return t;
}

void IbftTop::finish(Picos end) {
  drained_at_end_ = backlog() == 0 &&
                    std::all_of(links_.begin(), links_.end(), [&](const auto& l) { return l->quiet_from() <= end; });
  ledger_.ledger().finish(end, drained_at_end_);
  ledger_.record_totals(entity_, false);
  for (size_t h = 0; h < hosts_.size(); ++h) {
    hosts_[h]->finish();       // packets never sent
    host_probes_[h].finish();  // subflow totals
  }
  recorder_.total(entity_, metric::completion_ps, static_cast<double>(completion()));
  recorder_.total(entity_, metric::deliveries, static_cast<double>(frames_delivered()));
  recorder_.total(entity_, metric::expected_deliveries, static_cast<double>(expected_deliveries_));
  recorder_.total(entity_, metric::switch_copies, static_cast<double>(switch_copies()));
}

}  // namespace fabric
