#pragma once
// Adapts a traffic/ flow generator to the CNA's FrameSource.
#include "model/cna/frame_source.h"
#include "traffic/flow_source.h"

namespace fabric {

class TrafficFrameSource final : public FrameSource {
 public:
  TrafficFrameSource(const traffic::FlowSpec& spec, uint64_t seed) : source_(spec, seed) {}
  FlowId flow() const override { return source_.spec().id; }
  int priority() const override { return source_.spec().priority; }
  Picos next_time() const override { return source_.next_time(); }
  NewFrame pop(Picos now) override {
    const traffic::GeneratedFrame f = source_.pop(now);
    return {f.created, f.dst, f.bytes};
  }
  void defer_to(Picos t) override { source_.defer_to(t); }

 private:
  traffic::FlowSource source_;
};

}  // namespace fabric
