#pragma once
// Every metric a run may write into `samples` (series) or `totals`, defined once: its name, unit,
// kind, platforms, entity and meaning. The recorder refuses a metric that is
// not here (a model error, exit 1), every database holds this table as
// `metrics`, and docs/database.md's metric table is `fabricsim
// --list-metrics` (a test compares them).
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

const std::vector<MetricDefinition>& metric_catalog();
// The definition of `name` (a family's member by its family), or nullptr.
const MetricDefinition* find_metric(std::string_view name);
std::string_view kind_name(MetricKind kind);
// Whether `metric` may be recorded for an entity of `kind`.
bool allows(const MetricDefinition& metric, EntityKind kind);
// The catalog as a Markdown table (fabricsim --list-metrics).
std::string metric_table_markdown();

}  // namespace fabric
