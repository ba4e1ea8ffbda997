#pragma once
// The switch fabric (platform `fabric`, the default): CNAs, leaves and
// spines of the 640-port system, with their keys.
#include "platforms/common/platform.h"

namespace fabric {

class FabricPlatform final : public Platform {
 public:
  std::string name() const override { return "fabric"; }
  std::string title() const override {
    return "the 640-port 100G Ethernet fabric: CNAs, leaves with VOQs and multicast, cell spines";
  }
  Vocabulary vocabulary() const override { return {"frame", "frames", "frame"}; }
  void declare_params(config::ParamRegistry& registry) const override;
  PlatformResolution resolve(const config::Config& config, const SharedRunKeys& keys) const override;
};

}  // namespace fabric
