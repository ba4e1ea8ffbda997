#include "model/link/link_sizing.h"

namespace fabric {

double serialization_ps(uint64_t bytes, double gbps) { return static_cast<double>(bytes) * 8.0 * 1000.0 / gbps; }

double bytes_in(double ps, double gbps) { return ps * gbps / 8000.0; }

double link_ack_round_trip_ps(const LinkTiming& link, Picos ack_delay) {
  const double largest = serialization_ps(link.largest_message_bytes, link.rate_gbps);
  return 2.0 * static_cast<double>(link.propagation) + largest + static_cast<double>(ack_delay) + largest +
         serialization_ps(link.control_bytes, link.rate_gbps);
}

double retry_buffer_need_bytes(const LinkTiming& link, Picos ack_delay) {
  return bytes_in(link_ack_round_trip_ps(link, ack_delay), link.rate_gbps) + link.largest_message_bytes;
}

double credit_round_trip_ps(const LinkTiming& link, Picos receiver_latency, Picos credit_delay) {
  const double largest = serialization_ps(link.largest_message_bytes, link.rate_gbps);
  return 2.0 * static_cast<double>(link.propagation) + largest + static_cast<double>(receiver_latency) +
         static_cast<double>(credit_delay) + largest + serialization_ps(link.control_bytes, link.rate_gbps);
}

double credit_window_need_packets(const LinkTiming& link, Picos receiver_latency, Picos credit_delay) {
  return bytes_in(credit_round_trip_ps(link, receiver_latency, credit_delay), link.rate_gbps) /
         link.largest_message_bytes;
}

}  // namespace fabric
