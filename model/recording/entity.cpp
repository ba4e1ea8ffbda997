#include "model/recording/entity.h"

namespace fabric {

std::string_view kind_name(EntityKind kind) {
  switch (kind) {
    case EntityKind::system:
      return "system";
    case EntityKind::port:
      return "port";
    case EntityKind::leaf:
      return "leaf";
    case EntityKind::link:
      return "link";
    case EntityKind::cna:
      return "cna";
    case EntityKind::congestion_point:
      return "congestion_point";
    case EntityKind::switch_:
      return "switch";
    case EntityKind::station:
      return "station";
    case EntityKind::segment:
      return "segment";
    case EntityKind::bridge_side:
      return "bridge_side";
  }
  return "system";
}

std::optional<EntityKind> entity_kind_named(std::string_view name) {
  for (int k = 0; k < kEntityKinds; ++k)
    if (kind_name(EntityKind(k)) == name) return EntityKind(k);
  return std::nullopt;
}

}  // namespace fabric
