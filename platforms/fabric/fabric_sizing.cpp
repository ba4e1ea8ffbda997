#include "platforms/fabric/fabric_sizing.h"

#include <algorithm>
#include <cmath>

#include "model/core/sim_time.h"
#include "model/link/link_sizing.h"
#include "platforms/common/quantity_text.h"
#include "platforms/fabric/fabric_instances.h"
#include "traffic/frame_size.h"

namespace fabric {

// The leaf-spine link as its retry and credits see it.
LinkTiming fabric_link_timing(const FabricKeys& k, const TopologyParams& t) {
  LinkTiming link;
  link.rate_gbps = t.fabric_link.rate_gbps;
  link.propagation = to_ps(t.fabric_link.propagation);
  link.largest_message_bytes =
      static_cast<uint32_t>(std::max(k.leaf.packet_bytes.value(), k.leaf.ethernet_control_frame_bytes.value()));
  link.control_bytes = static_cast<uint32_t>(k.leaf.control_bytes.value());
  return link;
}

std::string cable_text(const FabricKeys& k) {
  return number_text(k.topology.leaf_spine_cable_m) + " m leaf-spine link";
}

void note_check(const config::Config& c, std::string name, std::vector<std::string> keys, bool holds,
                std::string detail) {
  c.note_check({std::move(name), std::move(keys), holds, std::move(detail)});
}

namespace {

// fabric.md: frames are cut into packets of up to 256 B, the cells the
// spec's buffer sizes in packets count.
constexpr int64_t kSpecPacketBytes = 256;

// "2 x 200 ns of flight + 81.9 ns for a 256 B message each way"
std::string flight_text(const LinkTiming& link) {
  return "2 x " + time_text(double(link.propagation)) + " of flight + " +
         time_text(serialization_ps(link.largest_message_bytes, link.rate_gbps)) + " for a " +
         std::to_string(link.largest_message_bytes) + " B message each way";
}

std::string ack_round_trip_text(const FabricKeys& k, const LinkTiming& link) {
  return "the link ACK round trip of a " + cable_text(k) + ", " +
         time_text(link_ack_round_trip_ps(link, k.link.retry.ack_delay)) + " (" + flight_text(link) +
         " + link.retry.ack_delay " + time_text(double(k.link.retry.ack_delay.value())) + " + " +
         time_text(serialization_ps(link.control_bytes, link.rate_gbps)) + " for a " +
         std::to_string(link.control_bytes) + " B ACK)";
}

std::string credit_round_trip_text(const FabricKeys& k, const LinkTiming& link, const std::string& latency_key,
                                   Picos latency) {
  return "the credit round trip of a " + cable_text(k) + ", " +
         time_text(credit_round_trip_ps(link, latency, k.link.credit.delay)) + " (" + flight_text(link) + " + " +
         latency_key + " " + time_text(double(latency)) + " + link.credit_delay " +
         time_text(double(k.link.credit.delay.value())) + " + " +
         time_text(serialization_ps(link.control_bytes, link.rate_gbps)) + " for a credit)";
}

// The fabric round trip between two leaves: a packet through the source
// leaf, a spine and the target leaf, and a control message back.
double fabric_round_trip_ps(const FabricKeys& k, const LinkTiming& link) {
  const double hop = serialization_ps(link.largest_message_bytes, link.rate_gbps) + double(link.propagation);
  const double one_way = 2.0 * double(k.leaf.traversal_latency.value()) + double(k.spine.traversal.value()) + 2.0 * hop;
  return 2.0 * one_way;
}

// What the end-to-end timeout must exceed: the egress pool drained at the
// user port's rate, and the fabric round trip.
double e2e_wait_ps(const FabricKeys& k, const TopologyParams& t, const LinkTiming& link) {
  return serialization_ps(static_cast<uint64_t>(k.leaf.egress_pool.value()), t.cna_link.rate_gbps) +
         fabric_round_trip_ps(k, link);
}

std::string round_trip_text(const FabricKeys& k, const LinkTiming& link) {
  return "the fabric round trip between leaves over a " + cable_text(k) + ", " +
         time_text(fabric_round_trip_ps(k, link)) +
         " (2 x (2 x leaf.traversal_latency + spine.traversal_latency + 2 x (" +
         time_text(serialization_ps(link.largest_message_bytes, link.rate_gbps)) + " for a packet + " +
         time_text(double(link.propagation)) + " of flight)))";
}

std::string e2e_wait_text(const FabricKeys& k, const TopologyParams& t, const LinkTiming& link) {
  return time_text(e2e_wait_ps(k, t, link)) + " (leaf.egress.pool " + bytes_text(double(k.leaf.egress_pool.value())) +
         " drained at " + gbps_text(t.cna_link.rate_gbps) + ": " +
         time_text(serialization_ps(static_cast<uint64_t>(k.leaf.egress_pool.value()), t.cna_link.rate_gbps)) + ", + " +
         round_trip_text(k, link) + ")";
}

// A derived timeout, up to a whole 100 ns (a timer's grain, and a value that reads well).
Picos ceil_100ns(double ps) { return static_cast<Picos>(std::ceil(ps / 100'000.0)) * 100'000; }

template <class Key, class Value>
Value at_least_spec(const Key& key, Value need) {
  return key.spec_value() ? std::max<Value>(*key.spec_value(), need) : need;
}

// The spec's window is 16 packets of its 256 B cells: 4 KB of SRAM, kept
// in bytes when the cell size changes.
void derive_credit_window(const FabricKeys& k, const LinkTiming& link, config::Param<config::Integer>& window,
                          const config::Param<config::Duration>& receiver_latency) {
  const std::string& latency_key = receiver_latency.key();
  const Picos latency = receiver_latency;
  const double need = credit_window_need_packets(link, latency, k.link.credit.delay);
  const int64_t spec_bytes = *window.spec_value() * kSpecPacketBytes;
  const int64_t spec_packets = (spec_bytes + link.largest_message_bytes - 1) / link.largest_message_bytes;
  const int64_t packets = std::max(spec_packets, static_cast<int64_t>(std::ceil(kSizingMargin * need)));
  window.derive(packets, "max(the spec's " + std::to_string(*window.spec_value()) + " x " +
                             std::to_string(kSpecPacketBytes) + " B = " + bytes_text(double(spec_bytes)) + " in " +
                             std::to_string(spec_packets) + " packets, 1.5 x " + number_text(need) +
                             " packets) = " + std::to_string(packets) + "; " + number_text(need) + " " +
                             std::to_string(link.largest_message_bytes) + " B packets at " + gbps_text(link.rate_gbps) +
                             " in " + credit_round_trip_text(k, link, latency_key, latency));
}

void check(const config::Config& c, std::string name, std::vector<std::string> keys, bool holds, std::string detail) {
  note_check(c, std::move(name), std::move(keys), holds, std::move(detail));
}

}  // namespace

// The PAUSE round trip on a CNA-leaf link, for the lossless thresholds.
PauseRoundTrip cna_pause_round_trip(const TopologyParams& topology, const LeafParams& leaf) {
  PauseRoundTrip rt;
  rt.link_gbps = topology.cna_link.rate_gbps;
  rt.propagation = to_ps(topology.cna_link.propagation);
  rt.lookup = to_ps(leaf.lookup);
  rt.overhead_bytes = topology.cna_link.overhead_bytes;
  // With the concurrent header the leaf sees a frame after its preamble,
  // without it after the whole (smallest) frame.
  rt.header_after_bytes =
      leaf.concurrent_header ? kPreambleBytes : traffic::kMinFrameBytes + topology.cna_link.overhead_bytes;
  rt.pause_frame_bytes = leaf.control_frame_bytes;
  rt.smallest_frame_bytes = traffic::kMinFrameBytes;
  return rt;
}

void derive_fabric_keys(FabricKeys& k, const TopologyParams& t) {
  const LinkTiming link = fabric_link_timing(k, t);
  LinkRetryKeys& retry = k.link.retry;

  const double ack_rtt = link_ack_round_trip_ps(link, retry.ack_delay);
  const Picos timeout = at_least_spec(retry.timeout, ceil_100ns(kSizingMargin * ack_rtt));
  retry.timeout.derive(timeout, "max(the spec's 2 us, 1.5 x " + time_text(ack_rtt) +
                                    ") = " + time_text(double(timeout)) + "; " + ack_round_trip_text(k, link));

  const double buffer_need = retry_buffer_need_bytes(link, retry.ack_delay);
  const int64_t buffer = at_least_spec(retry.buffer, static_cast<int64_t>(std::ceil(kSizingMargin * buffer_need)));
  retry.buffer.derive(buffer, "max(the spec's 6 KB, 1.5 x " + bytes_text(buffer_need) +
                                  ") = " + bytes_text(double(buffer)) + "; " + bytes_text(buffer_need) + " = " +
                                  gbps_text(link.rate_gbps) + " x " + ack_round_trip_text(k, link) + " + one " +
                                  std::to_string(link.largest_message_bytes) + " B message");

  derive_credit_window(k, link, k.spine.buffer_packets, k.spine.traversal);
  derive_credit_window(k, link, k.leaf.downlink_buffer_packets, k.leaf.traversal_latency);

  const double e2e_wait = e2e_wait_ps(k, t, link);
  const Picos e2e = at_least_spec(k.leaf.e2e_timeout, ceil_100ns(kSizingMargin * e2e_wait));
  k.leaf.e2e_timeout.derive(e2e, "max(the spec's 1 ms, 1.5 x " + time_text(e2e_wait) + ") = " + time_text(double(e2e)) +
                                     "; the longest wait for a copy's ACK, " + e2e_wait_text(k, t, link));
  const Picos cna_e2e = 4 * k.leaf.e2e_timeout.value();
  k.cna.e2e_timeout.derive(cna_e2e, "4 x leaf.e2e.timeout " + time_text(double(k.leaf.e2e_timeout.value())) + " = " +
                                        time_text(double(cna_e2e)));
}

void derive_spine_window(FabricKeys& k, const TopologyParams& t) {
  derive_credit_window(k, fabric_link_timing(k, t), k.spine.buffer_packets, k.spine.traversal);
}

void check_fabric_keys(const FabricKeys& k, const TopologyParams& t, Picos sim_time, const config::Config& c) {
  const LinkTiming link = fabric_link_timing(k, t);
  const LinkRetryKeys& retry = k.link.retry;
  if (retry.enabled) {
    const double ack_rtt = link_ack_round_trip_ps(link, retry.ack_delay);
    check(
        c, "link.retry.timeout >= the link ACK round trip",
        {retry.timeout.key(), k.topology.leaf_spine_cable_m.key(), k.topology.uplink_gbps.key(), retry.ack_delay.key()},
        double(retry.timeout.value()) >= ack_rtt,
        retry.timeout.key() + " " + time_text(double(retry.timeout.value())) + " < " + ack_round_trip_text(k, link) +
            ": every message will be replayed");
    const double need = retry_buffer_need_bytes(link, retry.ack_delay);
    const double limit_gbps = std::min(link.rate_gbps, double(retry.buffer.value()) * 8000.0 / ack_rtt);
    check(
        c, "link.retry.buffer >= the bytes a leaf-spine link sends in its ACK round trip + one message",
        {retry.buffer.key(), k.topology.leaf_spine_cable_m.key(), k.topology.uplink_gbps.key(), retry.ack_delay.key()},
        double(retry.buffer.value()) >= need,
        retry.buffer.key() + " " + bytes_text(double(retry.buffer.value())) + " < " + bytes_text(need) + " (" +
            gbps_text(link.rate_gbps) + " x " + ack_round_trip_text(k, link) + " + one " +
            std::to_string(link.largest_message_bytes) + " B message): each leaf-spine link waits for ACKs, at most " +
            gbps_text(limit_gbps));
  }
  if (k.leaf.e2e_retransmit) {
    const double wait = e2e_wait_ps(k, t, link);
    check(c, "leaf.e2e.timeout >= the longest wait for a copy's ACK",
          {k.leaf.e2e_timeout.key(), k.leaf.egress_pool.key(), k.topology.user_port_gbps.key(),
           k.topology.leaf_spine_cable_m.key()},
          double(k.leaf.e2e_timeout.value()) >= wait,
          k.leaf.e2e_timeout.key() + " " + time_text(double(k.leaf.e2e_timeout.value())) + " < " +
              e2e_wait_text(k, t, link) + ": copies are sent again while their ACK is still on its way");
  }
  if (k.cna.e2e_retransmit && k.leaf.e2e_retransmit) {
    check(c, "cna.e2e.timeout > leaf.e2e.timeout", {k.cna.e2e_timeout.key(), k.leaf.e2e_timeout.key()},
          k.cna.e2e_timeout.value() > k.leaf.e2e_timeout.value(),
          k.cna.e2e_timeout.key() + " " + time_text(double(k.cna.e2e_timeout.value())) +
              " <= " + k.leaf.e2e_timeout.key() + " " + time_text(double(k.leaf.e2e_timeout.value())) +
              ": the CNAs send frames again before the leaves have recovered their own losses");
  }
  // The copies the leaves recover are those lost between them: on the
  // leaf-spine links when link retry is off. Only the timeout resends them,
  // so it must be able to fire within the run. (The CNAs' transport NAKs a
  // gap at once; its timeout covers only a pair's last frames.)
  LinkErrorParams errors = read_link_error_params_unchecked(k.link.errors);
  add_link_error_overrides(c, errors, t.geometry);
  const bool fabric_losses =
      !retry.enabled && (errors.any_errors(LinkClass::leaf_spine) || errors.any_errors(LinkClass::spine_leaf));
  if (k.leaf.e2e_retransmit && fabric_losses) {
    check(c, "leaf.e2e.timeout < sim.time when messages are lost", {k.leaf.e2e_timeout.key(), "sim.time"},
          k.leaf.e2e_timeout.value() < sim_time,
          k.leaf.e2e_timeout.key() + " " + time_text(double(k.leaf.e2e_timeout.value())) + " >= sim.time " +
              time_text(double(sim_time)) +
              " while errors.* corrupt messages on leaf-spine links without link "
              "retry: no lost copy is sent again within the run");
  }
}

}  // namespace fabric
