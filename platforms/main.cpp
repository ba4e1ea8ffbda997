#include <cstdlib>
#include <systemc>

#include "platforms/app/fabricsim_app.h"

int sc_main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // keep the output to what the user asked for
  return fabric::run_fabricsim(argc, argv);
}
