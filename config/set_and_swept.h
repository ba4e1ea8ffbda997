#pragma once
// A key is given one way: a key the command line sets for every point
// (--set, --set-swept) that the sweep varies too (--sweep, or a study's
// [sweep] section) would have one of the two win silently, so it is refused,
// naming the key and both. A value a study or --config file gives is the
// sweep's base, which the sweep varies: no conflict. No SystemC.
#include "config/config.h"
#include "config/sweep_spec.h"

namespace fabric::config {

// Throws ConfigError naming the first key so given, and both options.
void refuse_keys_set_and_swept(const Config& config, const SweepSpec& sweep);

}  // namespace fabric::config
