#include "platforms/app/study_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "config/config.h"
#include "config/split.h"
#include "platforms/app/parameters.h"

namespace fabric {

namespace fs = std::filesystem;

namespace {

fs::path study_dir() {
  const std::optional<std::string> given = study_dir_variable();
  if (!given) return FABRICSIM_STUDY_DIR;
  std::error_code ec;
  if (!fs::is_directory(*given, ec))
    throw config::ConfigError(
        kStudyDirVariable, *given,
        std::string("a folder of study files (ID.ini); unset, the shipped studies in ") + FABRICSIM_STUDY_DIR);
  return *given;
}

// The study files in the folder, by id.
std::vector<std::pair<std::string, fs::path>> study_files() {
  std::vector<std::pair<std::string, fs::path>> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(study_dir(), ec))
    if (entry.path().extension() == ".ini") files.emplace_back(entry.path().stem().string(), entry.path());
  std::sort(files.begin(), files.end());
  return files;
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
  for (const auto& [id, path] : study_files())
    studies.push_back({id, title_of(path), path.string(), platform_of(path, registry)});
  return studies;
}

std::optional<StudyEntry> find_study(const std::string& id) {
  const std::optional<std::string> path = find_study_file(id);
  if (!path) return std::nullopt;
  return StudyEntry{id, title_of(*path), *path, platform_of(*path, build_registry())};
}

std::optional<std::string> find_study_file(const std::string& id) {
  for (const auto& [file_id, path] : study_files())
    if (file_id == id) return path.string();
  return std::nullopt;
}

std::optional<std::string> study_dir_variable() {
  const char* env = std::getenv(kStudyDirVariable);
  if (!env || !*env) return std::nullopt;
  return std::string(env);
}

std::string study_folder_text() {
  const std::optional<std::string> given = study_dir_variable();
  return given ? std::string(kStudyDirVariable) + "=" + *given : std::string("the shipped studies");
}

}  // namespace fabric
