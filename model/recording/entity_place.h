#pragma once
// Where an entity sits in its platform, as the columns of `entities` give
// it (from_kind, from_id, to_kind, to_id, direction, vl): a link's two ends,
// from the unit that sends to the unit that receives, or the one unit an
// entity is or belongs to (from only: leaf0 is leaf 0, port6.in port 6).
// The model gives it where it declares the entity, from what it builds;
// nothing reads it back from names (db/migrations.sql does, for old files).
#include <cstdint>
#include <optional>
#include <string_view>

namespace fabric {

// What an end is: the database spells each as below (unit_kind_name).
enum class UnitKind : uint8_t {
  leaf,     // a fabric leaf, by its leaf id
  spine,    // a fabric spine, 0 .. spines - 1
  port,     // a port of the ports table (a fabric CNA is its port's)
  station,  // a backplane end station or a ring station, by its port id
  switch_,  // the backplane's shared-memory switch (0)
  bridge,   // a ring bridge, by its index
  ring,     // a ring, by its index
};
constexpr int kUnitKinds = 7;

struct Unit {
  UnitKind kind;
  int64_t id;
};
inline bool operator==(const Unit& a, const Unit& b) { return a.kind == b.kind && a.id == b.id; }

// A link's direction in its platform's words; a congestion point's side of
// its port.
enum class Direction : uint8_t {
  none,
  up,          // fabric: towards the spines (CNA to leaf, leaf to spine)
  down,        // fabric: away from them (spine to leaf, leaf to CNA)
  to_switch,   // backplane: station to switch
  to_station,  // backplane: switch to station
  in,          // a congestion point at its port's input
  out,         // a congestion point at its port's output
};
constexpr int kDirections = 7;

struct EntityPlace {
  std::optional<Unit> from;  // a link's sending end, or the unit an entity is or belongs to
  std::optional<Unit> to;    // a link's receiving end
  Direction direction = Direction::none;
  int vl = -1;  // the virtual lane it is about; -1: none
};
inline bool operator==(const EntityPlace& a, const EntityPlace& b) {
  return a.from == b.from && a.to == b.to && a.direction == b.direction && a.vl == b.vl;
}
inline bool operator!=(const EntityPlace& a, const EntityPlace& b) { return !(a == b); }

// A link from `from` to `to`.
inline EntityPlace link_place(Unit from, Unit to, Direction direction = Direction::none) {
  return {from, to, direction, -1};
}
// An entity that is, or belongs to, `unit`.
inline EntityPlace unit_place(Unit unit, Direction direction = Direction::none) {
  return {unit, std::nullopt, direction, -1};
}

// leaf, spine, port, station, switch, bridge, ring.
std::string_view unit_kind_name(UnitKind kind);
// up, down, to_switch, to_station, in, out; "" for none.
std::string_view direction_name(Direction direction);

}  // namespace fabric
