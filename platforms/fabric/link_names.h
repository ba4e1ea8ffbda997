#pragma once
// The names of the fabric's links: the entity of their samples and events,
// and how errors.scripted names a link.
#include <string>

#include "model/core/geometry.h"

namespace fabric {

inline std::string cna_link_name(int leaf, int port, bool to_leaf) {
  return "leaf" + std::to_string(leaf) + "_port" + std::to_string(port) + (to_leaf ? "_from_cna" : "_to_cna");
}
inline std::string fabric_link_name(int leaf, int spine, bool up) {
  return "leaf" + std::to_string(leaf) + "_spine" + std::to_string(spine) + (up ? "_up" : "_down");
}
// Whether `name` names a link of a fabric of this geometry.
bool names_link(const Geometry& geometry, const std::string& name);

}  // namespace fabric
