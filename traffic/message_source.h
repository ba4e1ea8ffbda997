#pragma once
// What a closed-loop application writes, frame by frame: the flow's
// application messages in order, each to one destination drawn uniformly
// from the flow's destinations, sent as back-to-back Ethernet frames
// (MessageFrames). Without flow.NAME.message each frame is a message of its
// own, of the flow's frame size. Plain C++, seeded per flow.
#include <cstdint>
#include <random>

#include "model/core/ids.h"
#include "traffic/flow_spec.h"
#include "traffic/frame_size.h"
#include "traffic/message_size.h"

namespace fabric::traffic {

// Ethernet's largest payload and its header and FCS (no VLAN tag).
constexpr uint32_t kMaxPayloadBytes = 1500;
constexpr uint32_t kHeaderFcsBytes = 18;

class MessageSource {
 public:
  struct Frame {
    uint32_t bytes = 0;
    PortId dst{};
    bool first_of_message = false;
  };

  MessageSource(const FlowSpec& flow, uint64_t seed);

  // The frame the application writes next.
  const Frame& next() const { return next_; }
  // It was written: draw the one after.
  void take() { draw(); }
  uint64_t messages() const { return messages_; }

 private:
  void draw();

  const FlowSpec* flow_;
  std::mt19937_64 rng_;
  MessageFrames frames_{0, kMaxPayloadBytes, kHeaderFcsBytes, kMinFrameBytes};
  PortId dst_{};
  Frame next_;
  uint64_t messages_ = 0;
};

}  // namespace fabric::traffic
