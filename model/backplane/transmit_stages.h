#pragma once
// The transmit side of a backplane end station (platforms.md, E12), as
// plain C++: the application writes whole frames into the NIC buffer while
// it has room (and blocks otherwise: a closed loop), frames move on in
// order to the MAC's transmit buffer while that has room, and the MAC sends
// the head of its buffer, whose bytes are free once the frame has left the
// wire.
#include <cstdint>

#include "model/core/buffer_pool.h"
#include "model/core/circular_queue.h"
#include "model/core/ids.h"

namespace fabric {

struct StationFrame {
  FrameId id{};
  FlowId flow{};
  uint32_t bytes = 0;
  uint32_t dst = 0;   // the destination station's port
  Picos created = 0;  // its first byte left the application
};

class TransmitStages {
 public:
  TransmitStages(uint32_t nic_bytes, uint32_t mac_bytes) : nic_(nic_bytes), mac_(mac_bytes) {}

  // Whether the application may write a frame of `bytes` now.
  bool nic_has_room(uint32_t bytes) const { return nic_.can_take(bytes); }
  // The application writes a frame (nic_has_room must hold); it moves on
  // to the MAC at once if it can.
  void write(const StationFrame& frame);
  bool mac_empty() const { return mac_queue_.empty(); }
  const StationFrame& mac_head() const { return mac_queue_.front(); }
  // The MAC's head frame has left the wire: its bytes are free, and frames
  // waiting in the NIC buffer move on.
  void sent();
  // Frames in either buffer.
  size_t held() const { return nic_queue_.size() + mac_queue_.size(); }
  // Each frame held, the MAC's in order, then the NIC's.
  template <class Visit>
  void for_each_held(Visit&& visit) const {
    for (size_t i = 0; i < mac_queue_.size(); ++i) visit(mac_queue_[i]);
    for (size_t i = 0; i < nic_queue_.size(); ++i) visit(nic_queue_[i]);
  }
  uint32_t nic_used() const { return nic_.used(); }
  uint32_t mac_used() const { return mac_.used(); }

 private:
  void advance();
  BufferPool nic_, mac_;
  CircularQueue<StationFrame, 8> nic_queue_, mac_queue_;
};

}  // namespace fabric
