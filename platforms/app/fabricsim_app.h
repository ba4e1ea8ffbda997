#pragma once
// fabricsim from command line to exit status: 0 done, 1 stalled or failed,
// 2 bad input (configuration, command line, database file), 130 interrupted.
namespace fabric {

int run_fabricsim(int argc, const char* const argv[]);

}  // namespace fabric
