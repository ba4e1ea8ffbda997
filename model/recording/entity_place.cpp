#include "model/recording/entity_place.h"

namespace fabric {

std::string_view unit_kind_name(UnitKind kind) {
  switch (kind) {
    case UnitKind::leaf:
      return "leaf";
    case UnitKind::spine:
      return "spine";
    case UnitKind::port:
      return "port";
    case UnitKind::station:
      return "station";
    case UnitKind::switch_:
      return "switch";
    case UnitKind::bridge:
      return "bridge";
    case UnitKind::ring:
      return "ring";
  }
  return "port";
}

std::string_view direction_name(Direction direction) {
  switch (direction) {
    case Direction::none:
      return "";
    case Direction::up:
      return "up";
    case Direction::down:
      return "down";
    case Direction::to_switch:
      return "to_switch";
    case Direction::to_station:
      return "to_station";
    case Direction::in:
      return "in";
    case Direction::out:
      return "out";
  }
  return "";
}

}  // namespace fabric
