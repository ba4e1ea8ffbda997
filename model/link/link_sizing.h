#pragma once
// How a designer sizes what a link's round trip decides, as plain C++
// (docs/model.md, "Derived keys"): the link-level retry timeout and buffer,
// and the hop-by-hop credit window of the buffer behind a link. Each
// figure is the worst case of the mechanism as the model has it; the
// derived keys take 1.5 times it (kSizingMargin: room for a control message
// queued behind others) or the spec's value, whichever is larger, so that
// the shipped fabric keeps the spec's values.
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

constexpr double kSizingMargin = 1.5;

struct LinkTiming {
  double rate_gbps = 25;
  Picos propagation = 200'000;           // the cable, one way
  uint32_t largest_message_bytes = 256;  // on the wire, either way
  uint32_t control_bytes = 10;           // a link ACK or a credit message
};

// Picoseconds `bytes` take on the wire at `gbps`.
double serialization_ps(uint64_t bytes, double gbps);
// Bytes a link sends at line rate in `ps`.
double bytes_in(double ps, double gbps);

// Link retry: a message goes out (its bytes, the cable), waits up to
// `ack_delay` for its coalesced ACK, which waits behind at most one largest
// message on the reverse link and comes back (its bytes, the cable).
double link_ack_round_trip_ps(const LinkTiming& link, Picos ack_delay);
// What the retry buffer must hold to keep the link at line rate: the bytes
// sent in one ACK round trip, and the message that is being sent when it
// ends.
double retry_buffer_need_bytes(const LinkTiming& link, Picos ack_delay);

// Hop-by-hop credits: a packet goes out (its bytes, the cable), the
// receiver frees its slot `receiver_latency` later, the credit waits up to
// `credit_delay` to leave, then behind at most one largest message, and
// comes back (its bytes, the cable).
double credit_round_trip_ps(const LinkTiming& link, Picos receiver_latency, Picos credit_delay);
// Largest messages the window must hold to keep the link at line rate.
double credit_window_need_packets(const LinkTiming& link, Picos receiver_latency, Picos credit_delay);

}  // namespace fabric
