#include "platforms/fabric/link_names.h"

#include <cstdio>

namespace fabric {

bool names_link(const Geometry& g, const std::string& name) {
  for (int l = 0; l < g.leaves; ++l) {
    for (int k = 0; k < g.user_ports_per_leaf; ++k)
      if (name == cna_link_name(l, k, true) || name == cna_link_name(l, k, false)) return true;
    for (int s = 0; s < g.spines; ++s)
      if (name == fabric_link_name(l, s, true) || name == fabric_link_name(l, s, false)) return true;
  }
  return false;
}

}  // namespace fabric
