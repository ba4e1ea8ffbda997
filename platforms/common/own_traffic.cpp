#include "platforms/common/own_traffic.h"

#include "traffic/traffic_params.h"

namespace fabric {

void refuse_flows(const config::Config& c, const std::string& platform, const std::string& own_keys) {
  const config::ParamScope reading(c);
  const traffic::TrafficKeys keys;
  if (keys.pattern.pattern.value() != "none")
    keys.pattern.pattern.fail("none on platform " + platform + ": its traffic is " + own_keys);
  for (const std::string& name : c.instances("flow"))
    c.fail(keys.flow.src.key_of(name), "no flow on platform " + platform + ": its traffic is " + own_keys);
}

}  // namespace fabric
