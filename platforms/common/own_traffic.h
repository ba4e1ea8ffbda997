#pragma once
// The guard of a platform whose traffic is its own keys (ibft, ring): a
// traffic pattern or an explicit flow is refused, naming the key and the
// platform's own traffic keys.
#include <string>

#include "config/config.h"

namespace fabric {

// Throws ConfigError naming traffic.pattern or flow.NAME.src. `own_keys`:
// what the platform's traffic is, for the message ("ring.groups, ...").
void refuse_flows(const config::Config& config, const std::string& platform, const std::string& own_keys);

}  // namespace fabric
