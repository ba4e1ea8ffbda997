#pragma once
// A frame is cut into fabric packets of up to packet_bytes (256 B): a 1522 B
// frame is 6 packets, 5 x 256 + 242. One packet occupies one buffer unit.
#include <cstdint>

namespace fabric {

inline uint16_t segment_count(uint32_t frame_bytes, uint32_t packet_bytes) {
  return static_cast<uint16_t>((frame_bytes + packet_bytes - 1) / packet_bytes);
}

inline uint32_t segment_bytes(uint32_t frame_bytes, uint32_t packet_bytes, uint16_t index) {
  const uint32_t offset = static_cast<uint32_t>(index) * packet_bytes;
  const uint32_t left = frame_bytes - offset;
  return left < packet_bytes ? left : packet_bytes;
}

// Crossbar cycles to move `bytes` over an interface of bytes_per_cycle.
inline uint32_t crossbar_cycles(uint32_t bytes, uint32_t bytes_per_cycle) {
  return (bytes + bytes_per_cycle - 1) / bytes_per_cycle;
}

}  // namespace fabric
