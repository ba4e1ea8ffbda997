// The ibft platform's lines of the run summary (PlatformTop::summarize).
#include <cstdio>

#include "platforms/ibft/ibft_top.h"

namespace fabric {

void IbftTop::summarize(std::ostream& out, Picos) const {
  const char* root = config_.scheme != IbftScheme::opensm        ? ""
                     : config_.opensm_root == OpenSmRoot::spread ? " (root spread)"
                                                                 : " (root first)";
  char line[256];
  std::snprintf(line, sizeof line,
                "  IBFT(%d, %d), %s%s scheme, %u B messages: completion %.3f us; %llu of %llu deliveries; %llu "
                "copies through switches\n",
                config_.m, config_.n, to_string(config_.scheme), root, config_.message_bytes, completion() / 1e6,
                static_cast<unsigned long long>(frames_delivered()),
                static_cast<unsigned long long>(expected_deliveries_),
                static_cast<unsigned long long>(switch_copies()));
  out << line;
}

}  // namespace fabric
