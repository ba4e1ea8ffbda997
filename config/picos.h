#pragma once
// Time in configuration and in the database: integer picoseconds (the
// model's time unit, model/core/ids.h, is this one).
#include <cstdint>

namespace fabric {

using Picos = int64_t;

}  // namespace fabric
