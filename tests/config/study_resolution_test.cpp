// Issue 52 (D3, D16): a sweep over seeds is validated once per resolution,
// not once per seed; FABRICSIM_STUDY_DIR is honoured or refused, never
// ignored; a broken [sweep] section is refused by a plain run too; and each
// bound --list-params prints, with a study's defaults, is accepted or
// refused naming the key given.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config.h"
#include "config/sweep_spec.h"
#include "platforms/app/command_line.h"
#include "platforms/app/parameters.h"
#include "platforms/app/refusal_cause.h"
#include "platforms/app/run_resolution.h"
#include "platforms/app/study_catalog.h"
#include "platforms/app/sweep_validation.h"
#include "tests/support/config_error_of.h"
#include "tests/support/temp_file.h"

namespace fabric {
namespace {

using fabric::testing::config_error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The number of points resolved to validate `cl`'s sweep.
uint64_t resolutions(const CommandLine& cl, const config::ParamRegistry& registry) {
  config::Config base(registry);
  resolve(cl, base);
  std::vector<config::SweepLine> lines = base.sweep_lines();
  for (const std::string& option : cl.sweeps) lines.push_back(config::parse_sweep_option(option));
  const config::SweepSpec spec = config::SweepSpec::parse(lines, registry);
  SweepValidation validation(cl, registry, spec);
  std::ostringstream err;
  EXPECT_EQ(validation.validate(err), 0) << err.str();
  return validation.resolved_points();
}

TEST(StudyResolution, SeedsAreValidatedOncePerResolution) {
  const config::ParamRegistry registry = build_registry();
  CommandLine cl;
  cl.study = "E2a";  // 16 points (4 x 4), each at 1000 seeds: 7,000 resolutions before
  cl.sweeps = {"seeds=1-1000"};
  EXPECT_LE(resolutions(cl, registry), 16u + 7u);  // the values and pairs at seed 1, and each value at seed 2
  // A random permutation draws its flows from the seed: then every seed is resolved.
  cl.study = "perm640";
  cl.sets = {"traffic.permutation=random"};
  cl.sweeps = {"seeds=1-5"};
  EXPECT_EQ(resolutions(cl, registry), 5u);
}

struct StudyDir {
  explicit StudyDir(const std::string& path) { ::setenv("FABRICSIM_STUDY_DIR", path.c_str(), 1); }
  ~StudyDir() { ::unsetenv("FABRICSIM_STUDY_DIR"); }
};

TEST(StudyResolution, TheStudyFolderVariableIsHonouredOrRefused) {
  const config::ParamRegistry registry = build_registry();
  const fabric::testing::TempFile base("study_dir", "base.ini", "# the base\n[sim]\ntime = 3us\n");
  const std::string folder = "/tmp/" + fabric::testing::TempFile::prefix("study_dir") + "folder";
  std::filesystem::create_directory(folder);
  std::ofstream(folder + "/Mine.ini") << "# mine\ninclude = ../" << fabric::testing::TempFile::prefix("study_dir")
                                      << "base.ini\n[topology]\nracks = 1\nleaves = 2\n";
  {
    const StudyDir dir(folder);
    ASSERT_EQ(list_studies().size(), 1u);
    EXPECT_EQ(list_studies()[0].title, "mine");
    CommandLine cl;
    cl.study = "Mine";
    config::Config config(registry);
    resolve(cl, config);
    EXPECT_EQ(config.resolved("sim.time").value, "3us");  // through its include
    // The default study (E11) is not there: the variable is named, not --study.
    const config::ConfigError missing = config_error_of([&] {
      config::Config other(registry);
      resolve(CommandLine{}, other);
    });
    EXPECT_EQ(missing.key, "FABRICSIM_STUDY_DIR");
  }
  {
    const StudyDir dir(folder + "/nowhere");
    const config::ConfigError error = config_error_of([] { list_studies(); });
    EXPECT_EQ(error.key, "FABRICSIM_STUDY_DIR");
    EXPECT_EQ(error.value, folder + "/nowhere");
  }
  std::filesystem::remove_all(folder);
}

TEST(StudyResolution, APlainRunRefusesABrokenSweepSection) {
  const config::ParamRegistry registry = build_registry();
  const fabric::testing::TempFile study("sweep_section", "broken.ini",
                                        "# broken\n[topology]\nracks = 1\nleaves = 2\n[sweep]\n"
                                        "leaf.cache.entries = 16, 16\n");
  CommandLine cl;
  cl.configs = {study.path()};
  config::Config config(registry);
  const config::ConfigError error = config_error_of([&] { resolve(cl, config); });
  EXPECT_EQ(error.key, "leaf.cache.entries");
  EXPECT_EQ(error.origin, study.path() + ":6");
}

TEST(StudyResolution, ARefusalCausedByAKeySetNamesIt) {
  const config::ParamRegistry registry = build_registry();
  CommandLine cl;
  cl.study = "E11";
  cl.sets = {"leaf.packet_bytes=4096"};  // the printed maximum (64 .. 4096)
  config::Config config(registry);
  const config::ConfigError error = config_error_of([&] { resolve(cl, config); });
  EXPECT_EQ(error.key, "leaf.ingress.lossless_pool");
  const std::string told = with_its_cause(cl, error).what();
  EXPECT_TRUE(contains(told, "the cause is --set leaf.packet_bytes=4096")) << told;
  // A refusal of the key set is told as it is.
  cl.sets = {"leaf.sync.slow=100000"};
  config::Config other(registry);
  const config::ConfigError own = config_error_of([&] { resolve(cl, other); });
  EXPECT_EQ(std::string(with_its_cause(cl, own).what()), own.what());
}

}  // namespace
}  // namespace fabric
