#include "platforms/common/own_traffic.h"

namespace fabric {

void refuse_flows(const config::Config& c, const std::string& platform, const std::string& own_keys) {
  if (c.get_choice("traffic.pattern") != "none")
    c.fail("traffic.pattern", "none on platform " + platform + ": its traffic is " + own_keys);
  for (const std::string& name : c.instances("flow"))
    c.fail("flow." + name + ".src", "no flow on platform " + platform + ": its traffic is " + own_keys);
}

}  // namespace fabric
