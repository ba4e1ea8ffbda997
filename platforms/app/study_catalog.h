#pragma once
// The studies shipped in platforms/studies/: one INI file per study id,
// whose first comment line is its title; its platform is its key
// `platform`, as a run of it reads it.
#include <optional>
#include <string>
#include <vector>

namespace fabric {

struct StudyEntry {
  std::string id;
  std::string title;
  std::string path;
  std::string platform;
};

std::vector<StudyEntry> list_studies();
std::optional<StudyEntry> find_study(const std::string& id);
constexpr const char* kDefaultStudy = "E11";

}  // namespace fabric
