#pragma once
// Cyclic multicast on an InfiniBand fat tree (platform `ibft`,
// platforms.md E13): IBFT(m, n), its subnet manager's forwarding tables,
// and one-shot multicast messages under the cyclic, OpenSM or unicast scheme.
#include "platforms/common/platform.h"

namespace fabric {

class IbftPlatform final : public Platform {
 public:
  std::string name() const override { return "ibft"; }
  std::string title() const override {
    return "an InfiniBand m-port n-tree with cyclic multicast, OpenSM trees or unicast, one-shot messages (E13)";
  }
  Vocabulary vocabulary() const override { return {"message", "messages", "packet"}; }
  void declare_params(config::ParamRegistry& registry) const override;
  PlatformResolution resolve(const config::Config& config, const SharedRunKeys& keys) const override;
};

}  // namespace fabric
