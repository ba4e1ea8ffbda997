#pragma once
// ibft.* keys: the InfiniBand fat tree of platforms.md, E13, its switches
// and links, the multicast scheme and the one-shot workload.
#include <cstdint>
#include <string>

#include "model/config/config.h"
#include "model/ibft/ib_switch.h"
#include "model/link/link.h"

namespace fabric {

enum class IbftScheme { cyclic, opensm, unicast };
const char* to_string(IbftScheme scheme);

struct IbftConfig {
  int m = 8;
  int n = 3;
  int nodes = 0;                   // 2 (m/2)^n
  IbftScheme scheme = IbftScheme::cyclic;
  int sources = 0;                 // nodes that send
  int group = 0;                   // receivers of each source's message
  uint32_t message_bytes = 4096;
  uint32_t mtu = 0;                // 0: a message is one packet
  IbSwitchParams sw;
  LinkParams link;
  Picos start = 0;
};

void declare_ibft_params(config::ParamRegistry& registry);
// Throws ConfigError naming the key at fault: odd m, n < 1, a tree beyond
// InfiniBand's LIDs, a group larger than the other nodes, a message size out
// of range.
IbftConfig read_ibft_params(const config::Config& config);

}  // namespace fabric
