#pragma once
// The 802.3x backplane switch (platform `backplane`, platforms.md E12): one
// shared-memory output-queued switch and closed-loop end stations.
#include "platforms/common/platform.h"

namespace fabric {

class BackplanePlatform final : public Platform {
 public:
  std::string name() const override { return "backplane"; }
  std::string title() const override {
    return "a 16-port 10G shared-memory Ethernet switch with 802.3x PAUSE and closed-loop end stations (E12)";
  }
  Vocabulary vocabulary() const override { return {"frame", "frames", "frame"}; }
  void declare_params(config::ParamRegistry& registry) const override;
  PlatformResolution resolve(const config::Config& config, const SharedRunKeys& keys) const override;
};

}  // namespace fabric
