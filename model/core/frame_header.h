#pragma once
// What every holder of a frame (or a copy of it) knows about the frame: the
// CNA's Ethernet frame, the leaf's stored frame, the egress's reassembled copy.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

// The CNAs' end-to-end transport (model/cna/e2e_transport.h): a numbered
// data frame, or an ACK or NAK frame back to its source.
enum class TransportKind : uint8_t { none, data, ack, nak };

struct FrameHeader {
  FrameId frame{};
  FlowId flow{};
  PortId src{};
  uint32_t bytes = 0;
  uint8_t priority = 0;
  Picos created = 0;   // at the source CNA
  uint8_t levels = 0;  // surrogate ports passed so far (deliveries.surrogate_levels)
  Mid mid{};           // a multicast frame's group: a surrogate looks its fanout up by it
  TransportKind transport = TransportKind::none;
  uint32_t transport_seq = 0;  // data: its number per (source, destination, priority); ACK/NAK: the next expected
  // Every frame's number as its CNA sent it, per priority from 1 (a frame
  // sent again takes a new one): the order the fabric keeps (DeliveryOrder).
  uint32_t sent_seq = 0;
  // A job's frame: the number of the message it is part of (its header, as
  // the application's transport writes it), so its destination knows which
  // receive it fills; 0 for every other frame. In the header's padding: the
  // header's size is unchanged.
  uint32_t message = 0;
};

}  // namespace fabric
