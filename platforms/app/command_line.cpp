#include "platforms/app/command_line.h"

#include <boost/program_options.hpp>
#include <sstream>
#include <stdexcept>

namespace fabric {

namespace po = boost::program_options;

CommandLine parse_command_line(int argc, const char* const argv[]) {
  CommandLine cl;
  po::options_description desc("fabricsim: SystemC/TLM model of a 100G Ethernet server-rack fabric\n\nOptions");
  desc.add_options()
      ("help,h", "this help")
      ("study", po::value<std::string>(), "run a shipped study by id (see --list-studies); default E11")
      ("config", po::value<std::vector<std::string>>(&cl.configs), "INI configuration (section.key = value); may repeat, later wins")
      ("set", po::value<std::vector<std::string>>(&cl.sets), "override one key: KEY=VALUE; may repeat")
      ("db", po::value<std::string>(&cl.db)->default_value("fabric.db"), "SQLite output; a new run is appended")
      ("time", po::value<std::string>(), "simulated time, e.g. 500us, 4ms (key sim.time)")
      ("seed", po::value<std::string>(), "random seed (key sim.seed)")
      ("log-level", po::value<std::string>(&cl.log_level)->default_value("frames"), "what the database records: frames (every frame and copy) or summary")
      ("list-params", "every key with default, unit and description, then exit")
      ("list-studies", "the shipped studies, then exit")
      ("quiet", "no progress display");
  std::ostringstream help;
  help << desc;
  cl.help_text = help.str();
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw std::invalid_argument(std::string("command line: ") + e.what() + " (see --help)");
  }
  if (vm.count("study")) cl.study = vm["study"].as<std::string>();
  if (vm.count("time")) cl.time = vm["time"].as<std::string>();
  if (vm.count("seed")) cl.seed = vm["seed"].as<std::string>();
  cl.help = vm.count("help") > 0;
  cl.list_params = vm.count("list-params") > 0;
  cl.list_studies = vm.count("list-studies") > 0;
  cl.quiet = vm.count("quiet") > 0;
  if (cl.log_level != "frames" && cl.log_level != "summary")
    throw std::invalid_argument("command line: --log-level has value '" + cl.log_level +
                                "'; allowed: frames, summary");
  return cl;
}

}  // namespace fabric
