#pragma once
// The names of the fabric's links: the entity of their samples and events,
// and how errors.scripted names a link; and their ends (entities.from_*,
// to_*, direction).
#include <string>
#include <vector>

#include "model/core/geometry.h"
#include "model/recording/entity_place.h"

namespace fabric {

inline std::string cna_link_name(int leaf, int port, bool to_leaf) {
  return "leaf" + std::to_string(leaf) + "_port" + std::to_string(port) + (to_leaf ? "_from_cna" : "_to_cna");
}
inline std::string fabric_link_name(int leaf, int spine, bool up) {
  return "leaf" + std::to_string(leaf) + "_spine" + std::to_string(spine) + (up ? "_up" : "_down");
}
// The CNA of `port` (leaf `leaf`'s k-th user port) to its leaf (up), or back (down).
inline EntityPlace cna_link_place(int leaf, PortId port, bool to_leaf) {
  const Unit cna{UnitKind::port, raw(port)}, at{UnitKind::leaf, leaf};
  return to_leaf ? link_place(cna, at, Direction::up) : link_place(at, cna, Direction::down);
}
// Leaf to spine (up), or spine to leaf (down).
inline EntityPlace fabric_link_place(int leaf, int spine, bool up) {
  const Unit l{UnitKind::leaf, leaf}, s{UnitKind::spine, spine};
  return up ? link_place(l, s, Direction::up) : link_place(s, l, Direction::down);
}
// Whether `name` names a link of a fabric of this geometry.
bool names_link(const Geometry& geometry, const std::string& name);
// Every link of a fabric of this geometry, by leaf: its CNA links, then its spine links.
std::vector<std::string> link_names(const Geometry& geometry);

}  // namespace fabric
