// fabricsim-rtl-check: qualify this build's RTL blocks (ours, or yours from
// FABRICSIM_RTL_*) against the C++ model before running a study with them.
// Exit 0: no mismatch; 1: the first mismatch, printed; 2: bad arguments.
#include <boost/program_options.hpp>
#include <iostream>

#include "rtl/check/block_check.h"

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  fabric::rtl::CheckOptions o;
  std::string block = "all";
  po::options_description desc(
      "fabricsim-rtl-check: drives each RTL block of this build and the C++ model in lockstep on seeded\n"
      "adversarial stimulus, for every size the build verilated, and prints the first mismatch.\nOptions");
  desc.add_options()("help,h", "this text")("block", po::value(&block)->default_value("all"), "sync, cache or all")(
      "seed", po::value(&o.first_seed)->default_value(1), "first seed")("seeds", po::value(&o.seeds)->default_value(20),
                                                                        "seeds per block and size (1-100000)")(
      "cycles", po::value(&o.cycles)->default_value(20000), "cycles per seed (1-100000000)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
    if (block != "sync" && block != "cache" && block != "all")
      throw po::error("--block is '" + block + "'; allowed: sync, cache, all");
    if (o.seeds < 1 || o.seeds > 100000)
      throw po::error("--seeds is " + std::to_string(o.seeds) + "; allowed: 1-100000");
    if (o.cycles < 1 || o.cycles > 100000000)
      throw po::error("--cycles is " + std::to_string(o.cycles) + "; allowed: 1-100000000");
  } catch (const po::error& e) {
    std::cerr << "fabricsim-rtl-check: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  o.sync = block != "cache";
  o.cache = block != "sync";
  return fabric::rtl::check_blocks(o, std::cout) ? 0 : 1;
}
