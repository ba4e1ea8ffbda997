#pragma once
// Link messages counted by kind as the links carry them: frames, packets and
// each kind of control message. Each worker thread counts into a line of
// its own; totals() sums them. One model per process (as SystemC's single
// simulation context has it): a run starts with reset().
#include <array>
#include <cstdint>

#include "model/core/worker.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {

class LinkCensus {
 public:
  // Frame, packet, then the control kinds in ControlKind's order.
  static constexpr int kKinds = 2 + static_cast<int>(ControlKind::link_nak) + 1;
  using Counts = std::array<uint64_t, kKinds>;

  static int kind_of(const Payload& message) {
    switch (info_of(message).kind) {
      case MessageKind::frame:
        return 0;
      case MessageKind::packet:
        return 1;
      default:
        return 2 + static_cast<int>(control_of(message).kind);
    }
  }
  static void count(const Payload& message) { shelves_[Worker::index()].counts[kind_of(message)]++; }
  static const char* name(int kind);
  static Counts totals();
  static void reset();

 private:
  struct alignas(64) Shelf {
    Counts counts{};
  };
  static Shelf shelves_[Worker::kMax];
};

}  // namespace fabric
