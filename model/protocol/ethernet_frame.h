#pragma once
// A new Ethernet frame message from the pool, as every sender of frames
// builds it (a CNA, a backplane station, an InfiniBand host adapter): its
// header and destination address, not yet on a link.
#include "model/core/frame_header.h"
#include "model/protocol/fabric_protocol.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

inline Payload& acquire_frame(PayloadPool& pool, const FrameHeader& header, uint64_t dst_mac) {
  Payload& m = pool.acquire(MessageKind::frame, header.bytes);
  EthernetFrame& f = frame_of(m);
  static_cast<FrameHeader&>(f) = header;
  f.dst_mac = dst_mac;
  f.arrival = {};  // set by a link that delivers at the first byte
  return m;
}

}  // namespace fabric
