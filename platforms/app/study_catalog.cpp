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

std::string title_of(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) {
      const size_t start = line.find_first_not_of("# ");
      return start == std::string::npos ? "" : line.substr(start);
    }
  }
  return "";
}

}  // namespace

std::vector<StudyEntry> list_studies() {
  std::vector<StudyEntry> studies;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(study_dir(), ec)) {
    if (entry.path().extension() != ".ini") continue;
    studies.push_back({entry.path().stem().string(), title_of(entry.path()), entry.path().string()});
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
