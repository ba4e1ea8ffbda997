// What a configuration error says: the key, the value (shortened), the range
// in a notation the parser accepts, and the file and line of a value given
// in a file; and that every bound --list-params prints is accepted back.
#include <gtest/gtest.h>

#include <sstream>

#include "config/config.h"
#include "config/param_listing.h"
#include "platforms/app/parameters.h"
#include "tests/support/config_error_of.h"
#include "tests/support/temp_file.h"

namespace fabric::config {
namespace {

using fabric::testing::config_error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct IniFile : fabric::testing::TempFile {
  IniFile(const std::string& name, const std::string& content)
      : fabric::testing::TempFile("messages_test", name, content) {}
};

class ConfigMessages : public ::testing::Test {
 protected:
  ParamRegistry registry_ = build_registry();
  Config config_{registry_};
};

TEST_F(ConfigMessages, AnIntegerTooLargeFor64BitsNamesTheRange) {
  const ConfigError seed = config_error_of([&] { config_.set("sim.seed", "99999999999999999999999"); });
  EXPECT_EQ(seed.allowed, "an integer; range 0 .. 9200000000000000000");
  const ConfigError frames = config_error_of([&] { config_.set("flow.f.frames", "99999999999999999999999"); });
  EXPECT_EQ(frames.allowed, "an integer; range 0 .. 9223372036854775807");
  const ConfigError time = config_error_of([&] { config_.set("sim.time", "99999999999999999999999ns"); });
  EXPECT_TRUE(contains(time.allowed, "range 1 .. 10000000000000000 ps")) << time.allowed;
  const ConfigError list =
      config_error_of([&] { config_.set("classes.lossless_priorities", "1,99999999999999999999"); });
  EXPECT_TRUE(contains(list.allowed, "each element 0 .. 7")) << list.allowed;
}

TEST_F(ConfigMessages, LongValuesAreShortened) {
  const std::string huge(10'000'000, '7');
  const ConfigError error = config_error_of([&] { config_.set("leaf.cache.entries", huge); });
  EXPECT_EQ(error.value.size(), huge.size());  // kept whole for the caller
  const std::string message = error.what();
  EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
  EXPECT_TRUE(contains(message, std::string(80, '7') + "... (10000000 characters)")) << message.substr(0, 400);
}

TEST_F(ConfigMessages, ControlBytesAreEscaped) {
  const ConfigError error = config_error_of([&] { config_.set("leaf.cache.entries", std::string("1\n\x01\xff", 4)); });
  EXPECT_TRUE(contains(error.what(), "'1\\x0a\\x01\\xff'")) << error.what();
}

TEST_F(ConfigMessages, UnknownKeyInAFileSaysFileAndLine) {
  const IniFile ini("unknown.ini", "[topology]\nracks = 1\nleavs = 2\n");
  const ConfigError error = config_error_of([&] { config_.load_ini(ini.path()); });
  EXPECT_EQ(error.key, "topology.leavs");
  EXPECT_EQ(error.origin, ini.path() + ":3");
  EXPECT_EQ(std::string(error.what()).rfind("configuration error: " + ini.path() + ":3: key 'topology.leavs'", 0), 0u)
      << error.what();
}

TEST_F(ConfigMessages, BadValueInAnIncludedFileSaysThatFilesLine) {
  const IniFile base("base.ini", "# base\n[leaf]\ncache.entries = 0\n");
  const IniFile variant("variant.ini", "include = " + base.path() + "\n");
  const ConfigError error = config_error_of([&] { config_.load_ini(variant.path()); });
  EXPECT_EQ(error.origin, base.path() + ":3");
}

TEST_F(ConfigMessages, AMissingIncludeIsNamedByTheIncludeLine) {
  const IniFile variant("missing_include.ini", "# variant\ninclude = no_such_base.ini\n");
  const ConfigError error = config_error_of([&] { config_.load_ini(variant.path()); });
  EXPECT_EQ(error.key, "include");
  EXPECT_EQ(error.origin, variant.path() + ":2");
}

TEST_F(ConfigMessages, AByteOrderMarkIsNoPartOfTheFirstLine) {
  const IniFile ini("bom.ini", "\xef\xbb\xbf[leaf]\ncache.entries = 5\n");
  config_.load_ini(ini.path());
  EXPECT_EQ(config_.get_int("leaf.cache.entries"), 5);
}

TEST_F(ConfigMessages, ErrorsFoundWhenAValueIsUsedSayWhereItWasGiven) {
  const IniFile ini("used.ini", "[flow.x]\nsrc = 0\nstart = 2us\nstop = 1us\n");
  config_.load_ini(ini.path());
  const ConfigError failed = config_error_of([&] { config_.fail("flow.x.stop", "a time after flow.x.start"); });
  EXPECT_EQ(failed.origin, ini.path() + ":4");
  EXPECT_EQ(config_error_of([&] { config_.check_all_used(); }).origin, ini.path() + ":2");  // nothing read src
  // An error raised without the Config (a model's own check) is located by it.
  const ConfigError located = config_.locate(ConfigError("flow.x.src", "0", "a port"));
  EXPECT_EQ(located.origin, ini.path() + ":2");
  // A --set override refused, or accepted, is not where the file said.
  const ConfigError refused = config_error_of([&] { config_.set("flow.x.src", "-1"); });
  EXPECT_EQ(config_.locate(refused).origin, "");
  config_.set("flow.x.src", "1");
  EXPECT_EQ(config_.locate(ConfigError("flow.x.src", "1", "a port")).origin, "");
}

// --list-params: every bound in the ALLOWED column (of the listing for
// programs, one line per key), typed back in as the value of its key, is
// accepted.
TEST_F(ConfigMessages, EveryPrintedBoundIsAccepted) {
  std::istringstream table(list_params_tsv(registry_, ""));
  size_t bounds = 0;
  std::string heading;
  std::getline(table, heading);
  ASSERT_EQ(heading, "PLATFORM\tKEY\tTYPE\tDEFAULT\tUNIT\tALLOWED\tDESCRIPTION");
  for (std::string line; std::getline(table, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 7u) << line;
    const std::string key = cells[1];
    const std::string allowed = cells[5];
    const ParamSpec* spec = registry_.find(key);
    ASSERT_NE(spec, nullptr) << key;
    if (spec->type == ParamType::text || spec->type == ParamType::choice || spec->type == ParamType::boolean) continue;
    std::string unit;  // "ps", "B", "Gb/s": part of the bound; "(MHz)": a note
    std::istringstream words(allowed);
    std::vector<std::string> numbers;
    for (std::string word; words >> word;) {
      if (word == ".." || word == ">=" || word == "<=" || word == "any" || word == "or" || word.front() == '(')
        continue;
      if (word == "auto,") {  // a derived key: "auto, or RANGE"
        Config config(registry_);
        EXPECT_NO_THROW(config.set(key, "auto")) << key;
        continue;
      }
      if (word == "ps" || word == "B" || word == "Gb/s") {
        unit = word;
        continue;
      }
      numbers.push_back(word);
    }
    for (const std::string& number : numbers) {
      const std::string value = number + unit;
      std::string concrete = key;  // a pattern's instance x: flow.x.src, job.x.bytes
      if (spec->is_pattern()) concrete.replace(concrete.find('*'), 1, "x");
      Config config(registry_);
      EXPECT_NO_THROW(config.set(concrete, value)) << key << " = " << value << " (ALLOWED " << allowed << ")";
      ++bounds;
    }
  }
  EXPECT_GT(bounds, 150u);
}

}  // namespace
}  // namespace fabric::config
