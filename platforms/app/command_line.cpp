#include "platforms/app/command_line.h"

#include <boost/program_options.hpp>
#include <sstream>
#include <stdexcept>

#include "config/close_names.h"
#include "config/config_error.h"
#include "db/database_path.h"
#include "platforms/app/platform_catalog.h"

namespace fabric {

namespace po = boost::program_options;

namespace {

void check_database_path(const std::string& path) {
  if (const std::optional<std::string> why = db::database_path_problem(path))
    throw std::invalid_argument("command line: " + db::database_path_message("--db", path, *why));
}

}  // namespace

CommandLine parse_command_line(int argc, const char* const argv[]) {
  CommandLine cl;
  std::string platforms;
  for (const std::string& name : platform_names()) platforms += (platforms.empty() ? "" : ", ") + name;
  po::options_description desc(
      "fabricsim: SystemC/TLM model of a 100G Ethernet server-rack fabric, and of other systems as platforms "
      "(key 'platform': " +
      platforms + ")\n\nOptions");
  desc.add_options()("help,h", "this help")("study", po::value<std::string>(),
                                            "run a shipped study by id (see --list-studies); default E11")(
      "config", po::value<std::vector<std::string>>(&cl.configs),
      "INI configuration (section.key = value); may repeat, later wins")(
      "set", po::value<std::vector<std::string>>(&cl.sets), "override one key: KEY=VALUE; may repeat")(
      "set-swept", po::value<std::vector<std::string>>(&cl.swept),
      "as --set, for the value a sweep's point gives a swept key (scripts/fabricsim-sweep passes them; run_params "
      "records them as source 'sweep')")(
      "strict",
      "a check of a physical constraint that does not hold (a warning otherwise) is an error: exit 2, nothing written")(
      "explain", po::value<std::string>(),
      "print KEY's resolved value, where it comes from (default, derived with its formula and numbers, study file and "
      "line, --set) and the checks that read it, for the run --study/--config/--set describe; then exit")(
      "db", po::value<std::string>(&cl.db)->default_value("fabric.db"), "SQLite output; a new run is appended")(
      "time", po::value<std::string>(), "simulated time, e.g. 500us, 4ms (key sim.time)")(
      "seed", po::value<std::string>(), "random seed (key sim.seed)")(
      "record", po::value<std::string>(),
      "what the database records: frames (every frame and copy; the default) or summary (totals, samples and events, "
      "no frame or copy)")("log-level", po::value<std::string>(),
                           "the old name of --record, accepted until the next release")(
      "list-params",
      "every key with type, default, unit, allowed values and description, grouped by platform, "
      "wrapped to the terminal, then exit; --list-params PATTERN: the keys PATTERN names (a glob such as "
      "'leaf.voq.*', a key, or a group such as leaf.voq)")(
      "format", po::value<std::string>(&cl.list_format),
      "with --list-params: table (for a reader; the default) or tsv "
      "(one line per key, tab-separated, with a heading line: for programs)")(
      "resolved",
      "with --list-params: every key of the run --study/--config/--set describe, with its value and where it comes "
      "from")("list-studies", "the shipped studies (id, platform, title), then exit")(
      "list-metrics",
      "every metric a run may record, as a series of samples or as a total, with its unit, kind, platforms and "
      "meaning, as a Markdown table (docs/database.md), then exit")(
      "sweep", po::value<std::vector<std::string>>(&cl.sweeps),
      "with --points: sweep a key over values, KEY=V1,V2,...; may repeat (runs: scripts/fabricsim-sweep)")(
      "check-db", po::value<std::string>(),
      "whether PATH can keep runs, by the rule --db follows (no URI, no database in memory, no empty name, no "
      "directory): exit 0, or 2 with the reason; for scripts/fabricsim-sweep")(
      "points",
      "the points of the study's [sweep] and --sweep, each validated as a run, one JSON line each; then exit")(
      "search-lines",
      "the study's [search] section, one 'name = value' line each (for scripts/fabricsim-search); then exit")(
      "quiet", "no progress display");
  std::ostringstream help;
  help << desc;
  cl.help_text = help.str();
  // Words that are no option or option value are collected, to be refused by
  // name: "fabricsim --time 20us E1a" must not run E11.
  std::vector<std::string> stray_words;
  po::options_description everything;
  everything.add(desc).add_options()("stray-word", po::value<std::vector<std::string>>(&stray_words));
  po::positional_options_description stray;
  stray.add("stray-word", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(everything).positional(stray).run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    const std::string given = e.get_option_name();
    std::vector<std::string> options;
    for (const auto& option : desc.options()) options.push_back("--" + option->long_name());
    throw std::invalid_argument("command line: unknown option '" + config::shorten_for_message(given) + "'" +
                                config::did_you_mean(config::close_names(given, options)) + " (see --help)");
  } catch (const po::error& e) {
    throw std::invalid_argument("command line: " + config::shorten_for_message(e.what(), 200) + " (see --help)");
  }
  cl.list_params = vm.count("list-params") > 0;
  if (cl.list_params && stray_words.size() == 1) {  // --list-params PATTERN
    cl.list_pattern = stray_words.front();
    stray_words.clear();
  }
  if (!stray_words.empty())
    throw std::invalid_argument(
        "command line: unexpected word '" + config::shorten_for_message(stray_words.front()) +
        "': every word is an option (--study ID, --set KEY=VALUE ...) or its value (see --help)");
  check_database_path(cl.db);
  if (vm.count("study")) cl.study = vm["study"].as<std::string>();
  if (vm.count("time")) cl.time = vm["time"].as<std::string>();
  if (vm.count("seed")) cl.seed = vm["seed"].as<std::string>();
  cl.help = vm.count("help") > 0;
  cl.list_studies = vm.count("list-studies") > 0;
  cl.list_metrics = vm.count("list-metrics") > 0;
  cl.quiet = vm.count("quiet") > 0;
  cl.points = vm.count("points") > 0;
  cl.search_lines = vm.count("search-lines") > 0;
  cl.strict = vm.count("strict") > 0;
  cl.resolved = vm.count("resolved") > 0;
  if (vm.count("check-db")) cl.check_db = vm["check-db"].as<std::string>();
  if (vm.count("explain")) cl.explain = vm["explain"].as<std::string>();
  if (vm.count("format") && !cl.list_params)
    throw std::invalid_argument("command line: --format goes with --list-params (--list-params --format tsv)");
  if (cl.list_format != "table" && cl.list_format != "tsv")
    throw std::invalid_argument("command line: --format has value '" + config::shorten_for_message(cl.list_format) +
                                "'; allowed: table, tsv" +
                                config::did_you_mean(config::close_names(cl.list_format, {"table", "tsv"})));
  if (cl.resolved && !cl.list_params)
    throw std::invalid_argument("command line: --resolved goes with --list-params (every key of the run, resolved)");
  if (!cl.sweeps.empty() && !cl.points)
    throw std::invalid_argument(
        "command line: --sweep lists a sweep's points with --points; a sweep runs with "
        "scripts/fabricsim-sweep");
  const char* record_option = "--record";
  if (vm.count("record")) cl.record = vm["record"].as<std::string>();
  if (vm.count("log-level")) {
    const std::string old_value = vm["log-level"].as<std::string>();
    if (vm.count("record") && old_value != cl.record)
      throw std::invalid_argument("command line: --log-level has value '" + old_value + "' and --record '" + cl.record +
                                  "'; --log-level is the old name of --record: give one");
    if (!vm.count("record")) {
      cl.record = old_value;
      record_option = "--log-level";
    }
    cl.notes.push_back(
        "--log-level is now --record (it chooses what the database records); the old name is "
        "accepted until the next release");
  }
  if (cl.record != "frames" && cl.record != "summary")
    throw std::invalid_argument(std::string("command line: ") + record_option + " has value '" + cl.record +
                                "'; allowed: frames, summary");
  return cl;
}

}  // namespace fabric
