#include "model/recording/metric_catalog.h"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <unordered_map>

namespace fabric {

const std::vector<MetricDefinition>& metric_catalog() {
  static const std::vector<MetricDefinition> catalog(std::begin(catalog_detail::kMetrics),
                                                     std::end(catalog_detail::kMetrics));
  return catalog;
}

const MetricDefinition* find_metric(std::string_view name) {
  static const std::unordered_map<std::string_view, const MetricDefinition*> by_name = [] {
    std::unordered_map<std::string_view, const MetricDefinition*> m;
    for (const MetricDefinition& d : metric_catalog()) m.emplace(d.name, &d);
    return m;
  }();
  if (const auto it = by_name.find(name); it != by_name.end()) return it->second;
  // A family's member: link_messages_packet is a link_messages_<kind>.
  for (size_t cut = name.rfind('_'); cut != std::string_view::npos && cut > 0; cut = name.rfind('_', cut - 1)) {
    const std::string family = std::string(name.substr(0, cut + 1)) + "<kind>";
    if (const auto it = by_name.find(family); it != by_name.end()) return it->second;
  }
  return nullptr;
}

std::string_view kind_name(MetricKind kind) { return kind == MetricKind::series ? "series" : "total"; }

bool allows(const MetricDefinition& metric, EntityKind kind) {
  const std::string_view wanted = kind_name(kind);
  for (size_t start = 0; start <= metric.entity.size();) {
    const size_t comma = std::min(metric.entity.find(',', start), metric.entity.size());
    std::string_view item = metric.entity.substr(start, comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item == wanted) return true;
    start = comma + 1;
  }
  return false;
}

std::string metric_table_markdown() {
  std::ostringstream out;
  out << "| metric | unit | kind | platforms | entity | meaning |\n|---|---|---|---|---|---|\n";
  for (const MetricDefinition& d : metric_catalog()) {
    out << "| `" << d.name << "` | " << d.unit << " | " << kind_name(d.kind) << " | " << d.platforms << " | "
        << d.entity << " | " << d.description << " |\n";
  }
  return out.str();
}

}  // namespace fabric
