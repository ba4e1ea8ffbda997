#include <cstdlib>
#include <systemc>

#include "platforms/app/fabricsim_app.h"

// Runs before main(), where SystemC prints its banner: the output is what
// the user asked for. (Huge pages for the heap: platforms/app/huge_pages.h,
// from inside the process; fabricsim never restarts itself.)
__attribute__((constructor)) static void configure_process() { setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0); }

int sc_main(int argc, char* argv[]) { return fabric::run_fabricsim(argc, argv); }
