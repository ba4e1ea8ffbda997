#pragma once
// The studies shipped in platforms/studies/ (or in the folder
// FABRICSIM_STUDY_DIR names): one INI file per study id, whose first
// comment line is its title; its platform is its key `platform`, as a run
// of it reads it.
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

// Both throw config::ConfigError naming FABRICSIM_STUDY_DIR when it is set
// (not empty) to anything but a folder.
std::vector<StudyEntry> list_studies();
std::optional<StudyEntry> find_study(const std::string& id);
// A study's file, reading no study (a sweep resolves one at every point).
std::optional<std::string> find_study_file(const std::string& id);
// Where the studies come from, for messages: "the shipped studies" or
// "FABRICSIM_STUDY_DIR=/my/studies".
std::string study_folder_text();
constexpr const char* kStudyDirVariable = "FABRICSIM_STUDY_DIR";
// Its value when it is set (an empty value is unset).
std::optional<std::string> study_dir_variable();
constexpr const char* kDefaultStudy = "E11";

}  // namespace fabric
