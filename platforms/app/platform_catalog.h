#pragma once
// The platforms fabricsim hosts, in a fixed order (the default, fabric, first).
#include <string>
#include <vector>

#include "platforms/common/platform.h"

namespace fabric {

const std::vector<const Platform*>& all_platforms();
// nullptr when there is none of that name.
const Platform* find_platform(const std::string& name);
std::vector<std::string> platform_names();

}  // namespace fabric
