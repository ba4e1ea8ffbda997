#pragma once
// The model's portable random helpers, for the traffic generators.
#include "model/core/random.h"

namespace fabric::traffic {

using fabric::mix_seed;
using fabric::uniform_below;

}  // namespace fabric::traffic
