#include "platforms/app/study_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fabric {

namespace fs = std::filesystem;

namespace {

fs::path study_dir() {
  if (const char* env = std::getenv("FABRICSIM_STUDY_DIR")) return env;
  return FABRICSIM_STUDY_DIR;
}

std::string trimmed(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The title (the first comment line) and the platform key before any
// section, or else of the file it includes.
StudyEntry read_entry(const fs::path& path, int depth = 0) {
  StudyEntry e{path.stem().string(), "", path.string(), "fabric"};
  std::ifstream in(path);
  std::string line;
  bool titled = false;
  bool in_section = false;
  bool platform_given = false;
  while (std::getline(in, line)) {
    const std::string t = trimmed(line);
    if (t.rfind("#", 0) == 0) {
      if (!titled) e.title = t.substr(std::min(t.size(), t.find_first_not_of("# ")));
      titled = true;
    } else if (t.rfind("[", 0) == 0) {
      in_section = true;
    } else if (!in_section && t.rfind("platform", 0) == 0 && t.find('=') != std::string::npos &&
               trimmed(t.substr(0, t.find('='))) == "platform") {
      e.platform = trimmed(t.substr(t.find('=') + 1));
      platform_given = true;
    } else if (!in_section && !platform_given && depth < 8 && t.rfind("include", 0) == 0 &&
               t.find('=') != std::string::npos && trimmed(t.substr(0, t.find('='))) == "include") {
      e.platform = read_entry(path.parent_path() / trimmed(t.substr(t.find('=') + 1)), depth + 1).platform;
    }
  }
  return e;
}

}  // namespace

std::vector<StudyEntry> list_studies() {
  std::vector<StudyEntry> studies;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(study_dir(), ec)) {
    if (entry.path().extension() != ".ini") continue;
    studies.push_back(read_entry(entry.path()));
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
