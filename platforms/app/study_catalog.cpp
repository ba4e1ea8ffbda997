#include "platforms/app/study_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "model/config/config.h"
#include "model/config/split.h"
#include "platforms/app/parameters.h"

namespace fabric {

namespace fs = std::filesystem;

namespace {

fs::path study_dir() {
  if (const char* env = std::getenv("FABRICSIM_STUDY_DIR")) return env;
  return FABRICSIM_STUDY_DIR;
}

// The title: the first comment line.
std::string title_of(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const std::string t = config::trim(line);
    if (t.rfind("#", 0) == 0) return t.substr(std::min(t.size(), t.find_first_not_of("# ")));
  }
  return "";
}

// The platform, as a run of the study reads it (its includes too).
std::string platform_of(const fs::path& path, const config::ParamRegistry& registry) {
  config::Config config(registry);
  try {
    config.load_ini(path.string());
    const config::ParamScope reading(config);
    return run_keys().platform;
  } catch (const config::ConfigError&) {
    return "?";  // a study file with an error: running it says which
  }
}

}  // namespace

std::vector<StudyEntry> list_studies() {
  std::vector<StudyEntry> studies;
  const config::ParamRegistry registry = build_registry();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(study_dir(), ec)) {
    if (entry.path().extension() != ".ini") continue;
    const fs::path& p = entry.path();
    studies.push_back({p.stem().string(), title_of(p), p.string(), platform_of(p, registry)});
  }
  std::sort(studies.begin(), studies.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return studies;
}

std::optional<StudyEntry> find_study(const std::string& id) {
  for (const StudyEntry& s : list_studies())
    if (s.id == id) return s;
  return std::nullopt;
}

}  // namespace fabric
