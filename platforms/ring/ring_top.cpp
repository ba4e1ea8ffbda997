#include "platforms/ring/ring_top.h"

#include <algorithm>
#include <string>

#include "model/ring/ring_frame.h"
#include "platforms/ring/ring_host_arrivals.h"

namespace fabric {

double RingSenderLoad::gbps_at(Picos t) const {
  const RingPattern p = config_.pattern_at(t);
  if (p == RingPattern::one_to_all && !first_) return 0;
  return config_.load_at(t) / config_.senders(p);
}

Picos RingSenderLoad::next_change(Picos t) const {
  return std::min(traffic::next_boundary(config_.load_schedule, t),
                  traffic::next_boundary(config_.pattern_schedule, t));
}

RingTop::RingTop(sc_core::sc_module_name name, const RingConfig& config, uint64_t seed, Recorder& recorder)
    : sc_module(name),
      config_(config),
      ledger_(recorder),
      recorder_(ledger_),
      entity_(recorder.declare(EntityKind::system, "ring")),
      scheduler_("scheduler"),
      network_(config.network()) {
  EventQueue& events = scheduler_.queue();
  RingStationParams params = config_.station;
  // Permits start at the packet inter-arrival time of a sender's share of
  // the load, and follow the arrivals from there.
  params.permit_interval =
      static_cast<Picos>(ring::kPayloadBytes * 8000.0 * config_.senders(config_.pattern) / config_.load_gbps);
  RingBridgeParams bridge_params = config_.bridge;
  bridge_params.permit_interval = params.permit_interval;
  for (int h = 0; h < network_.hosts(); ++h) {
    const int r = network_.ring_of(h);
    // The adaptive limit's m: the members of the station's group, on every ring.
    RingStationParams station = params;
    for (const ring::RingGroup& g : network_.groups)
      if (std::find(g.members.begin(), g.members.end(), h) != g.members.end())
        station.members = static_cast<int>(g.members.size());
    stations_.push_back(std::make_unique<RingStation>(("station" + std::to_string(h)).c_str(), network_.position_of(h),
                                                      h, network_.layouts[static_cast<size_t>(r)], network_.groups,
                                                      station, frames_, pool_, events));
    stations_.back()->set_observer(&station_probes_.emplace_back(*stations_.back(), recorder_));  // station<N>
  }
  for (size_t b = 0; b < network_.bridges.size(); ++b)
    bridges_.push_back(std::make_unique<RingBridge>(("bridge" + std::to_string(b)).c_str(),
                                                    network_.bridges[b].sides[0], network_.bridges[b].sides[1],
                                                    bridge_params, frames_, pool_, events));
  // A segment from each position to the next, round every ring.
  const auto tx_at = [&](const ring::RingNetwork::Position& p) -> TxPort& {
    if (!p.bridge) return stations_[static_cast<size_t>(p.id)]->tx;
    RingBridge& b = *bridges_[static_cast<size_t>(p.id)];
    return p.side == 0 ? b.tx0 : b.tx1;
  };
  const auto rx_at = [&](const ring::RingNetwork::Position& p) -> RxPort& {
    if (!p.bridge) return stations_[static_cast<size_t>(p.id)]->rx;
    RingBridge& b = *bridges_[static_cast<size_t>(p.id)];
    return p.side == 0 ? b.rx0 : b.rx1;
  };
  // A position's station (by its station id) or bridge (by its index).
  const auto unit_at = [](const ring::RingNetwork::Position& p) {
    return Unit{p.bridge ? UnitKind::bridge : UnitKind::station, p.id};
  };
  for (int r = 0; r < network_.rings; ++r) {
    const auto& positions = network_.positions[static_cast<size_t>(r)];
    for (size_t p = 0; p < positions.size(); ++p) {
      const std::string name = "ring" + std::to_string(r) + ".segment" + std::to_string(p);    // its entity
      const std::string module = "ring" + std::to_string(r) + "_segment" + std::to_string(p);  // SystemC's: no '.'
      segments_.push_back(std::make_unique<Link>(module.c_str(), config_.segment));
      const EntityPlace ends = link_place(unit_at(positions[p]), unit_at(positions[(p + 1) % positions.size()]));
      segment_entities_.push_back(recorder_.declare(EntityKind::segment, name, -1, ends));
      tx_at(positions[p]).out.bind(segments_.back()->in);
      segments_.back()->out.bind(rx_at(positions[(p + 1) % positions.size()]).in);
    }
  }
  busy_at_last_sample_.assign(segments_.size(), 0);
  // Each sender's packets go to every member of its group (itself too).
  std::vector<int> groups_of(static_cast<size_t>(network_.hosts()), 0);
  for (const ring::RingGroup& g : network_.groups)
    for (int s : g.senders) ++groups_of[static_cast<size_t>(s)];
  for (const ring::RingGroup& g : network_.groups)
    for (int s : g.senders) {
      if (groups_of[static_cast<size_t>(s)] != 1) continue;  // its flow id would stand for two groups
      LedgerFlow l{FlowId(static_cast<uint32_t>(s)), PortId(static_cast<uint32_t>(s)), 0, true, {}, {}, false};
      for (int m : g.members) l.members.push_back(static_cast<uint32_t>(m));
      l.deliveries_through[static_cast<uint32_t>(s)] = static_cast<uint32_t>(g.members.size());
      ledger_.ledger().add_flow(std::move(l));
    }
  for (const ring::RingGroup& g : network_.groups) {
    for (int s : g.senders) {
      loads_.push_back(std::make_unique<RingSenderLoad>(config_, s == g.senders.front()));
      stations_[static_cast<size_t>(s)]->attach_host(std::make_unique<RingHostArrivals>(
          *loads_.back(), config_.arrival, seed * 1000003 + static_cast<uint64_t>(s), ring::kPayloadBytes));
    }
  }
}

uint64_t RingTop::messages_moved() const {
  uint64_t n = 0;
  for (const auto& l : segments_) n += l->messages();
  return n;
}

uint64_t RingTop::backlog() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->protocol().spq() + s->transit_waiting();
  for (const auto& b : bridges_) n += static_cast<uint64_t>(b->protocol().held_tickets()) + b->transit_waiting();
  return n;
}

