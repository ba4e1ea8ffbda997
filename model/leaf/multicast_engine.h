#pragma once
// The multicast engine of a leaf (mechanisms 1-3): the copy streams of each
// port, the packet cache in front of the crossbar with its 454 MHz clock,
// and each port's VOQ sync CAM. A multicast frame is stored once and queued
// as one header per copy, each in its own VOQ with its own request, grant
// and ACK (fanout splitting). A granted copy becomes a stream sent packet by
// packet: through the port's own crossbar input when its packet is not in
// the cache (the Crossbar asks payload_stream()), or, on a hit, as a header
// the cache replicates through a free mirror (the clock: one header per
// port per cycle, hits first). The clock ticks only while a hit, a
// background reclaim or a sync timeout is due.
#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

#include "model/core/wakeup.h"
#include "model/leaf/copy_streams.h"
#include "model/leaf/leaf_ingress.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_observer.h"
#include "model/leaf/leaf_params.h"
#include "model/multicast/packet_cache.h"
#include "model/multicast/sync_cam.h"

namespace fabric {

class IngressUnit;
class Crossbar;
class FabricInjection;
class RetransmitUnit;

class MulticastEngine {
 public:
  struct Wiring {
    IngressUnit& ingress;
    Crossbar& crossbar;
    FabricInjection& injection;
    RetransmitUnit& retransmit;
  };
  MulticastEngine(const LeafLayout& layout, const LeafParams& params, EventQueue& events, const Wiring& wiring);
  // Who hears of each VOQ the sync CAMs suspend or resume (a LeafProbe), or null.
  void set_observer(LeafObserver* observer) { observer_ = observer; }

  // A multicast frame arrived at some port (cache counters are sampled from then on).
  void note_multicast() { multicast_seen_ = true; }
  // Whether VOQ sync holds the VOQ back.
  bool suspended(int k, uint32_t voq) const { return ports_[k].sync && ports_[k].sync->suspended(voq); }
  // The VOQ's head copy (multicast, granted) starts as a stream.
  void start_stream(int k, uint32_t voq);
  // A multicast copy was dropped from the head of its VOQ: VOQ sync counts
  // it as forwarded, and its packets have one reader fewer in the cache.
  void on_copy_dropped(int k, uint32_t voq, uint32_t slot);

  // For the port's crossbar input: the stream whose next packet goes through
  // the input (a miss, or the cache off), -1 if none can go now.
  bool has_streams(int k) const { return !ports_[k].streams.empty(); }
  int payload_stream(int k, Picos now) const;
  const CopyStream& stream(int k, int s) const { return ports_[k].streams[static_cast<size_t>(s)]; }
  // The input starts moving the stream's next packet (`cycles` long): the
  // cache sees it pass (and may keep it for the copies to come).
  void on_payload_packet(int k, const CopyStream& st, uint32_t cycles, Picos now);
  // ... and has moved it: the stream advances, done at packet_done.
  void payload_packet_sent(int k, int s, Picos packet_done);
  // Port k's crossbar input found no stream whose next packet it can move
  // now: each one's next packet is in the cache (the header path's) or its
  // packet before is still crossing. Checks (invariant kWakeComing) that the
  // cache clock is due or a hit waits for uplink room: else the stream
  // would wait for whatever wakes the clock next, maybe nothing.
  void check_a_wake_is_coming(int k);
  uint64_t wakes_checked() const { return wakes_checked_; }
  // An uplink queue has room: a hit waiting for one goes again.
  void on_uplink_room();

  const PacketCache* cache() const { return cache_.get(); }
  // The RTL blocks' work so far: the sync CAMs' and the cache's.
  RtlActivity sync_rtl_activity() const;
  RtlActivity cache_rtl_activity() const;
  // Whether the leaf forwarded multicast (its cache counters mean something).
  bool multicast_seen() const { return multicast_seen_; }
  // For a stall report: each copy stream still open, where its next packet
  // stands (in the cache or not, its input idle or not), at most max_lines.
  void describe_streams(std::ostream& out, int& max_lines) const;
  // The run is over: the blocks finish (a probe records their counters before).
  void finish();

 private:
  struct Port {
    CopyStreams streams;
    std::unique_ptr<SyncCam> sync;  // null: VOQ sync off
  };

  // A copy starts (or is dropped from its VOQ's head: the same for VOQ sync).
  void count_as_forwarded(int k, uint32_t voq, uint32_t slot);
  void check_no_stale_entries(int k, uint32_t slot);
  void describe_stream(std::ostream& out, int k, size_t s) const;
  void apply_sync_changes(int k);
  bool issue_hit(int k, Cycle c, Cycle& next);
  // Returns whether the stream goes on (false: that was its last packet).
  bool advance_stream(int k, int stream, Picos packet_done);
  // Where an RTL block's waveforms go, if this leaf's are written.
  rtl::TraceWindow trace_window(const std::string& block) const;
  void clock();
  void kick_clock(Picos at);
  uint32_t cache_unit(uint32_t slot, uint16_t segment) const { return slot * params_.max_frame_units + segment; }

  const LeafLayout& layout_;
  const LeafParams& params_;
  LeafObserver* observer_ = nullptr;
  Wiring wiring_;
  std::vector<Port> ports_;
  std::unique_ptr<PacketCache> cache_;  // null: cache off
  std::unique_ptr<Wakeup> clock_;
  bool hit_blocked_ = false;  // a hit waits for room in an uplink queue
  bool multicast_seen_ = false;
  uint64_t wakes_checked_ = 0;
  int first_port_ = 0;  // the port that issues first in the next cycle
};

}  // namespace fabric
