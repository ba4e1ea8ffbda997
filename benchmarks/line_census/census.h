#pragma once
// An access the compiler reported (access_hooks.cpp), for the census.
#include <cstddef>
#include <cstdint>

namespace fabric::line_census {

void touch(uintptr_t address, size_t size, const void* pc);

}  // namespace fabric::line_census
