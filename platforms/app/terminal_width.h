#pragma once
// How wide fabricsim's listings for a reader may be: $COLUMNS when it is a
// number, else the width of the terminal stdout is, else 100 (a pipe, a
// file).
#include <cstddef>

namespace fabric {

constexpr size_t kWidthWithoutTerminal = 100;

size_t terminal_width();

}  // namespace fabric
