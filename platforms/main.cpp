#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <systemc>

#include "platforms/app/fabricsim_app.h"

// Runs before main(), where SystemC prints its banner and before the heap
// grows. Two process-level settings that glibc and SystemC read only at
// start-up:
//  - no SystemC banner: the output is what the user asked for;
//  - malloc backed by transparent huge pages: a full-system run touches
//    hundreds of MiB at random, and with 4 KiB pages the TLB misses cost
//    ~17 % of the wall time (measured on perm640). glibc reads
//    GLIBC_TUNABLES only when a process starts, so restart once with it.
__attribute__((constructor)) static void configure_process() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  if (std::getenv("GLIBC_TUNABLES") == nullptr && std::getenv("FABRICSIM_NO_HUGEPAGES") == nullptr) {
    setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1);
    static char* argv[4096];
    FILE* cmdline = std::fopen("/proc/self/cmdline", "rb");
    if (!cmdline) return;
    static char buffer[1 << 16];
    const size_t n = std::fread(buffer, 1, sizeof buffer - 1, cmdline);
    std::fclose(cmdline);
    buffer[n] = '\0';
    size_t argc = 0;
    for (size_t i = 0; i < n && argc + 1 < sizeof argv / sizeof *argv; i += std::strlen(buffer + i) + 1)
      argv[argc++] = buffer + i;
    argv[argc] = nullptr;
    execv("/proc/self/exe", argv);  // on failure, carry on without huge pages
  }
}

int sc_main(int argc, char* argv[]) { return fabric::run_fabricsim(argc, argv); }