void RingTop::describe_backlog(std::ostream& out, int max_lines) const {
  for (const auto& s : stations_) {
    if (s->protocol().spq() == 0 || max_lines-- <= 0) continue;
    out << "  " << s->name() << ": " << s->protocol().spq() << " packets in reservation, "
        << s->protocol().undelivered() << " awaiting delivery, " << s->protocol().buffers().free() << " buffers free\n";
  }
}

void RingTop::sample_occupancy(Picos t) {
  const Picos interval = t - last_sample_;
  for (size_t i = 0; i < segments_.size(); ++i) {
    const Picos busy = segments_[i]->busy_time(t);
    if (interval > 0)
      recorder_.sample(t, segment_entities_[i], metric::busy_fraction,
                       static_cast<double>(busy - busy_at_last_sample_[i]) / static_cast<double>(interval));
    busy_at_last_sample_[i] = busy;
  }
  last_sample_ = t;
  double spq = 0, q = 0;
  int senders = 0;
  for (const auto& s : stations_) {
    if (!s->sends()) continue;
    ++senders;
    spq += static_cast<double>(s->protocol().spq());
    q += s->limit();
  }
  if (senders == 0) return;
  recorder_.sample(t, entity_, metric::spq_mean, spq / senders);
  recorder_.sample(t, entity_, metric::q_mean, q / senders);
}

uint64_t RingTop::frames_sent() const {
  return sum_over_stations([](const RingStation& s) { return s.protocol().packets_sent(); });
}

uint64_t RingTop::frames_delivered() const {
  return sum_over_stations([](const RingStation& s) { return s.deliveries(); });
}

uint64_t RingTop::packets_offered() const {
  return sum_over_stations([](const RingStation& s) { return s.packets_offered(); });
}

uint64_t RingTop::attempts() const {
  return sum_over_stations([](const RingStation& s) { return s.attempts(); });
}

uint64_t RingTop::retracts() const {
  return sum_over_stations([](const RingStation& s) { return s.protocol().retracts_sent(); });
}

double RingTop::throughput_gbps(Picos simulated) const {
  if (simulated <= 0) return 0;
  const double packets =
      static_cast<double>(frames_delivered()) / static_cast<double>(network_.groups.front().members.size());
  return packets * ring::kPayloadBytes * 8000.0 / static_cast<double>(simulated);
}

void RingTop::finish(Picos end) {
  uint64_t undelivered = 0;
  for (const auto& s : stations_) undelivered += s->protocol().undelivered();
  drained_at_end_ =
      backlog() == 0 && undelivered == 0 &&
      std::all_of(segments_.begin(), segments_.end(), [&](const auto& l) { return l->quiet_from() <= end; });
  ledger_.ledger().finish(end, drained_at_end_);
  ledger_.record_totals(entity_, false);
  for (RingStationProbe& p : station_probes_) p.finish();
  recorder_.total(entity_, metric::packets_offered, static_cast<double>(packets_offered()));
  uint64_t host_drops = 0;
  for (const auto& s : stations_) host_drops += s->host_drops();
  recorder_.total(entity_, metric::host_drops, static_cast<double>(host_drops));
  recorder_.total(entity_, metric::packets_sent, static_cast<double>(frames_sent()));
  recorder_.total(entity_, metric::deliveries, static_cast<double>(frames_delivered()));
  recorder_.total(entity_, metric::tickets, static_cast<double>(attempts()));
  recorder_.total(entity_, metric::retracts, static_cast<double>(retracts()));
  recorder_.total(entity_, metric::throughput_gbps, throughput_gbps(end));
  for (size_t i = 0; i < stations_.size(); ++i)
    recorder_.total(station_probes_[i].entity(), metric::max_buffers_used, stations_[i]->max_buffers_used());
  for (size_t i = 0; i < segments_.size(); ++i)
    recorder_.total(segment_entities_[i], metric::utilization,
                    end > 0 ? static_cast<double>(segments_[i]->busy_time(end)) / static_cast<double>(end) : 0);
  for (size_t b = 0; b < bridges_.size(); ++b)
    for (int side = 0; side < 2; ++side) {
      // What bridge b puts on the ring of this side: side 0 its parent's, side 1 its child's.
      const ring::RingNetwork::Bridge& joins = network_.bridges[b];
      const EntityPlace onto = link_place({UnitKind::bridge, static_cast<int64_t>(b)},
                                          {UnitKind::ring, side == 0 ? joins.parent : joins.child});
      const std::string name = std::string(bridges_[b]->basename()) + ".side" + std::to_string(side);
      recorder_.total(recorder_.declare(EntityKind::bridge_side, name, -1, onto), metric::relayed,
                      static_cast<double>(bridges_[b]->protocol().relayed(side)));
    }
}

}  // namespace fabric
