#pragma once
// What a sample, a total or an event is about: a port, a link, a leaf, a
// station... Each has an integer id, a kind, a name and a place: its ends,
// or the unit it belongs to (entity_place.h; table `entities`).
// A port's id is its port id, so the tables that name ports by port_id
// (ports, flows, deliveries, drops) and those that name entities agree; the
// other entities are numbered from kFirstNamedEntity in the order they are
// declared.
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/core/ids.h"

namespace fabric {

enum class EntityId : int64_t {};

enum class EntityKind : uint8_t {
  system,            // the whole platform: fabric, backplane, ibft, ring
  port,              // a port of the ports table (user or surrogate)
  leaf,              // a fabric leaf
  link,              // one direction of a link (leaf0_spine3_up, leaf0_port2_from_cna, station0_to_switch)
  cna,               // a CNA's end-to-end transport (cna<N>, its port N)
  congestion_point,  // a QCN congestion point at a port's input or output (port<N>.in, port<N>.out)
  switch_,           // a shared-memory switch (backplane)
  station,           // an end station (backplane) or a ring station
  segment,           // a ring segment (ring<R>.segment<P>)
  bridge_side,       // one side of a ring bridge (bridge<B>.side<S>)
};
constexpr int kEntityKinds = 10;

// One past the largest port id: the first id of an entity that is not a port.
constexpr int64_t kFirstNamedEntity = 1'000'000;

constexpr EntityId port_entity(PortId port) { return EntityId(static_cast<int64_t>(raw(port))); }

// The kind as the database spells it: system, port, leaf, link, cna,
// congestion_point, switch, station, segment, bridge_side.
std::string_view kind_name(EntityKind kind);
std::optional<EntityKind> entity_kind_named(std::string_view name);

}  // namespace fabric
