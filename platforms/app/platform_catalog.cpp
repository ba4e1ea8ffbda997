#include "platforms/app/platform_catalog.h"

#include "platforms/backplane/backplane_platform.h"
#include "platforms/fabric/fabric_platform.h"
#include "platforms/ibft/ibft_platform.h"
#include "platforms/ring/ring_platform.h"

namespace fabric {

const std::vector<const Platform*>& all_platforms() {
  static const FabricPlatform fabric;
  static const BackplanePlatform backplane;
  static const IbftPlatform ibft;
  static const RingPlatform ring;
  static const std::vector<const Platform*> platforms = {&fabric, &backplane, &ibft, &ring};
  return platforms;
}

const Platform* find_platform(const std::string& name) {
  for (const Platform* p : all_platforms())
    if (p->name() == name) return p;
  return nullptr;
}

std::vector<std::string> platform_names() {
  std::vector<std::string> names;
  for (const Platform* p : all_platforms()) names.push_back(p->name());
  return names;
}

}  // namespace fabric
