#include <cstdlib>
#include <systemc>

#include "platforms/app/fabricsim_app.h"

// SystemC prints its banner in main(), before sc_main: ask for silence before
// that, so the output is only what the user asked for.
__attribute__((constructor)) static void disable_systemc_banner() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}

int sc_main(int argc, char* argv[]) { return fabric::run_fabricsim(argc, argv); }
