#include "platforms/fabric/link_names.h"

#include <algorithm>

namespace fabric {

bool names_link(const Geometry& g, const std::string& name) {
  const std::vector<std::string> names = link_names(g);
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> link_names(const Geometry& g) {
  std::vector<std::string> names;
  for (int l = 0; l < g.leaves; ++l) {
    for (int k = 0; k < g.user_ports_per_leaf; ++k) {
      names.push_back(cna_link_name(l, k, true));
      names.push_back(cna_link_name(l, k, false));
    }
    for (int s = 0; s < g.spines; ++s) {
      names.push_back(fabric_link_name(l, s, true));
      names.push_back(fabric_link_name(l, s, false));
    }
  }
  return names;
}

}  // namespace fabric
