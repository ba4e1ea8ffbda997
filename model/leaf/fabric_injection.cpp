#include "model/leaf/fabric_injection.h"

#include "model/core/sim_time.h"
#include "model/leaf/crossbar.h"
#include "model/leaf/segmentation.h"

namespace fabric {

FabricInjection::FabricInjection(const LeafLayout& layout, const LeafParams& params, PayloadPool& pool,
                                 InternalPath& internal, LeafLinks& links, Crossbar& crossbar)
    : layout_(layout),
      params_(params),
      pool_(pool),
      internal_(internal),
      links_(links),
      crossbar_(crossbar),
      spray_(make_spray_policy(params.spray)),
      queues_(new Queue[static_cast<size_t>(layout.spines)]),
      depth_(layout.spines, 0) {}

bool FabricInjection::route(const Voq& q, int& uplink) {
  uplink = -1;
  if (layout_.is_local(q.target_leaf)) return true;
  uplink = spray_->choose(depth_, params_.uplink_queue_packets);
  if (uplink >= 0) return true;
  someone_blocked_ = true;
  return false;
}

void FabricInjection::launch(int k, const Voq& q, const StoredFrame& f, uint16_t segment, uint32_t copy_seq, int uplink,
                             Picos transfer) {
  const uint32_t bytes = segment_bytes(f.bytes, params_.packet_bytes, segment);
  Payload& m = pool_.acquire(MessageKind::packet, bytes);
  FabricPacket& p = packet_of(m);
  p.frame = f.frame;
  p.flow = f.flow;
  p.src = layout_.port(k);
  p.target = q.target;
  p.target_leaf = q.target_leaf;
  p.vl = q.vl;
  p.priority = f.priority;
  p.index = segment;
  p.count = f.units;
  p.frame_bytes = f.bytes;
  p.copy_seq = copy_seq;
  p.created = f.created;
  p.levels = f.levels;
  p.mid = f.mid;
  p.transport = f.transport;
  p.transport_seq = f.transport_seq;
  p.sent_seq = f.sent_seq;
  p.message = f.message;

  const Picos now = now_ps();
  if (uplink < 0) {  // a one-to-one crossbar link to a port of this leaf
    internal_.push(now + to_ps(params_.crossbar_latency), m);
    return;
  }
  info_of(m).ready_at = now + transfer + to_ps(params_.traversal);
  queues_[uplink].push_back(&m);
  ++depth_[uplink];
  links_.uplink_tx(uplink).kick();
}

TxSource::Pull FabricInjection::next_packet(int s, Picos not_after) {
  Queue& q = queues_[s];
  if (q.empty()) return {};
  Payload* head = q.front();
  if (info_of(*head).ready_at > not_after) return {nullptr, info_of(*head).ready_at};
  q.pop_front();
  --depth_[s];
  if (someone_blocked_) {  // the usual case, nobody waiting, costs no call
    someone_blocked_ = false;
    crossbar_.on_uplink_room();
  }
  return {head, kNever};
}

}  // namespace fabric
