#include "model/leaf/leaf_egress.h"

#include <algorithm>

#include "model/link/tx_port.h"

namespace fabric {

LeafEgress::LeafEgress(PortId port, const LeafParams& params) : port_(port), params_(params), arbiters_(kVls) {}

CreditArbiter& LeafEgress::arbiter(Vl vl) {
  auto& a = arbiters_[raw(vl)];
  if (!a) a = std::make_unique<CreditArbiter>(params_.egress_pool_units, params_.arbiter_quantum_units);
  return *a;
}

void LeafEgress::on_request(PortId src, Vl vl, uint32_t units, uint32_t frames, CopyRange copies) {
  arbiter(vl).request(raw(src), units, frames, copies);
}

void LeafEgress::arbitrate(std::vector<EgressGrant>& out) {
  for (int v = 0; v < kVls; ++v) {
    if (!arbiters_[v] || arbiters_[v]->active_requesters() == 0) continue;
    scratch_.clear();
    arbiters_[v]->arbitrate(scratch_);
    for (const auto& g : scratch_) out.push_back({PortId(g.requester), Vl(v), g.units, g.frames, g.copies});
  }
}

uint32_t LeafEgress::context_index(PortId src, Vl vl) {
  if (src == last_src_ && vl == last_vl_) return last_index_;
  last_index_ = find_or_add_context(src, vl);
  last_src_ = src;
  last_vl_ = vl;
  return last_index_;
}

uint32_t LeafEgress::find_or_add_context(PortId src, Vl vl) {
  const size_t s = raw(src);
  if (s >= first_of_src_.size()) first_of_src_.resize(s + 1, 0);
  uint32_t last = 0;  // 1 + index of the chain's last context
  for (uint32_t c = first_of_src_[s]; c != 0; c = contexts_[c - 1].next_of_src) {
    if (contexts_[c - 1].vl == vl) return c - 1;
    last = c;
  }
  contexts_.push_back(Context{src, vl, ReorderBuffer{}, false, 0, 0});
  const uint32_t added = static_cast<uint32_t>(contexts_.size());
  (last == 0 ? first_of_src_[s] : contexts_[last - 1].next_of_src) = added;
  return added - 1;
}

LeafEgress::Arrival LeafEgress::on_packet(const FabricPacket& p, Picos entered_at) {
  const uint32_t index = context_index(p.src, p.vl);
  Context& ctx = contexts_[index];
  if (ctx.reorder.has_packet(p.copy_seq, p.index)) return Arrival::duplicate;
  ++held_[raw(p.vl)];
  CopyMeta meta;
  static_cast<FrameHeader&>(meta) = FrameHeader{p.frame,  p.flow, p.src,       p.frame_bytes,   p.priority, p.created,
                                                p.levels, p.mid,  p.transport, p.transport_seq, p.sent_seq, p.message};
  meta.segments = p.count;
  if (!ctx.reorder.on_packet(p.copy_seq, p.index, meta, entered_at)) return Arrival::kept;
  if (!ctx.listed) {
    ctx.listed = true;
    ready_[priority_of(ctx.vl)].push_back(index);
  }
  return Arrival::ready;
}

LeafEgress::Next LeafEgress::next_copy(Picos now, const LoopRoom* room) {
  blocked_.reset();
  blocked_by_headers_.reset();
  Picos earliest = kNever;
  // One more step than priorities: the priority whose turn it is may have
  // used its weight up, and comes round again last.
  for (int step = 0; step <= kPriorities; ++step) {
    if (served_in_turn_ < params_.egress_priority_weights[turn_priority_]) {
      if (std::optional<ForwardedCopy> copy = take_ready(turn_priority_, now, earliest, room)) {
        ++served_in_turn_;
        return {copy, kNever};
      }
    }
    turn_priority_ = (turn_priority_ + kPriorities - 1) % kPriorities;  // 7, 6, ... 0, 7
    served_in_turn_ = 0;
  }
  return {std::nullopt, earliest};
}

std::optional<ForwardedCopy> LeafEgress::take_ready(int priority, Picos now, Picos& earliest, const LoopRoom* room) {
  CircularQueue<uint32_t, 8>& ready = ready_[priority];
  for (size_t tries = ready.size(); tries > 0; --tries) {
    const uint32_t index = ready.front();
    ready.pop_front();
    Context& ctx = contexts_[index];
    if (room) {  // a held-back copy is tried again when room frees
      const RoomShortage shortage = room->shortage(ctx.reorder.front().meta);
      if (shortage != RoomShortage::none) {
        blocked_.set(raw(ctx.vl));
        if (shortage == RoomShortage::headers) blocked_by_headers_.set(raw(ctx.vl));
        ready.push_back(index);
        continue;
      }
    }
    const Picos ready_at = ctx.reorder.front().ready_at;
    if (ready_at > now) {
      earliest = std::min(earliest, ready_at);
      ready.push_back(index);
      continue;
    }
    ReorderBuffer::ReadyCopy c = ctx.reorder.pop();
    if (ctx.reorder.has_ready()) {
      ready.push_back(index);
    } else {
      ctx.listed = false;
    }
    return ForwardedCopy{c.meta, ctx.src, ctx.vl, ctx.forwarded++};
  }
  return std::nullopt;
}

void LeafEgress::on_forwarded(const ForwardedCopy& copy) {
  arbiter(copy.vl).release(copy.meta.segments);
  held_[raw(copy.vl)] -= copy.meta.segments;
}

uint32_t LeafEgress::free_units(Vl vl) const {
  return arbiters_[raw(vl)] ? arbiters_[raw(vl)]->free_units() : params_.egress_pool_units;
}

uint32_t LeafEgress::used_units() const {
  uint32_t used = 0;
  for (const auto& a : arbiters_)
    if (a) used += a->capacity() - a->free_units();
  return used;
}

uint64_t LeafEgress::copies_held() const {
  uint64_t n = 0;
  for (const Context& c : contexts_) n += c.reorder.partial_copies() + c.reorder.ready_copies();
  return n;
}

}  // namespace fabric
