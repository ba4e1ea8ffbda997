#pragma once
// What travels on a QuickRing ring (platforms.md, E14): data packets (a 10 B
// header and 200 B of payload) and control frames of a header alone
// (vouchers, tickets, retract requests, retracts). Plain C++.
#include <cstdint>

#include "model/ring/reservation.h"

namespace fabric::ring {

enum class FrameKind : uint8_t { data, ticket, voucher, retract_request, retract };

struct RingFrame {
  FrameKind kind = FrameKind::ticket;
  int origin = 0;          // the sender it is about (global station id): a packet's source, a ticket's sender
  int from = 0;            // the position that put it on this ring (the origin, or a bridge controller)
  int group = 0;           // a retract request: the holder's group
  Priority priority;       // the reservation it is about: (VTS, origin)
  uint64_t packet = 0;     // data: the sender's packet id
  uint64_t ots = 0;        // data: its ordering timestamp
  uint64_t timestamp = 0;  // the sender's Lamport time as the frame went on the wire
  uint64_t carried = 0;    // ticket: the highest clock of the stations it passed
  uint32_t map = 0;        // ticket: bit p set while position p of this ring has not reserved
  int target = -1;         // retract request: the global station it is for (the holder's sender)
  int64_t created = 0;     // data, ticket, voucher: when the host made the packet (ps)
};

constexpr uint32_t kHeaderBytes = 10;
constexpr uint32_t kPayloadBytes = 200;
inline uint32_t wire_bytes(const RingFrame& f) {
  return f.kind == FrameKind::data ? kHeaderBytes + kPayloadBytes : kHeaderBytes;
}

}  // namespace fabric::ring
