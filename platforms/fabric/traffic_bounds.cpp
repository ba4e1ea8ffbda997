#include "platforms/fabric/traffic_bounds.h"

#include <algorithm>
#include <cmath>

#include "model/core/sim_time.h"
#include "platforms/common/quantity_text.h"
#include "platforms/fabric/fabric_sizing.h"
#include "traffic/frame_size.h"

namespace fabric {

namespace {

double gbps_of(double bytes, double ps) { return ps > 0 ? bytes * 8000.0 / ps : 0.0; }
double bytes_of(double gbps, double ps) { return gbps * ps / 8000.0; }

// The fabric's paths at their fastest (nothing queued, every stage at its
// latency, the smallest messages: what no run can beat) and as they go
// under load (each message behind or riding on a packet of the largest
// size: what a loaded run gets, about).
struct FabricPaths {
  LinkTiming link;
  double leaf_traversal = 0, spine_traversal = 0;
  bool loaded = false;

  uint32_t small() const { return loaded ? link.largest_message_bytes : link.control_bytes; }
  uint32_t smallest_data() const {
    return loaded ? link.largest_message_bytes
                  : std::min<uint32_t>(traffic::kMinFrameBytes, link.largest_message_bytes);
  }
  double hop(uint32_t bytes) const { return serialization_ps(bytes, link.rate_gbps) + double(link.propagation); }
  // Source leaf, spine, target leaf: a message of `bytes`.
  double one_way(uint32_t bytes) const { return 2 * leaf_traversal + spine_traversal + 2 * hop(bytes); }
  // A request out and its grant back.
  double request_grant() const { return 2 * one_way(small()); }
  // A copy's data out and its ACK back (after its grant).
  double data_and_ack() const { return one_way(smallest_data()) + one_way(small()); }
  // A grant out and its copy's data back: an egress unit's cycle.
  double grant_and_data() const { return data_and_ack(); }
  // A credit's round trip on one link: the largest packet out, the
  // receiver's latency, the credit back riding a message.
  double credit(double receiver_latency) const {
    return hop(link.largest_message_bytes) + receiver_latency + hop(small());
  }
  std::string one_way_text() const {
    return "2 x leaf.traversal_latency " + time_text(leaf_traversal) + " + spine.traversal_latency " +
           time_text(spine_traversal) + " + 2 x " + time_text(double(link.propagation)) + " of flight";
  }
};

std::string ports_text(const char* what, double gbps) { return std::string(what) + " " + gbps_text(gbps); }

std::string message_text(const FabricPaths& p, uint32_t bytes) {
  return time_text(serialization_ps(bytes, p.link.rate_gbps)) + " for a " + std::to_string(bytes) + " B message";
}

// What one direction of the leaf-spine links carries under load with a
// credit window of `window` packets (the credit riding a packet back).
double window_gbps(const FabricPaths& load, const config::Param<config::Integer>& window,
                   const config::Param<config::Duration>& receiver_latency) {
  return gbps_of(double(window.value()) * load.link.largest_message_bytes,
                 load.credit(double(receiver_latency.value())));
}

// The credit window of one direction of the leaf-spine links.
void check_window(const FabricKeys& k, const FabricPaths& fast, const FabricPaths& load,
                  const config::Param<config::Integer>& window, const config::Param<config::Duration>& receiver_latency,
                  double per_link_gbps, const std::string& link_name, const std::string& whose,
                  const config::Config& c) {
  if (per_link_gbps <= 0) return;
  const double latency = double(receiver_latency.value());
  const double bytes = double(window.value()) * fast.link.largest_message_bytes;
  const double bound = gbps_of(bytes, fast.credit(latency));
  const double loaded = window_gbps(load, window, receiver_latency);
  const double idle = credit_round_trip_ps(fast.link, receiver_latency.value(), k.link.credit.delay);
  const int64_t remedy =
      static_cast<int64_t>(std::ceil(bytes_of(per_link_gbps, idle) / fast.link.largest_message_bytes));
  note_check(
      c, window.key() + " carries what the traffic puts on each " + link_name,
      {window.key(), k.topology.leaf_spine_cable_m.key(), k.topology.spines.key(), k.topology.uplink_gbps.key(),
       receiver_latency.key()},
      loaded >= per_link_gbps,
      window.key() + " " + std::to_string(window.value()) + " packets of " +
          std::to_string(fast.link.largest_message_bytes) + " B per credit round trip of a " + cable_text(k) +
          ": at least " + time_text(fast.credit(latency)) + " (" + message_text(fast, fast.link.largest_message_bytes) +
          " + 2 x " + time_text(double(fast.link.propagation)) + " of flight + " + receiver_latency.key() + " " +
          time_text(latency) + " + " + message_text(fast, fast.link.control_bytes) +
          " the credit rides back on), about " + time_text(load.credit(latency)) +
          " under load (the credit riding a packet): each " + link_name + " carries at most " + gbps_text(bound) +
          ", about " + gbps_text(loaded) + ", and the traffic offers " + gbps_text(per_link_gbps) + " per link (" +
          whose + "); remedy: " + window.key() + " " + std::to_string(remedy) +
          " (covers the credit round trip without reverse traffic to ride on, " + time_text(idle) + ")");
}

// The line rate of one direction of the leaf-spine links: the leaf sprays
// a packet per link in turn (leaf.spray round_robin), so each takes an equal
// share of what crosses the spines.
void check_line_rate(const FabricKeys& k, const TopologyParams& t, double per_link_gbps, const std::string& link_name,
                     const std::string& whose, const config::Config& c) {
  if (per_link_gbps <= 0) return;
  const double rate = t.fabric_link.rate_gbps;
  const std::string& key = c.given_as(k.topology.uplink_gbps.key());  // link[..].gbps for a link of its own rate
  note_check(c, key + " carries what the traffic puts on each " + link_name,
             {k.topology.uplink_gbps.key(), k.topology.spines.key()}, rate >= per_link_gbps,
             key + " " + gbps_text(rate) + ": each " + link_name + " carries at most " + gbps_text(rate) +
                 ", and the traffic offers " + gbps_text(per_link_gbps) + " per link (" + whose + "); remedy: " + key +
                 " " + gbps_text(per_link_gbps) + " or more spines");
}

}  // namespace

void check_traffic_bounds(const FabricKeys& k, const TopologyParams& t, const LeafParams& leaf, const TrafficDemand& d,
                          const config::Config& c) {
  FabricPaths fast;
  fast.link = fabric_link_timing(k, t);
  fast.leaf_traversal = double(k.leaf.traversal_latency.value());
  fast.spine_traversal = double(k.spine.traversal.value());
  FabricPaths load = fast;
  load.loaded = true;
  const int spines = std::max<int>(1, t.geometry.spines);
  const std::string spread = " over " + std::to_string(spines) + " spines";

  check_window(k, fast, load, k.spine.buffer_packets, k.spine.traversal, d.busiest(d.leaf_out_gbps) / spines,
               "leaf-spine link",
               ports_text("the busiest leaf sends other leaves", d.busiest(d.leaf_out_gbps)) + spread, c);
  check_window(k, fast, load, k.leaf.downlink_buffer_packets, k.leaf.traversal_latency,
               d.busiest(d.leaf_in_gbps) / spines, "spine-leaf link",
               ports_text("the busiest leaf receives from other leaves", d.busiest(d.leaf_in_gbps)) + spread, c);
  check_line_rate(k, t, d.busiest(d.leaf_out_gbps) / spines, "leaf-spine link",
                  ports_text("the busiest leaf sends other leaves", d.busiest(d.leaf_out_gbps)) + spread, c);
  check_line_rate(k, t, d.busiest(d.leaf_in_gbps) / spines, "spine-leaf link",
                  ports_text("the busiest leaf receives from other leaves", d.busiest(d.leaf_in_gbps)) + spread, c);

  const std::string rg_text = "the request-grant round trip of a " + cable_text(k) + ": at least " +
                              time_text(fast.request_grant()) + " (2 x (" + fast.one_way_text() + " + 2 x " +
                              message_text(fast, fast.link.control_bytes) + ")), about " +
                              time_text(load.request_grant()) + " under load (behind " +
                              std::to_string(fast.link.largest_message_bytes) + " B packets)";
  const double lossy_threshold = double(k.leaf.ingress_lossy_threshold.value());
  const double vth = double(k.leaf.voq_threshold.value());
  // With `keep` the credit of copies dropped early widens a VOQ's window
  // beyond Vth: no bound to state.
  const bool vth_window = k.leaf.voq_drop.value() != "off" && k.leaf.dropped_copy_credit.value() != "keep";
  if (vth_window && d.lossy_pair_gbps > 0) {
    // A VOQ asks for at most the copies it holds, below Vth before its last
    // frame came: its requests in flight are a window of Vth and one frame.
    // The granted copies then hold their payload until their ACK, in the
    // lossy pool beside the VOQs.
    const double bound = gbps_of(vth + d.largest_lossy_frame, fast.request_grant());
    const double loaded = gbps_of(vth, load.request_grant());
    // The remedy with the derived keys' margin over the loaded estimate
    // (queueing, ACK batching and frames' serialization lengthen both).
    const double need = bytes_of(d.lossy_pair_gbps, load.request_grant());
    const double vth_remedy = kSizingMargin * need;
    const double tth_remedy = kSizingMargin * (need + bytes_of(d.lossy_pair_gbps, load.data_and_ack()));
    std::string effect = "a lossy flow to another leaf gets at most " + gbps_text(bound) + " (Vth and a " +
                         std::to_string(d.largest_lossy_frame) + " B frame per round trip), about " +
                         gbps_text(loaded) + ", and drops the rest";
    if (k.leaf.dropped_copy_credit.value() == "per_copy")
      effect +=
          " (leaf.voq.dropped_copy_credit per_copy: a VOQ fed faster drops nearly every copy from its head "
          "before that copy's grant is back)";
    note_check(c, "leaf.voq.threshold carries the busiest lossy flow to another leaf",
               {k.leaf.voq_threshold.key(), k.leaf.ingress_lossy_threshold.key(), k.leaf.ingress_lossy_pool.key(),
                k.topology.leaf_spine_cable_m.key()},
               loaded >= d.lossy_pair_gbps,
               k.leaf.voq_threshold.key() + " " + bytes_text(vth) + " per " + rg_text + ": " + effect +
                   "; the traffic offers up to " + gbps_text(d.lossy_pair_gbps) +
                   " from one port to one port of another leaf; remedy (1.5 x what the loaded round trips need, as "
                   "the derived keys): " +
                   k.leaf.voq_threshold.key() + " " + bytes_text(std::ceil(vth_remedy)) + " with " +
                   k.leaf.ingress_lossy_threshold.key() + " " + bytes_text(std::ceil(tth_remedy)) + " and " +
                   k.leaf.ingress_lossy_pool.key() + " " + bytes_text(std::ceil(tth_remedy + traffic::kMaxFrameBytes)) +
                   " (the granted copies hold their payload until their ACK)");
    // At most the Vth window's rate, and a port's share of its leaf's uplinks,
    // each carrying no more than its line rate and its credit windows let it.
    const double per_link =
        std::min({t.fabric_link.rate_gbps, window_gbps(load, k.spine.buffer_packets, k.spine.traversal),
                  window_gbps(load, k.leaf.downlink_buffer_packets, k.leaf.traversal_latency)});
    const double uplinks = spines * per_link / std::max(1, d.most_remote_senders);
    const double rate = std::min({d.lossy_pair_gbps, loaded, uplinks});
    const double voq = std::min(vth, need);
    const double held = voq + bytes_of(rate, load.data_and_ack());
    note_check(c, "leaf.ingress.lossy_threshold holds a full VOQ and the copies awaiting their ACK",
               {k.leaf.ingress_lossy_threshold.key(), k.leaf.ingress_lossy_pool.key(), k.leaf.voq_threshold.key()},
               lossy_threshold >= held,
               k.leaf.ingress_lossy_threshold.key() + " " + bytes_text(lossy_threshold) + " < " + bytes_text(held) +
                   ": under load a VOQ of the busiest lossy flow holds " + bytes_text(voq) + " (at most " +
                   k.leaf.voq_threshold.key() + " " + bytes_text(vth) + ") and its granted copies " +
                   bytes_text(held - voq) + " (" + gbps_text(rate) +
                   ", what the window and a port's share of the "
                   "uplinks (their line rate and credit windows) let through, x their data out and ACK back, about " +
                   time_text(load.data_and_ack()) +
                   "): frames are dropped at the payload threshold (drops "
                   "'payload') before the VOQ's own drops; remedy (1.5 x, as the derived keys): " +
                   k.leaf.ingress_lossy_threshold.key() + " " + bytes_text(std::ceil(kSizingMargin * held)) + " and " +
                   k.leaf.ingress_lossy_pool.key() + " " +
                   bytes_text(std::ceil(kSizingMargin * held + traffic::kMaxFrameBytes)));
  }
  const double port_in = d.busiest(d.port_remote_in_gbps);
  if (port_in > 0) {
    // A unit of the egress pool comes back when its copy is forwarded: a
    // grant out, the copy's data back.
    const double pool = double(k.leaf.egress_pool.value());
    const double bound = gbps_of(pool, fast.grant_and_data());
    const double loaded = gbps_of(pool, load.grant_and_data());
    note_check(c, "leaf.egress.pool carries what the traffic sends a port from other leaves",
               {k.leaf.egress_pool.key(), k.topology.leaf_spine_cable_m.key()}, loaded >= port_in,
               k.leaf.egress_pool.key() + " " + bytes_text(pool) + " per credit cycle of a " + cable_text(k) +
                   " (a grant out and the copy's data back): at least " + time_text(fast.grant_and_data()) +
                   ", about " + time_text(load.grant_and_data()) + " under load: a port receives at most " +
                   gbps_text(bound) + " from other leaves, about " + gbps_text(loaded) +
                   ", and the traffic offers one port " + gbps_text(port_in) +
                   "; remedy (1.5 x, as the derived keys): " + k.leaf.egress_pool.key() + " " +
                   bytes_text(std::ceil(kSizingMargin * bytes_of(port_in, load.grant_and_data()))));
  }
  if (d.lossless_port_out_gbps > 0) {
    // A lossless port holds each frame's payload from its admission to its
    // end-to-end ACK: its request and grant, its data out and the ACK back.
    const double hold_fast = fast.request_grant() + fast.data_and_ack();
    const double hold = load.request_grant() + load.data_and_ack();
    const double qhi = double(k.leaf.pause_qhi.value());
    const double pool = double(k.leaf.ingress_lossless_pool.value());
    const double held = bytes_of(d.lossless_port_out_gbps, hold);
    const double qhi_remedy = std::ceil(kSizingMargin * held);
    note_check(c, "leaf.pause.qhi holds what a lossless port holds until its ACKs",
               {k.leaf.pause_qhi.key(), k.leaf.pause_qlow.key(), k.leaf.ingress_lossless_pool.key(),
                k.topology.leaf_spine_cable_m.key()},
               qhi >= held,
               k.leaf.pause_qhi.key() + " " + bytes_text(qhi) + " < " + bytes_text(held) +
                   ": a lossless port holds a frame's payload from its admission to its end-to-end ACK, at least " +
                   time_text(hold_fast) + ", about " + time_text(hold) + " under load (" + rg_text +
                   ", then its data out and the ACK back), and the traffic offers one port's lossless frames to other "
                   "leaves " +
                   gbps_text(d.lossless_port_out_gbps) +
                   ": PAUSE stops the port, whose traffic to "
                   "other leaves is at most " +
                   gbps_text(gbps_of(pool, hold_fast)) + " (" + k.leaf.ingress_lossless_pool.key() + " " +
                   bytes_text(pool) +
                   " over the shortest hold); remedy "
                   "(1.5 x, as the derived keys; GO above what the port holds, so that PAUSE does not cycle): " +
                   k.leaf.pause_qhi.key() + " " + bytes_text(qhi_remedy) + ", " + k.leaf.pause_qlow.key() + " " +
                   bytes_text(std::ceil(held)) + " and " + k.leaf.ingress_lossless_pool.key() + " " +
                   bytes_text(qhi_remedy + std::max(0.0, pool - qhi)) + " (the same headroom above Qhi)");
  }
  if (d.lossless_port_headers_per_us > 0 && leaf.pause_headers_hi > 0) {
    // A lossless port holds a header per copy as long as the payload.
    const double hold = load.request_grant() + load.data_and_ack();
    const double held = d.lossless_port_headers_per_us * hold / 1e6;
    const double hi = leaf.pause_headers_hi;
    const double headroom = double(leaf.header_pool_lossless) - hi;
    // Headers stop the port only if they fill before the payload does: at
    // its frames' mix, Qhi's bytes carry more headers than the threshold.
    const double headers_at_qhi = d.lossless_headers_per_byte * double(k.leaf.pause_qhi.value());
    note_check(c, "leaf.pause.headers_hi holds the headers a lossless port holds until its ACKs",
               {k.leaf.header_pool_lossless.key(), k.leaf.pause_headers_hi.key(), k.topology.leaf_spine_cable_m.key()},
               hi >= held || headers_at_qhi <= hi,
               "the lossless header pool's STOP threshold, " + number_text(hi) + " headers (" +
                   k.leaf.header_pool_lossless.key() + " " + std::to_string(leaf.header_pool_lossless) +
                   " less the PAUSE headroom), < " + number_text(held) +
                   ": a lossless port holds a header per copy "
                   "from its admission to its end-to-end ACK, about " +
                   time_text(hold) + " under load, and the traffic has one port make " +
                   number_text(d.lossless_port_headers_per_us) + " copies per us (" + number_text(headers_at_qhi) +
                   " headers in " + k.leaf.pause_qhi.key() +
                   "'s bytes at its frames' mix): PAUSE on headers stops the port before its payload pool fills; "
                   "remedy (1.5 x, as "
                   "the derived keys): " +
                   k.leaf.header_pool_lossless.key() + " " +
                   std::to_string(static_cast<int64_t>(std::ceil(kSizingMargin * held + headroom))));
  }
}

}  // namespace fabric
