#pragma once
// The metrics of the catalog (metric_catalog.h) as typed descriptors, for
// the model to record with: Recorder::sample takes a SeriesMetric only,
// Recorder::total a TotalMetric only, so a metric that is not in the
// catalog, or one recorded as the other kind, does not compile. Each
// constant is looked up in the catalog while it compiles (a name the
// catalog lacks, or of the other kind, is an error here); its name, unit
// and meaning are the catalog's.
#include <string>
#include <string_view>
#include <utility>

#include "model/recording/metric_catalog.h"

namespace fabric {

namespace catalog_detail {

// The catalog's entry named `name`, or nullptr.
constexpr const MetricDefinition* lookup(std::string_view name) {
  for (const MetricDefinition& d : kMetrics)
    if (d.name == name) return &d;
  return nullptr;
}

constexpr const MetricDefinition& lookup(std::string_view name, MetricKind kind) {
  const MetricDefinition* d = lookup(name);
  // Reached while compiling, a throw is not a constant expression: the
  // metric is not in the catalog, or not of this kind.
  if (d == nullptr || d->kind != kind) throw "not a metric of this kind in model/recording/metric_catalog.h";
  return *d;
}

}  // namespace catalog_detail

// A metric of kind `kind` of the catalog. One type per kind, so that a
// series cannot be recorded as a total, nor a total as a sample.
template <MetricKind kind>
class TypedMetric {
 public:
  constexpr const MetricDefinition& definition() const { return *definition_; }
  constexpr std::string_view name() const { return definition_->name; }

 private:
  constexpr explicit TypedMetric(const MetricDefinition& d) : definition_(&d) {}
  template <MetricKind k>
  friend constexpr TypedMetric<k> typed_metric(std::string_view name);

  const MetricDefinition* definition_;
};

using SeriesMetric = TypedMetric<MetricKind::series>;
using TotalMetric = TypedMetric<MetricKind::total>;

template <MetricKind kind>
constexpr TypedMetric<kind> typed_metric(std::string_view name) {
  return TypedMetric<kind>(catalog_detail::lookup(name, kind));
}
constexpr SeriesMetric series_metric(std::string_view name) { return typed_metric<MetricKind::series>(name); }
constexpr TotalMetric total_metric(std::string_view name) { return typed_metric<MetricKind::total>(name); }

// One member of a family of totals (link_messages_<kind>): the family's
// name with `<kind>` replaced. Built at the end of a run only.
class TotalFamilyMember {
 public:
  const MetricDefinition& definition() const { return *definition_; }
  const std::string& name() const { return name_; }

 private:
  TotalFamilyMember(const MetricDefinition& d, std::string name) : definition_(&d), name_(std::move(name)) {}
  friend class TotalFamily;

  const MetricDefinition* definition_;
  std::string name_;
};

// A family of totals of the catalog, such as link_messages_<kind>.
class TotalFamily {
 public:
  constexpr explicit TotalFamily(std::string_view name) : definition_(&family(name)) {}
  TotalFamilyMember member(std::string_view kind) const {
    const std::string_view family_name = definition_->name;
    std::string name(family_name.substr(0, family_name.size() - kKindSuffix.size()));
    name += kind;
    return TotalFamilyMember(*definition_, std::move(name));
  }

 private:
  static constexpr std::string_view kKindSuffix = "<kind>";
  static constexpr const MetricDefinition& family(std::string_view name) {
    const MetricDefinition& d = catalog_detail::lookup(name, MetricKind::total);
    if (d.name.size() <= kKindSuffix.size() || d.name.substr(d.name.size() - kKindSuffix.size()) != kKindSuffix)
      throw "not a family (a name ending in <kind>) of model/recording/metric_catalog.h";
    return d;
  }

