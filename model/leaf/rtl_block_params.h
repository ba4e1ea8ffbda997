#pragma once
// The keys that choose each multicast block's implementation (leaf.sync.impl,
// leaf.cache.impl) and write the RTL blocks' waveforms (rtl.trace*), with
// the checks against what this build has: no RTL without Verilator, sizes
// equal to the parameters the blocks were verilated with.
#include "model/config/config.h"
#include "model/leaf/leaf_params.h"

namespace fabric {

void declare_rtl_block_params(config::ParamRegistry& r);
// Fills p's implementation and trace fields; after the sizes are read.
void read_rtl_block_params(const config::Config& c, LeafParams& p);

}  // namespace fabric
