#pragma once
// Records what a leaf's units count, as samples: the leaf exposes its
// counters (plain getters) and this probe, beside it, reads and records
// them, so the leaf has no recorder in the path of its counters. It is
// also the leaf's LeafObserver: what the units report as it happens (drops,
// holds, PAUSE, retransmissions, CNMs, VOQ sync) it records as drops and events of the port's entity.
#include <vector>

#include "model/core/ids.h"
#include "model/leaf/leaf_observer.h"
#include "model/recording/recorder.h"

namespace fabric {

class Leaf;

class LeafProbe final : public LeafObserver {
 public:
  // Declares the leaf's entity leaf<L>, then its congestion points that may
  // send a CNM (with QCN): entities port<N>.in and port<N>.out.
  LeafProbe(const Leaf& leaf, Recorder& recorder);

  // Every sample interval, at time t: each port's buffer occupancy
  // ('ingress_bytes', 'egress_bytes' of port<N>), the cache's
  // 'cache_entries' of leaf<L> and the cache counters of the ports that sent
  // multicast, the remote copies' hold times, the control messages.
  void sample(Picos t);
  // The cache's live entries and counters (at the run's end, before the
  // cache finishes).
  void sample_cache(Picos t);

  void on_drop(int k, FrameId frame, FlowId flow, int64_t dst, DropReason reason, Picos now) override;
  void on_hold(int k, FlowId flow, uint8_t priority, Picos now) override;
  void on_pause(int k, int priority, bool stop, bool headers, Picos now) override;
  void on_retransmission(int k, FlowId flow, PortId target, Picos now) override;
  void on_cnm(int k, bool ingress, FlowId culprit, uint8_t fb, Picos now) override;
  void on_sync(int k, PortId target, bool suspended, Picos now) override;

 private:
  void sample_remote_holds(Picos t);

  const Leaf& leaf_;
  Recorder& recorder_;
  EntityId leaf_entity_;  // leaf<L>: the cache's entries, the control messages
  struct PortPoints {
    EntityId in, out;  // port<N>.in, port<N>.out
  };
  std::vector<PortPoints> cnm_entities_;  // by port; empty without QCN
};

}  // namespace fabric