  const MetricDefinition* definition_;
};

// Every metric of the catalog, by its name.
namespace metric {

inline constexpr TotalMetric frames_delivered = total_metric("frames_delivered");
inline constexpr TotalMetric link_messages = total_metric("link_messages");
inline constexpr TotalMetric copies_on_surplus_credit = total_metric("copies_on_surplus_credit");
inline constexpr SeriesMetric ingress_bytes = series_metric("ingress_bytes");
inline constexpr SeriesMetric egress_bytes = series_metric("egress_bytes");
inline constexpr SeriesMetric cache_entries = series_metric("cache_entries");
inline constexpr SeriesMetric cache_hits = series_metric("cache_hits");
inline constexpr SeriesMetric cache_misses = series_metric("cache_misses");
inline constexpr SeriesMetric cache_premature_evictions = series_metric("cache_premature_evictions");
inline constexpr SeriesMetric cache_background_reclaims = series_metric("cache_background_reclaims");
inline constexpr SeriesMetric remote_copies_acked = series_metric("remote_copies_acked");
inline constexpr SeriesMetric remote_copy_hold_ps = series_metric("remote_copy_hold_ps");
inline constexpr SeriesMetric control_messages = series_metric("control_messages");
inline constexpr SeriesMetric control_merged = series_metric("control_merged");
inline constexpr TotalMetric copies_injected = total_metric("copies_injected");
inline constexpr TotalMetric copies_delivered = total_metric("copies_delivered");
inline constexpr TotalMetric copies_dropped = total_metric("copies_dropped");
inline constexpr TotalMetric copies_in_fabric = total_metric("copies_in_fabric");
inline constexpr TotalMetric messages = total_metric("messages");
inline constexpr TotalMetric bytes = total_metric("bytes");
inline constexpr TotalMetric data_bytes = total_metric("data_bytes");
inline constexpr TotalMetric utilization = total_metric("utilization");
inline constexpr TotalMetric corrupted = total_metric("corrupted");
inline constexpr TotalMetric replays = total_metric("replays");
inline constexpr TotalMetric replay_episodes = total_metric("replay_episodes");
inline constexpr TotalMetric retry_timeouts = total_metric("retry_timeouts");
inline constexpr TotalMetric link_acks_carried = total_metric("link_acks_carried");
inline constexpr TotalMetric e2e_retransmitted = total_metric("e2e_retransmitted");
inline constexpr TotalMetric e2e_go_back_episodes = total_metric("e2e_go_back_episodes");
inline constexpr TotalMetric e2e_timeouts = total_metric("e2e_timeouts");
inline constexpr TotalMetric e2e_duplicates = total_metric("e2e_duplicates");
inline constexpr TotalMetric e2e_out_of_order = total_metric("e2e_out_of_order");
inline constexpr TotalMetric e2e_acks_sent = total_metric("e2e_acks_sent");
inline constexpr TotalMetric e2e_naks_sent = total_metric("e2e_naks_sent");
inline constexpr TotalMetric e2e_unacknowledged = total_metric("e2e_unacknowledged");
inline constexpr SeriesMetric memory_bytes = series_metric("memory_bytes");
inline constexpr TotalMetric memory_peak_bytes = total_metric("memory_peak_bytes");
inline constexpr TotalMetric discards = total_metric("discards");
inline constexpr TotalMetric xoffs = total_metric("xoffs");
inline constexpr TotalMetric xons = total_metric("xons");
inline constexpr TotalMetric pause_frames = total_metric("pause_frames");
inline constexpr TotalMetric throughput_gbps = total_metric("throughput_gbps");
inline constexpr TotalMetric latency_mean_ps = total_metric("latency_mean_ps");
inline constexpr TotalMetric latency_p99_ps = total_metric("latency_p99_ps");
inline constexpr TotalMetric latency_max_ps = total_metric("latency_max_ps");
inline constexpr TotalMetric pause_per_second = total_metric("pause_per_second");
inline constexpr TotalMetric pause_share = total_metric("pause_share");
inline constexpr SeriesMetric packets_held = series_metric("packets_held");
inline constexpr TotalMetric completion_ps = total_metric("completion_ps");
inline constexpr TotalMetric deliveries = total_metric("deliveries");
inline constexpr TotalMetric expected_deliveries = total_metric("expected_deliveries");
inline constexpr TotalMetric switch_copies = total_metric("switch_copies");
inline constexpr SeriesMetric busy_fraction = series_metric("busy_fraction");
inline constexpr SeriesMetric spq_mean = series_metric("spq_mean");
inline constexpr SeriesMetric q_mean = series_metric("q_mean");
inline constexpr TotalMetric packets_offered = total_metric("packets_offered");
inline constexpr TotalMetric host_drops = total_metric("host_drops");
inline constexpr TotalMetric packets_sent = total_metric("packets_sent");
inline constexpr TotalMetric tickets = total_metric("tickets");
inline constexpr TotalMetric retracts = total_metric("retracts");
inline constexpr TotalMetric max_buffers_used = total_metric("max_buffers_used");
inline constexpr TotalMetric relayed = total_metric("relayed");

// link_messages_<kind>: metric::link_messages_of.member("frame").
inline constexpr TotalFamily link_messages_of{"link_messages_<kind>"};

}  // namespace metric

}  // namespace fabric
