#pragma once
// Every metric a run may write into `samples` (series) or `totals`, defined once: its name, unit,
// kind, platforms, entity and meaning. The model records a metric by its typed
// descriptor (model/recording/metrics.h, checked against this table when it
// compiles); the database refuses a name that is not here (names from
// outside the model), every database holds this table as `metrics`, and
// docs/database.md's metric table is `fabricsim --list-metrics` (a test
// compares them).
#include <string>
#include <string_view>
#include <vector>

#include "model/recording/entity.h"

namespace fabric {

enum class MetricKind {
  series,  // sampled every record.sample_interval (and at the run's end)
  total,   // written once, at the run's end
};

struct MetricDefinition {
  std::string_view name;  // a name ending in '<kind>' is a family: link_messages_<kind>
  std::string_view unit;  // B, ps, Gb/s, fraction (0..1), 1/s, or what is counted (frames, packets, ...)
  MetricKind kind;
  std::string_view platforms;  // the platforms that write it: fabric, backplane, ibft, ring, or all
  std::string_view entity;     // the kinds of entity it is recorded for, comma separated: "port", "link, segment"
  std::string_view description;
};

namespace catalog_detail {

constexpr MetricKind series = MetricKind::series;
constexpr MetricKind total = MetricKind::total;

// The catalog, in --list-metrics order. A constant expression, so that
// metrics.h can look its descriptors up while it compiles.
inline constexpr MetricDefinition kMetrics[] = {
    // Every platform, at the end.
    {"frames_delivered", "frames", total, "all", "system", "frames (or packets) delivered, each copy counted"},
    {"link_messages", "messages", total, "all", "system",
     "messages carried by every link of the run (frames, packets, control messages, credits)"},
    {"link_messages_<kind>", "messages", total, "all", "system",
     "link messages of one kind: frame, packet, request, grant, ack, credit, pause, cnm, cancel, link_ack, "
     "link_nak (kinds with none are not written); they add up to link_messages"},
    {"copies_on_surplus_credit", "copies", total, "fabric", "system",
     "copies a source port sent while its VOQ held credit owed back for copies dropped from its head: 0 unless "
     "leaf.voq.dropped_copy_credit is keep"},
    // The fabric: buffers, every sample interval.
    {"ingress_bytes", "B", series, "fabric", "port",
     "payload held in a user port's ingress pools, taken between run-loop slices when the whole fabric stands at "
     "one time"},
    {"egress_bytes", "B", series, "fabric", "port", "buffer granted in a user port's egress buffer"},
    {"cache_entries", "entries", series, "fabric", "leaf",
     "multicast cache entries that copies will still read (live), at leaves that forwarded multicast; dead "
     "entries waiting for reclaim are not counted"},
    {"cache_hits", "copies", series, "fabric", "port",
     "multicast copies of the port's that found their payload in the cache, cumulative (ports that sent "
     "multicast)"},
    {"cache_misses", "copies", series, "fabric", "port",
     "copies after the first that had to read the payload again, cumulative"},
    {"cache_premature_evictions", "entries", series, "fabric", "port",
     "entries of the port's evicted while copies would still read them (by a write into a full cache, least "
     "recently used first, or by the controller's background eviction of an idle entry), cumulative"},
    {"cache_background_reclaims", "entries", series, "fabric", "port",
     "dead entries of the port's (no copy will read them) freed by the controller while fewer than "
     "leaf.cache.background_free_min entries were free, cumulative"},
    {"remote_copies_acked", "copies", series, "fabric", "port",
     "copies of the port's frames to other leaves whose end-to-end ACK came back, cumulative (ports with any)"},
    {"remote_copy_hold_ps", "ps", series, "fabric", "port",
     "the time those copies held their payload at the source leaf, summed, cumulative"},
    {"control_messages", "messages", series, "fabric", "leaf",
     "control messages (requests, grants, ACKs) the leaf received, cumulative (leaves that received any)"},
    {"control_merged", "messages", series, "fabric", "leaf",
     "control messages the leaf merged into one already waiting, cumulative"},
    // Every copy accounted for (model/invariants/copy_ledger.h), at the end.
    {"copies_injected", "copies", total, "all", "system, port",
     "copies the frames sent were to make: one per destination (a multicast frame, one per member of its group); "
     "per port: of the frames the port sent (fabric)"},
    {"copies_delivered", "copies", total, "all", "system, port", "of those, copies delivered"},
    {"copies_dropped", "copies", total, "all", "system, port",
     "of those, copies lost for good to a drop (a multicast copy dropped on its way counts the deliveries of its "
     "branch of the tree; a drop that a retransmission recovers counts none)"},
    {"copies_in_fabric", "copies", total, "all", "system, port",
     "of those, copies neither delivered nor dropped at the end: still queued, on a wire or awaiting their "
     "retransmission; 0 in a run that drained"},
    // Links, at the end.
    {"messages", "messages", total, "fabric, backplane", "link",
     "messages the link carried (links that carried none are not written)"},
    {"bytes", "B", total, "fabric, backplane", "link", "bytes the link carried, with its per-message overhead"},
    {"data_bytes", "B", total, "fabric, backplane", "link",
     "bytes of frames and packets the link carried, without the per-message overhead (links that carried none are "
     "not written)"},
    {"utilization", "fraction", total, "fabric, backplane, ring", "link, segment",
     "time on the wire over the simulated time"},
    // The fabric: link retry and the end-to-end transport, at the end.
    {"corrupted", "messages", total, "fabric", "link",
     "messages the receiver found corrupted (links with none are not written)"},
    {"replays", "messages", total, "fabric", "link",
     "messages link retry sent again (links with none are not written)"},
    {"replay_episodes", "episodes", total, "fabric", "link",
     "go-back-N replays started, by a NAK or a timeout (links with none are not written)"},
    {"retry_timeouts", "timeouts", total, "fabric", "link", "link retry timeouts (links with none are not written)"},
    {"link_acks_carried", "messages", total, "fabric", "link",
     "link ACKs for the reverse link that rode on this link's messages instead of going alone "
     "(link.retry.ack_piggyback; links with none are not written)"},
    {"e2e_retransmitted", "frames", total, "fabric", "cna", "frames the end-to-end transport sent again"},
    {"e2e_go_back_episodes", "episodes", total, "fabric", "cna", "end-to-end go-back-N episodes"},
    {"e2e_timeouts", "timeouts", total, "fabric", "cna", "end-to-end retransmission timeouts"},
    {"e2e_duplicates", "frames", total, "fabric", "cna", "duplicate frames the receiver dropped"},
    {"e2e_out_of_order", "frames", total, "fabric", "cna", "frames the receiver found out of order"},
    {"e2e_acks_sent", "messages", total, "fabric", "cna", "end-to-end ACKs sent"},
    {"e2e_naks_sent", "messages", total, "fabric", "cna", "end-to-end NAKs sent"},
    {"e2e_unacknowledged", "frames", total, "fabric", "cna", "frames still awaiting their ACK at the end"},
    // The backplane.
    {"memory_bytes", "B", series, "backplane", "switch", "the shared memory's occupancy"},
    {"memory_peak_bytes", "B", total, "backplane", "switch", "the most the memory held, over every admission"},
    {"discards", "frames", total, "backplane", "switch", "frames discarded"},
    {"xoffs", "decisions", total, "backplane", "switch", "XOFF decisions of the 802.3x controller"},
    {"xons", "decisions", total, "backplane", "switch", "XON decisions of the 802.3x controller"},
    {"pause_frames", "frames", total, "backplane", "station", "PAUSE frames station N received"},
    {"throughput_gbps", "Gb/s", total, "backplane, ring", "system",
     "backplane: frame bytes received by all stations from backplane.warmup on; ring: payload delivered, each "
     "packet once (deliveries over the group size)"},
    {"latency_mean_ps", "ps", total, "backplane", "system",
     "mean latency from backplane.warmup on, from the first byte out of the source application to the last "
     "byte into the sink"},
    {"latency_p99_ps", "ps", total, "backplane", "system", "p99 of that latency (from ~2 % bins)"},
    {"latency_max_ps", "ps", total, "backplane", "system", "the largest such latency"},
    {"pause_per_second", "1/s", total, "backplane", "system",
     "PAUSE frames per second on the busiest station link, over the whole run"},
    {"pause_share", "fraction", total, "backplane", "system",
     "the share of that link's time its PAUSE frames took, at the link's rate"},
    // The InfiniBand fat tree.
    {"packets_held", "packets", series, "ibft", "system", "packets in the switches' buffers"},
    {"completion_ps", "ps", total, "ibft", "system", "when the last packet's last byte arrived"},
    {"deliveries", "packets", total, "ibft, ring", "system", "packets delivered (each member counted)"},
    {"expected_deliveries", "packets", total, "ibft", "system", "packets the workload was to deliver"},
    {"switch_copies", "packets", total, "ibft", "system", "copies the switches made"},
    // The ring.
    {"busy_fraction", "fraction", series, "ring", "segment",
     "the share of the sample interval the segment from position P of ring R was busy"},
    {"spq_mean", "packets", series, "ring", "system", "the senders' mean SPQ length"},
    {"q_mean", "packets", series, "ring", "system", "the senders' mean limit q (0: no limit)"},
    {"packets_offered", "packets", total, "ring", "system", "packets the hosts offered"},
    {"host_drops", "packets", total, "ring", "system", "packets a full host queue dropped (ring.host_queue)"},
    {"packets_sent", "packets", total, "ring", "system", "packets multicast"},
    {"tickets", "tickets", total, "ring", "system", "reservation tickets the packets took"},
    {"retracts", "retracts", total, "ring", "system", "reservations retracted"},
    {"max_buffers_used", "buffers", total, "ring", "station", "the most receive buffers the station had in use"},
    {"relayed", "packets", total, "ring", "bridge_side", "data packets bridge B put on the ring of its side S"},
};

}  // namespace catalog_detail

const std::vector<MetricDefinition>& metric_catalog();
// The definition of `name` (a family's member by its family), or nullptr.
const MetricDefinition* find_metric(std::string_view name);
std::string_view kind_name(MetricKind kind);
// Whether `metric` may be recorded for an entity of `kind`.
bool allows(const MetricDefinition& metric, EntityKind kind);
// The catalog as a Markdown table (fabricsim --list-metrics).
std::string metric_table_markdown();

}  // namespace fabric
