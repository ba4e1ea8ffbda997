#include "model/ring/station_protocol.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace fabric::ring {

StationProtocol::StationProtocol(int position, int id, RingLayout layout, int buffers,
                                 const std::vector<RingGroup>& groups, bool free_on_receipt, OwnFrames own_frames)
    : position_(position),
      id_(id),
      layout_(std::move(layout)),
      free_on_receipt_(free_on_receipt),
      buffers_(buffers),
      groups_(groups),
      own_frames_(own_frames) {
  for (const RingGroup& g : groups_) {
    if (std::find(g.members.begin(), g.members.end(), id) == g.members.end()) continue;
    order_.emplace(g.id, TotalOrder(g.senders));
    member_group_ = g.id;
    if (std::find(g.senders.begin(), g.senders.end(), id) != g.senders.end()) my_group_ = g.id;
  }
}

void StationProtocol::set_limit(int q) {
  limit_ = q;
  admit();
}

void StationProtocol::host_packet(uint64_t id, int64_t created) {
  if (my_group_ < 0) throw std::logic_error("ring: a host packet at a station that sends to no group");
  host_.push_back({id, created});
  admit();
}

void StationProtocol::admit() {
  while (!host_.empty() && (limit_ == 0 || static_cast<int>(spq_.size()) < limit_)) {
    const uint64_t vts = clock_.tick();
    spq_.admit(host_.front().first, vts, host_.front().second);
    host_.pop_front();
    reservations_.push_back({vts, layout_.destinations(my_group_, position_), false, false});
    ready_.push_back({vts, 1});
  }
}

StationProtocol::Reservation* StationProtocol::reservation(uint64_t vts) {
  const auto it = std::lower_bound(reservations_.begin(), reservations_.end(), vts,
                                   [](const Reservation& r, uint64_t v) { return r.vts < v; });
  return it != reservations_.end() && it->vts == vts ? &*it : nullptr;
}

void StationProtocol::take_ready_tickets(std::vector<Ready>& out) {
  out.clear();
  out.swap(ready_);
}

void StationProtocol::send_ticket(uint64_t vts) {
  Reservation* found = reservation(vts);
  if (found == nullptr) return;  // authorised meanwhile (circular shifting)
  Reservation& r = *found;
  if (r.pending == 0) {  // every member holds it already (a retry after a ticket that completed late)
    authorise(vts);
    return;
  }
  ++spq_.at_vts(vts).attempts;
  r.ticket_out = true;
  ++tickets_sent_;
  RingFrame f;
  f.kind = FrameKind::ticket;
  f.origin = id_;
  f.from = position_;
  f.group = my_group_;
  f.priority = {vts, id_};
  f.map = r.pending;
  f.created = spq_.at_vts(vts).created;  // the load it belongs to, for the bridges' permits
  // Each attempt tells the bridges first: a voucher goes down the group's
  // tree ahead of the ticket (starting the tickets beyond, and showing the
  // stations there that this sender has moved on).
  if (layout_.has_bridge(my_group_)) {
    RingFrame v = f;
    v.kind = FrameKind::voucher;
    v.map = 0;
    queue_ticket(v);
  }
  queue_ticket(f);
}

void StationProtocol::queue_ticket(const RingFrame& f) {
  // After every frame of a lower VTS, and a ticket after its own voucher.
  const auto at = std::upper_bound(tickets_out_.begin(), tickets_out_.end(), f.priority.vts,
                                   [](uint64_t vts, const RingFrame& q) { return vts < q.priority.vts; });
  tickets_out_.insert(at, f);
}

std::optional<RingFrame> StationProtocol::take_frame() {
  const bool data_first = own_frames_ == OwnFrames::data_first;
  std::deque<RingFrame>& sooner = data_first ? data_out_ : tickets_out_;
  std::deque<RingFrame>& later = data_first ? tickets_out_ : data_out_;
  std::deque<RingFrame>& out = !retracts_out_.empty() ? retracts_out_ : !sooner.empty() ? sooner : later;
  if (out.empty()) return std::nullopt;
  RingFrame f = out.front();
  out.pop_front();
  if (f.kind == FrameKind::data) {
    f.ots = clock_.tick();  // the ordering timestamp, as it goes
    f.timestamp = f.ots;
    // The source delivers its own packet in the same total order (it holds
    // no receive buffer for it).
    if (order_.count(f.group)) {
      order_.at(f.group).arrived(f.ots, id_, f.packet, 0, f.created);
      deliver_ready(f.group);
    }
  } else {
    f.timestamp = clock_.now();
    f.carried = f.timestamp;
  }
  return f;
}

