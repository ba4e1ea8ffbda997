#include "model/invariants/copy_ledger.h"

#include <algorithm>
#include <functional>
#include <map>

#include "model/invariants/invariant_broken.h"

namespace fabric {

std::unordered_map<uint32_t, uint32_t> deliveries_through(
    uint32_t source, const std::unordered_map<uint32_t, std::vector<uint32_t>>& fanout,
    const std::vector<uint32_t>& members) {
  std::unordered_map<uint32_t, uint32_t> through;
  const std::function<uint32_t(uint32_t)> count = [&](uint32_t port) -> uint32_t {
    if (const auto known = through.find(port); known != through.end()) return known->second;
    uint32_t n = std::binary_search(members.begin(), members.end(), port) ? 1 : 0;
    if (const auto children = fanout.find(port); children != fanout.end())
      for (uint32_t c : children->second) n += count(c);
    through[port] = n;
    return n;
  };
  count(source);
  return through;
}

void CopyLedger::add_flow(LedgerFlow flow) {
  std::sort(flow.members.begin(), flow.members.end());
  const uint32_t id = raw(flow.id);
  Entry& e = entries_[id] = Entry{std::move(flow), {}};  // an unordered_map's entries stay where they are
  if (id < kDirect) {
    if (id >= direct_.size()) direct_.resize(id + 1, nullptr);
    direct_[id] = &e;
  }
}

CopyLedger::Entry* CopyLedger::entry(FlowId flow) {
  const uint32_t id = raw(flow);
  if (id < direct_.size()) return direct_[id];
  if (id < kDirect) return nullptr;
  const auto e = entries_.find(id);
  return e == entries_.end() ? nullptr : &e->second;
}

void CopyLedger::injected(const FrameRecord& r) {
  if (r.injected < 0) return;  // still at its source
  Entry* e = entry(r.flow);
  if (!e) return;
  e->tally.expected += e->flow.multicast ? e->flow.deliveries_through.at(raw(e->flow.src)) : 1;
}

void CopyLedger::delivered(const DeliveryRecord& r) {
  Entry* e = entry(r.flow);
  if (!e) return;
  ++e->tally.delivered;
  check(*e, r.delivered, "delivered");
}

uint32_t CopyLedger::copies_dropped(const LedgerFlow& f, const DropRecord& r) const {
  // A packet lost on a link inside the fabric (recorded against its copy's
  // source, for its target): the copy is sent again or stays unfinished.
  if (r.reason == DropReason::link && r.dst >= 0 && raw(r.port) != static_cast<uint32_t>(r.dst)) return 0;
  if (f.drops_recovered) return 0;
  if (!f.multicast) return 1;
  if (r.dst >= 0 && raw(r.port) == static_cast<uint32_t>(r.dst)) return 1;  // on the link to its CNA
  const auto through = [&](uint32_t port) {
    const auto t = f.deliveries_through.find(port);
    return t == f.deliveries_through.end() ? 0u : t->second;
  };
  if (r.dst >= 0) return through(static_cast<uint32_t>(r.dst));
  if (r.port == f.src) return through(raw(f.src));
  // Whole at a surrogate's ingress: what it was to replicate, not its own delivery.
  const bool member = std::binary_search(f.members.begin(), f.members.end(), raw(r.port));
  return through(raw(r.port)) - (member ? 1 : 0);
}

void CopyLedger::dropped(const DropRecord& r) {
  if (r.reason == DropReason::host_queue) return;  // lost before it was injected: no copy of it was counted
  Entry* e = entry(r.flow);
  if (!e) return;
  const uint32_t copies = copies_dropped(e->flow, r);
  if (copies == 0) {
    ++e->tally.recovered;
    return;
  }
  e->tally.dropped += copies;
  e->tally.dropped_by[static_cast<size_t>(r.reason)] += copies;
  check(*e, r.t, "dropped");
}

void CopyLedger::check(const Entry& e, Picos t, const char* what) {
  ++checks_;
  const CopyTally& c = e.tally;
  if (c.delivered + c.dropped <= c.expected) return;
  break_invariant(invariant::kConservation, "port " + std::to_string(raw(e.flow.src)), t,
                  "flow " + std::to_string(raw(e.flow.id)) + " (priority " + std::to_string(e.flow.priority) +
                      "): a copy " + what + " beyond those injected: " + std::to_string(c.delivered) +
                      " delivered and " + std::to_string(c.dropped) + " dropped of " + std::to_string(c.expected) +
                      " copies injected (a duplicate delivery, or a copy made from nothing)");
}

void CopyLedger::finish(Picos end, bool drained) {
  if (!drained) return;
  for (const auto& [id, e] : entries_) {
    ++checks_;
    if (e.tally.in_fabric() == 0) continue;
    break_invariant(invariant::kConservation, "port " + std::to_string(raw(e.flow.src)), end,
                    "flow " + std::to_string(id) + " (priority " + std::to_string(e.flow.priority) +
                        "): " + std::to_string(e.tally.expected) + " copies injected, " +
                        std::to_string(e.tally.delivered) + " delivered and " + std::to_string(e.tally.dropped) +
                        " dropped, at the end of a run that drained: " + std::to_string(e.tally.in_fabric()) +
                        " copies lost without a record");
  }
}

void CopyTally::add(const CopyTally& o) {
  expected += o.expected;
  delivered += o.delivered;
  dropped += o.dropped;
  recovered += o.recovered;
  for (size_t r = 0; r < dropped_by.size(); ++r) dropped_by[r] += o.dropped_by[r];
}

CopyTally CopyLedger::total() const {
  CopyTally t;
  for (const auto& [id, e] : entries_) t.add(e.tally);
  return t;
}

CopyTally CopyLedger::of(PortId src, int priority) const {
  CopyTally t;
  for (const auto& [id, e] : entries_)
    if (e.flow.src == src && e.flow.priority == priority) t.add(e.tally);
  return t;
}

std::vector<std::pair<PortId, CopyTally>> CopyLedger::by_port() const {
  std::map<uint32_t, CopyTally> ports;
  for (const auto& [id, e] : entries_) ports[raw(e.flow.src)].add(e.tally);
  std::vector<std::pair<PortId, CopyTally>> out;
  for (const auto& [port, t] : ports) out.emplace_back(PortId(port), t);
  return out;
}

}  // namespace fabric
