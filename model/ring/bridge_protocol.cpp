#include "model/ring/bridge_protocol.h"

#include <algorithm>
#include <stdexcept>

namespace fabric::ring {

BridgeProtocol::BridgeProtocol(Side side0, Side side1, int buffers_per_side)
    : sides_{std::move(side0), std::move(side1)},
      buffers_{ReceiveBuffers(buffers_per_side), ReceiveBuffers(buffers_per_side)} {}

BridgeProtocol::Crossing* BridgeProtocol::find(const Priority& p) {
  for (Crossing& c : crossings_)
    if (c.priority == p) return &c;
  return nullptr;
}

void BridgeProtocol::forget(const Priority& p) {
  crossings_.erase(
      std::remove_if(crossings_.begin(), crossings_.end(), [&](const Crossing& c) { return c.priority == p; }),
      crossings_.end());
}

bool BridgeProtocol::destination(int side, const RingFrame& f) const {
  return sides_[side].layout.destinations(f.group, f.from) >> sides_[side].position & 1;
}

bool BridgeProtocol::last_here(int side, const RingFrame& f) const {
  return sides_[side].layout.last_destination(f.from, f.group) == sides_[side].position;
}

bool BridgeProtocol::reserve(int side, const RingFrame& f) {
  const TicketOutcome o = buffers_[side].on_ticket(f.priority);
  if (o.kind == TicketOutcome::Kind::reserved || o.kind == TicketOutcome::Kind::already_held) {
    const int exit = 1 - side;
    Crossing c;
    c.priority = f.priority;
    c.group = f.group;
    c.exit = exit;
    c.timestamp = f.timestamp;
    c.pending = sides_[exit].layout.destinations(f.group, sides_[exit].position);
    crossings_.push_back(c);
    return true;
  }
  // Full: like a member, ask the lowest holder here to retract (tickets
  // only; a voucher just finds no room).
  if (f.kind == FrameKind::ticket && o.kind == TicketOutcome::Kind::retract_request &&
      requests_forwarded_.note(o.victim)) {
    RingFrame r;
    r.kind = FrameKind::retract_request;
    r.origin = -1;  // a bridge: no sender
    r.from = sides_[side].position;
    r.group = find(o.victim) ? find(o.victim)->group : f.group;
    r.priority = o.victim;
    r.target = o.victim.station;
    r.timestamp = clock_.now();
    out_[side].push_back(r);
  }
  return false;
}

void BridgeProtocol::want_ticket(Crossing& c) {
  if (c.ticket_out || c.wants_ticket || c.complete) return;
  c.wants_ticket = true;
  ready_.push_back({c.exit, c.priority, c.attempts + 1});
}

void BridgeProtocol::note_offered(int side, const RingFrame& v) {
  std::vector<uint64_t>& newest = newest_vts_[side];
  const auto station = static_cast<size_t>(v.priority.station);
  if (station >= newest.size()) newest.resize(station + 1, 0);
  if (v.priority.vts + 1 <= newest[station]) return;  // a retry's voucher, or an older packet's
  newest[station] = v.priority.vts + 1;
  offered_.push_back({1 - side, v.priority.station, v.created});
}

void BridgeProtocol::take_offered(std::vector<Offered>& out) {
  out.clear();
  out.swap(offered_);
}

void BridgeProtocol::take_ready(std::vector<Ready>& out) {
  out.clear();
  out.swap(ready_);
}

void BridgeProtocol::launch(int side, const Priority& p) {
  Crossing* c = find(p);
  if (c == nullptr || !c->wants_ticket || c->exit != side) return;  // retracted meanwhile
  c->wants_ticket = false;
  if (c->pending == 0) {  // nothing beyond on that ring
    c->complete = true;
    release_held(*c);
    return;
  }
  c->ticket_out = true;
  ++c->attempts;
  ++tickets_[side];
  RingFrame t;
  t.kind = FrameKind::ticket;
  t.origin = p.station;
  t.from = sides_[side].position;
  t.group = c->group;
  t.priority = p;
  t.timestamp = c->timestamp;  // the sender's: its frames beyond stay in its order
  t.carried = clock_.now();
  t.map = c->pending;
  out_[side].push_back(t);
}

void BridgeProtocol::relay(int to_side, RingFrame f) {
  f.from = sides_[to_side].position;
  out_[to_side].push_back(f);
}

void BridgeProtocol::release_held(Crossing& c) {
  if (!c.held) return;
  const int entry = 1 - c.exit;
  RingFrame t = *c.held;
  c.held.reset();
  if (c.complete) t.map &= ~(uint32_t{1} << sides_[entry].position);  // everything beyond holds a buffer
  t.carried = std::max(t.carried, clock_.now());
  out_[entry].push_back(t);
}

void BridgeProtocol::on_ticket(int side, RingFrame& f, bool& keep) {
  if (!(f.map >> sides_[side].position & 1)) return;
  Crossing* c = find(f.priority);
  if (c == nullptr) {
    if (!reserve(side, f)) return;  // refused here: the bit stays set
    c = &crossings_.back();
  }
  if (c->complete) {
    f.map &= ~(uint32_t{1} << sides_[side].position);
    return;
  }
  // A ticket beyond goes with the sender's latest timestamp: stations there
  // see the sender move on (their deliveries in total order wait for it).
  c->timestamp = std::max(c->timestamp, f.timestamp);
  // Held until the ticket beyond is back (launched now if none is out).
  c->held = f;
  keep = false;
  want_ticket(*c);
}

void BridgeProtocol::on_ticket_back(int side, const RingFrame& f) {
  clock_.observe(f.carried);
  Crossing* c = find(f.priority);
  if (c == nullptr || c->exit != side) return;
  c->ticket_out = false;
  if (c->retracted) {  // cancelled meanwhile: the held ticket goes on refused
    release_held(*c);
    forget(f.priority);
    return;
  }
  c->pending = f.map;
  c->complete = c->pending == 0;
  release_held(*c);
}

bool BridgeProtocol::receive(int side, RingFrame& f) {
  clock_.observe(f.timestamp);
  const int other = 1 - side;
  switch (f.kind) {
    case FrameKind::voucher:
      if (destination(side, f)) {
        note_offered(side, f);
        Crossing* c = find(f.priority);
        if (c == nullptr && reserve(side, f)) c = &crossings_.back();
        if (c != nullptr) {
          c->timestamp = std::max(c->timestamp, f.timestamp);
          relay(other, f);  // on down the group's tree, ahead of the ticket
          want_ticket(*c);
        }
      }
      return !last_here(side, f);
    case FrameKind::ticket: {
      if (f.from == sides_[side].position) {  // a ticket beyond, back
        on_ticket_back(side, f);
        return false;
      }
      bool keep = true;
      on_ticket(side, f, keep);
      f.carried = std::max(f.carried, clock_.now());
      return keep;
    }
    case FrameKind::data:
      requests_forwarded_.forget(f.priority);
      if (destination(side, f)) {
        if (!buffers_[side].fill(f.priority))
          throw std::logic_error("ring: a packet reached a bridge that reserved no buffer for it");
        forget(f.priority);
        relay(other, f);
      }
      return !last_here(side, f);
    case FrameKind::retract:
      requests_forwarded_.forget(f.priority);
      if (destination(side, f)) {
        buffers_[side].cancel(f.priority);
        // Beyond, always: a ticket held at a bridge further on may have
        // reserved there after an earlier retract passed.
        relay(other, f);
        if (Crossing* c = find(f.priority)) {
          if (c->ticket_out) {
            c->retracted = true;
          } else {
            release_held(*c);
            forget(f.priority);
          }
        }
      }
      return !last_here(side, f);
    case FrameKind::retract_request:
      if (sides_[side].beyond.at(static_cast<size_t>(f.target))) {  // its sender is beyond: relayed towards it
        relay(other, f);
        return false;
      }
      return f.from != sides_[side].position;  // round this ring: its target is not here
  }
  return true;
}

std::optional<RingFrame> BridgeProtocol::take_frame(int side) {
  if (out_[side].empty()) return std::nullopt;
  RingFrame f = out_[side].front();
  out_[side].pop_front();
  if (f.kind == FrameKind::data) {  // relayed: its buffer at the entry side is free
    buffers_[1 - side].release(f.priority);
    ++relayed_[side];
  }
  return f;
}

int BridgeProtocol::buffers_used(int side) const { return buffers_[1 - side].capacity() - buffers_[1 - side].free(); }

int BridgeProtocol::held_tickets() const {
  return static_cast<int>(
      std::count_if(crossings_.begin(), crossings_.end(), [](const Crossing& c) { return c.held.has_value(); }));
}

}  // namespace fabric::ring
