#pragma once
// Adapts a traffic/ flow generator to the CNA's FrameSource.
#include <optional>

#include "model/cna/frame_source.h"
#include "model/leaf/fdb.h"
#include "traffic/flow_source.h"

namespace fabric {

class TrafficFrameSource final : public FrameSource {
 public:
  // group_mac: the destination MAC of every frame of a multicast flow.
  TrafficFrameSource(const traffic::FlowSpec& spec, uint64_t seed, std::optional<uint64_t> group_mac)
      : source_(spec, seed), group_mac_(group_mac) {}
  FlowId flow() const override { return source_.spec().id; }
  int priority() const override { return source_.spec().priority; }
  Picos next_time() const override { return source_.next_time(); }
  NewFrame pop(Picos now) override {
    const traffic::GeneratedFrame f = source_.pop(now);
    return {f.created, group_mac_ ? *group_mac_ : mac_of(f.dst), f.bytes, f.flow};
  }
  void defer_to(Picos t) override { source_.defer_to(t); }

 private:
  traffic::FlowSource source_;
  std::optional<uint64_t> group_mac_;
};

}  // namespace fabric
