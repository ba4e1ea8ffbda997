#pragma once
// fabricsim's command line (Boost.Program_options), as in interfaces.md.
#include <optional>
#include <string>
#include <vector>

namespace fabric {

struct CommandLine {
  std::optional<std::string> study;
  std::vector<std::string> configs;
  std::vector<std::string> sets;
  std::vector<std::string> swept;       // --set-swept: a sweep point's values (source 'sweep')
  std::vector<std::string> sweeps;      // --sweep KEY=V1,V2: with --points
  bool points = false;                  // list the sweep's points, each validated, then exit
  bool search_lines = false;            // print the study's [search] section, then exit
  std::optional<std::string> check_db;  // --check-db PATH: whether a database may be kept there, then exit
  std::string db = "fabric.db";
  std::optional<std::string> time;
  std::optional<std::string> seed;
  std::string record = "frames";   // --record: what the database records (frames or summary)
  std::vector<std::string> notes;  // said on stderr before anything runs (an old option's name)
  bool list_params = false;
  std::string list_pattern;           // --list-params PATTERN: the keys it names ("": all)
  std::string list_format = "table";  // --format: table (for a reader) or tsv (for a program)
  bool resolved = false;              // --list-params --resolved
  std::optional<std::string> explain;
  bool strict = false;  // warnings are errors
  bool list_studies = false;
  bool list_metrics = false;  // the metric catalog as a Markdown table
  bool quiet = false;
  bool help = false;
  std::string help_text;
};

// Throws std::invalid_argument with a user-facing message on bad options.
CommandLine parse_command_line(int argc, const char* const argv[]);

}  // namespace fabric
