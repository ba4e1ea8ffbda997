// The counting build's side of the compiler: the model's sources are built
// with AddressSanitizer's instrumentation, every access a call
// (--param asan-instrumentation-with-call-threshold=0), stack and globals
// not instrumented, and without its run-time library: these functions
// receive the calls and hand each access to the census (census.cpp). This
// file is compiled without the instrumentation.
#include <cstddef>
#include <cstdint>

#include "benchmarks/line_census/census.h"

using fabric::line_census::touch;

#define FABRICSIM_ACCESS(n)                                                                \
  void __asan_load##n(uintptr_t a) { touch(a, n, __builtin_return_address(0)); }           \
  void __asan_store##n(uintptr_t a) { touch(a, n, __builtin_return_address(0)); }          \
  void __asan_load##n##_noabort(uintptr_t a) { touch(a, n, __builtin_return_address(0)); } \
  void __asan_store##n##_noabort(uintptr_t a) { touch(a, n, __builtin_return_address(0)); }

extern "C" {
void __asan_init() {}
void __asan_version_mismatch_check_v8() {}
void __asan_handle_no_return() {}
void __asan_before_dynamic_init(const char*) {}  // the order of static initialisation: not checked
void __asan_after_dynamic_init() {}
FABRICSIM_ACCESS(1)
FABRICSIM_ACCESS(2)
FABRICSIM_ACCESS(4)
FABRICSIM_ACCESS(8)
FABRICSIM_ACCESS(16)
void __asan_loadN(uintptr_t a, size_t n) { touch(a, n, __builtin_return_address(0)); }
void __asan_storeN(uintptr_t a, size_t n) { touch(a, n, __builtin_return_address(0)); }
void __asan_loadN_noabort(uintptr_t a, size_t n) { touch(a, n, __builtin_return_address(0)); }
void __asan_storeN_noabort(uintptr_t a, size_t n) { touch(a, n, __builtin_return_address(0)); }
}