bool StationProtocol::receive(RingFrame& f) {
  clock_.observe(f.timestamp);
  for (auto& [group, order] : order_) order.seen(f.origin, f.timestamp);
  switch (f.kind) {
    case FrameKind::ticket:
      if (f.from == position_) {
        clock_.observe(f.carried);
        on_ticket_back(f);
        return false;  // a ticket returns to its source and stops
      }
      on_ticket(f);
      f.carried = std::max(f.carried, clock_.now());
      break;
    case FrameKind::data:
      requests_forwarded_.forget(f.priority);
      if (f.origin != id_ && member_of(f.group)) on_data(f);
      return layout_.last_destination(f.from, f.group) != position_;
    case FrameKind::retract:
      requests_forwarded_.forget(f.priority);
      if (member_of(f.group)) buffers_.cancel(f.priority);
      break;
    case FrameKind::retract_request:
      if (f.target == id_) {
        on_retract_request(f);
        return false;
      }
      if (f.from == position_) return false;  // round the ring: its target is on none of its stations
      // Merged: a member of the holder's group that already forwarded a
      // request for it drops this one (the holder's retract or packet, which
      // passes every member, ends the note).
      return !member_of(f.group) || requests_forwarded_.note(f.priority);
    case FrameKind::voucher:  // for bridges only
      return layout_.last_destination(f.from, f.group) != position_;
  }
  for (auto& [group, order] : order_) deliver_ready(group);  // another sender seen further on, or a buffer freed
  if (f.kind == FrameKind::retract) return layout_.last_destination(f.from, f.group) != position_;
  return true;
}

void StationProtocol::on_ticket(RingFrame& f) {
  if (!(f.map >> position_ & 1)) return;
  const TicketOutcome o = buffers_.on_ticket(f.priority);
  if (o.kind == TicketOutcome::Kind::reserved || o.kind == TicketOutcome::Kind::already_held) {
    f.map &= ~(uint32_t{1} << position_);
    return;
  }
  if (o.kind == TicketOutcome::Kind::retract_request && requests_forwarded_.note(o.victim)) {
    RingFrame r;
    r.kind = FrameKind::retract_request;
    r.origin = id_;
    r.from = position_;
    r.group = member_group_;  // the holder's (a station holds reservations of its own group only)
    r.priority = o.victim;
    r.target = o.victim.station;
    retracts_out_.push_back(r);
    ++retract_requests_;
  }
}

void StationProtocol::on_ticket_back(const RingFrame& f) {
  Reservation* found = reservation(f.priority.vts);
  if (found == nullptr) return;
  Reservation& r = *found;
  r.ticket_out = false;
  if (r.retracted) {  // a retract cancelled what this ticket reserved: every bit again
    r.retracted = false;
    r.pending = layout_.destinations(my_group_, position_);
  } else {
    r.pending = f.map;
  }
  if (r.pending != 0) {
    spq_.at_vts(f.priority.vts).failed = true;
    notices_.push_back({SenderNotice::Kind::failed});
    ready_.push_back({f.priority.vts, spq_.at_vts(f.priority.vts).attempts + 1});
    return;
  }
  authorise(f.priority.vts);
}

void StationProtocol::authorise(uint64_t vts) {
  // The head goes, in this reservation's buffers.
  const SenderQueue::Send s = spq_.complete(vts);
  reservations_.erase(reservations_.begin() + (reservation(vts) - reservations_.data()));
  RingFrame d;
  d.kind = FrameKind::data;
  d.origin = id_;
  d.from = position_;
  d.group = my_group_;
  d.priority = {s.buffers_vts, id_};
  d.packet = s.packet.id;
  d.created = s.packet.created;
  data_out_.push_back(d);
  ++packets_sent_;
  notices_.push_back({SenderNotice::Kind::authorised, s.packet.id, s.packet.attempts, s.packet.retracts,
                      s.packet.failed, s.packet.created});
  admit();
}

void StationProtocol::on_retract_request(const RingFrame& f) {
  Reservation* found = reservation(f.priority.vts);
  if (found == nullptr) return;  // already multicast: nothing to retract
  Reservation& r = *found;
  RingFrame x;
  x.kind = FrameKind::retract;
  x.origin = id_;
  x.from = position_;
  x.group = my_group_;
  x.priority = f.priority;
  retracts_out_.push_back(x);
  ++retracts_sent_;
  QueuedPacket& p = spq_.at_vts(f.priority.vts);
  ++p.retracts;
  p.failed = true;
  notices_.push_back({SenderNotice::Kind::retracted});
  if (r.ticket_out) {
    r.retracted = true;  // its ticket, when back, starts over
  } else {
    r.pending = layout_.destinations(my_group_, position_);
  }
}

void StationProtocol::on_data(const RingFrame& f) {
  if (!buffers_.fill(f.priority))
    throw std::logic_error("ring: a packet reached a member that reserved no buffer for it");
  if (free_on_receipt_) buffers_.release(f.priority);
  order_.at(f.group).arrived(f.ots, f.origin, f.packet, free_on_receipt_ ? 0 : f.priority.vts, f.created);
  deliver_ready(f.group);
}

void StationProtocol::deliver_ready(int group) {
  TotalOrder& order = order_.at(group);
  order.seen(id_, clock_.now());  // this station's own next packets come later than its clock
  const auto active = [this](int sender) { return buffers_.awaits(sender); };
  while (const auto next = order.next(active)) {
    if (next->buffer_vts != 0) buffers_.release({next->buffer_vts, next->source});
    delivered_.push_back({next->source, next->id, next->ots, next->created});
  }
}

void StationProtocol::take_deliveries(std::vector<Delivery>& out) {
  out.clear();
  out.swap(delivered_);
}

void StationProtocol::take_notices(std::vector<SenderNotice>& out) {
  out.clear();
  out.swap(notices_);
}

size_t StationProtocol::undelivered() const {
  size_t n = 0;
  for (const auto& [group, order] : order_) n += order.buffered();
  return n;
}

}  // namespace fabric::ring
