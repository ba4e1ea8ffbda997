// Issue 52: a key is given one way and by one name. A renamed key's old
// name works wherever a key is taken (--set, files, --sweep, --explain) with
// a note; old and new names together, a key swept by two --sweep, or set by
// --set and swept, are refused naming both. An included file that is no INI
// file is refused without showing a line of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "config/config.h"
#include "config/set_and_swept.h"
#include "config/sweep_spec.h"
#include "platforms/app/command_line.h"
#include "platforms/app/explain.h"
#include "platforms/app/parameters.h"
#include "platforms/app/sweep_points.h"
#include "tests/support/config_error_of.h"
#include "tests/support/temp_file.h"

namespace fabric::config {
namespace {

using fabric::testing::config_error_of;

constexpr const char* kOld = "leaf.coalesce_control";
constexpr const char* kNew = "leaf.control.merge_queued";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct IniFile : fabric::testing::TempFile {
  IniFile(const std::string& name, const std::string& content)
      : fabric::testing::TempFile("given_once_test", name, content) {}
};

class KeyGivenOnce : public ::testing::Test {
 protected:
  // fabricsim --points with `cl`: exit status, and stderr in err_.
  int points(CommandLine cl) {
    cl.points = true;
    std::ostringstream out;
    err_.str("");
    return list_sweep_points(cl, registry_, out, err_);
  }
  ParamRegistry registry_ = build_registry();
  std::ostringstream err_;
};

TEST_F(KeyGivenOnce, OldAndNewNameTogetherAreRefusedNamingBoth) {
  Config by_set(registry_);
  by_set.set_assignment(std::string(kOld) + "=false");
  const ConfigError both = config_error_of([&] { by_set.set_assignment(std::string(kNew) + "=true"); });
  EXPECT_TRUE(contains(both.what(), kOld) && contains(both.what(), kNew)) << both.what();
  // A file by the old name, --set by the new one.
  const IniFile old_file("old.ini", std::string("[leaf]\ncoalesce_control = false\n"));
  Config by_file(registry_);
  by_file.load_ini(old_file.path());
  const ConfigError mixed = config_error_of([&] { by_file.set_assignment(std::string(kNew) + "=true"); });
  EXPECT_TRUE(contains(mixed.allowed, old_file.path() + ":2")) << mixed.what();
  // One name twice is an override, as for any key.
  Config twice(registry_);
  twice.set_assignment(std::string(kOld) + "=false");
  twice.set_assignment(std::string(kOld) + "=true");
  EXPECT_TRUE(twice.get_bool(kNew));
  EXPECT_EQ(twice.renamed_keys_used().size(), 1u);
}

TEST_F(KeyGivenOnce, TheSweepTakesTheOldNameWithANote) {
  const SweepSpec spec = SweepSpec::parse({{kOld, "true,false", "--sweep"}}, registry_);
  ASSERT_EQ(spec.dimension_keys(0), std::vector<std::string>{kNew});
  ASSERT_EQ(spec.renamed_keys_used().size(), 1u);
  EXPECT_TRUE(contains(spec.renamed_keys_used()[0], kNew));
  const ConfigError both = config_error_of([&] {
    SweepSpec::parse({{kNew, "true,false", "x.ini:3"}, {kOld, "true", "--sweep"}}, registry_);
  });
  EXPECT_TRUE(contains(both.what(), kOld) && contains(both.allowed, kNew)) << both.what();
}

TEST_F(KeyGivenOnce, ExplainTakesTheOldNameWithANote) {
  Config config(registry_);
  std::ostringstream out, notes;
  fabric::explain_key(config, registry_, kOld, out, notes);
  EXPECT_EQ(out.str().rfind(std::string(kNew) + " = true", 0), 0u) << out.str();
  EXPECT_TRUE(contains(notes.str(), "is now '" + std::string(kNew) + "'")) << notes.str();
}

TEST_F(KeyGivenOnce, AKeySweptTwiceOnTheCommandLineIsRefused) {
  CommandLine cl;
  cl.study = "E11";
  cl.sweeps = {"leaf.cache.entries=4,8", "leaf.cache.entries=16"};
  EXPECT_EQ(points(cl), 2);
  EXPECT_TRUE(contains(err_.str(), "--sweep leaf.cache.entries=4,8")) << err_.str();
  EXPECT_TRUE(contains(err_.str(), "'16'")) << err_.str();
  // The old name against the new one.
  cl.sweeps = {std::string(kOld) + "=true,false", std::string(kNew) + "=false"};
  EXPECT_EQ(points(cl), 2);
  EXPECT_TRUE(contains(err_.str(), kOld) && contains(err_.str(), kNew)) << err_.str();
}

TEST_F(KeyGivenOnce, AKeySetAndSweptIsRefusedNamingBothOptions) {
  CommandLine cl;
  cl.study = "E11";
  cl.sets = {"leaf.cache.entries=16"};
  cl.sweeps = {"leaf.cache.entries=4,8"};
  EXPECT_EQ(points(cl), 2);
  EXPECT_TRUE(contains(err_.str(), "--set leaf.cache.entries=16")) << err_.str();
  EXPECT_TRUE(contains(err_.str(), "--vary")) << err_.str();  // how a search's user reads it
  const std::string said = err_.str();
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  cl.sets = {std::string(kOld) + "=false"};
  cl.sweeps = {std::string(kNew) + "=true,false"};
  EXPECT_EQ(points(cl), 2);
  EXPECT_TRUE(contains(err_.str(), kOld) && contains(err_.str(), kNew)) << err_.str();
  // The study's own [sweep] (E2a sweeps leaf.cache.entries) against --set ...
  cl.study = "E2a";
  cl.sets = {"leaf.cache.entries=16"};
  cl.sweeps = {};
  EXPECT_EQ(points(cl), 2);
  EXPECT_TRUE(contains(err_.str(), "inherit=false")) << err_.str();
  // ... unless the sweep drops it (as fabricsim-search does); and --sweep
  // replaces a study's values of a key, as documented.
  cl.sweeps = {"inherit=false"};
  EXPECT_EQ(points(cl), 0) << err_.str();
  cl.sets = {};
  cl.sweeps = {"leaf.cache.entries=32,64"};
  EXPECT_EQ(points(cl), 0) << err_.str();
}

TEST_F(KeyGivenOnce, AnIncludedFileThatIsNoIniFileIsNotShown) {
  const IniFile passwd("passwd", "root:x:0:0:secret-one:/root:/bin/bash\n");
  const IniFile env("env", "# tokens\nAPI_TOKEN = secret-two\n");
  for (const IniFile* included : {&passwd, &env}) {
    const IniFile study("study.ini", "# a study\ninclude = " + included->path() + "\n");
    Config config(registry_);
    const ConfigError error = config_error_of([&] { config.load_ini(study.path()); });
    EXPECT_EQ(error.key, "include");
    EXPECT_EQ(error.origin, study.path() + ":2");
    EXPECT_FALSE(contains(error.what(), "secret")) << error.what();
    EXPECT_TRUE(contains(error.what(), included->path())) << error.what();
  }
  // A base study with a typo still says which key.
  const IniFile base("base.ini", "[leaf]\ncache.entires = 16\n");
  const IniFile variant("variant.ini", "include = " + base.path() + "\n");
  Config config(registry_);
  const ConfigError typo = config_error_of([&] { config.load_ini(variant.path()); });
  EXPECT_TRUE(contains(typo.allowed, "did you mean 'leaf.cache.entries'")) << typo.what();
}

}  // namespace
}  // namespace fabric::config
