// Tests for the configuration API: value parsers, declared ranges, wildcard
// keys, INI loading and the reports built from a resolved Config.
#include "config/config.h"
#include "config/param_listing.h"
#include "tests/support/config_error_of.h"
#include "tests/support/temp_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <vector>

namespace fabric::config {
namespace {

using fabric::testing::config_error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A file under /tmp, removed when the test ends.
struct TempFile : fabric::testing::TempFile {
  TempFile(const std::string& name, const std::string& content)
      : fabric::testing::TempFile("config_test", name, content) {}
};

ParamSpec spec(std::string key, ParamType type, std::string default_value, std::string unit = "",
               double min = -std::numeric_limits<double>::infinity(),
               double max = std::numeric_limits<double>::infinity()) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = type;
  s.default_value = std::move(default_value);
  s.unit = std::move(unit);
  s.description = "test parameter";
  s.min = min;
  s.max = max;
  return s;
}

std::string any_name(const std::string&, const std::string& text) { return text; }

// A small fabric-like registry used by most tests.
ParamRegistry test_registry() {
  ParamRegistry registry;
  registry.declare(spec("leaf.clock_mhz", ParamType::integer, "500", "MHz", 1, 10000));
  registry.declare(spec("leaf.buffer", ParamType::bytes, "185KB", "B", 0, 1 << 30));
  registry.declare(spec("leaf.latency", ParamType::duration, "150ns", "ps", 0, 1e12));
  registry.declare(spec("leaf.ports", ParamType::int_list, "", "", 0, 63));
  registry.declare(spec("leaf.red_probability", ParamType::real, "0.5", "", 0, 1));
  registry.declare(spec("link.rate", ParamType::rate, "100G", "Gb/s", 1, 800));
  registry.declare(spec("link.fec", ParamType::boolean, "on"));
  registry.declare(text_param("run.name", "", "", "test parameter", syntax_of<any_name>("any text")));
  registry.declare(spec("run.seed", ParamType::integer, ""));
  ParamSpec policy = spec("leaf.policy", ParamType::choice, "rr");
  policy.choices = {"rr", "wrr", "strict"};
  registry.declare(policy);
  registry.declare(spec("flow.*.src", ParamType::integer, "0", "", 0, 1000));
  registry.declare(spec("flow.*.rate", ParamType::rate, "10G", "Gb/s", 0, 800));
  return registry;
}

class ConfigTest : public ::testing::Test {
 protected:
  ParamRegistry registry_ = test_registry();
  Config config_{registry_};
};

// ---- parsers ----------------------------------------------------------------

TEST(ConfigParsers, DurationUnits) {
  EXPECT_EQ(parse_duration("k", "0"), 0);
  EXPECT_EQ(parse_duration("k", "1234"), 1234);
  EXPECT_EQ(parse_duration("k", "7ps"), 7);
  EXPECT_EQ(parse_duration("k", "150ns"), 150'000);
  EXPECT_EQ(parse_duration("k", "3us"), 3'000'000);
  EXPECT_EQ(parse_duration("k", "2.5us"), 2'500'000);
  EXPECT_EQ(parse_duration("k", "2ms"), 2'000'000'000);
  EXPECT_EQ(parse_duration("k", "1s"), 1'000'000'000'000);
  EXPECT_EQ(parse_duration("k", " 4 ns "), 4'000);
}

TEST(ConfigParsers, DurationRoundsToNearestPicosecond) {
  EXPECT_EQ(parse_duration("k", "0.1ns"), 100);
  EXPECT_EQ(parse_duration("k", "1.6ps"), 2);
  EXPECT_EQ(parse_duration("k", "1.4ps"), 1);
}

TEST(ConfigParsers, DurationMalformed) {
  for (const char* text : {"", "ns", "5 parsecs", "1.5", "3 u s", "inf", "nan", "0x10", "1e400s"}) {
    const ConfigError error = config_error_of([&] { parse_duration("leaf.latency", text); });
    EXPECT_EQ(error.key, "leaf.latency") << text;
    EXPECT_EQ(error.value, text);
    EXPECT_EQ(error.allowed, "a duration such as 150ns, 3us, 2ms");
  }
}

TEST(ConfigParsers, DurationOverflowIsMalformed) {
  EXPECT_THROW(parse_duration("k", "10000000s"), ConfigError);  // > 2^63 ps
  EXPECT_EQ(parse_duration("k", "9223372036854775807"), std::numeric_limits<int64_t>::max());
}

TEST(ConfigParsers, Bytes) {
  EXPECT_EQ(parse_bytes("k", "1500"), 1500);
  EXPECT_EQ(parse_bytes("k", "64B"), 64);
  EXPECT_EQ(parse_bytes("k", "185KB"), 189'440);
  EXPECT_EQ(parse_bytes("k", "1.5KB"), 1536);
  EXPECT_EQ(parse_bytes("k", "2MB"), 2 * 1024 * 1024);
  EXPECT_EQ(parse_bytes("k", "1GB"), int64_t(1) << 30);
}

TEST(ConfigParsers, BytesMalformed) {
  for (const char* text : {"", "KB", "12x", "1.5", "3kib", "1TB"}) {
    const ConfigError error = config_error_of([&] { parse_bytes("leaf.buffer", text); });
    EXPECT_EQ(error.key, "leaf.buffer") << text;
    EXPECT_TRUE(contains(error.allowed, "64KB")) << error.allowed;
  }
}

TEST(ConfigParsers, Rate) {
  EXPECT_DOUBLE_EQ(parse_rate_gbps("k", "100"), 100.0);
  EXPECT_DOUBLE_EQ(parse_rate_gbps("k", "99G"), 99.0);
  EXPECT_DOUBLE_EQ(parse_rate_gbps("k", "25Gbps"), 25.0);
  EXPECT_DOUBLE_EQ(parse_rate_gbps("k", "12.5Gb/s"), 12.5);
  EXPECT_DOUBLE_EQ(parse_rate_gbps("k", "10Mbps"), 0.01);
  EXPECT_DOUBLE_EQ(parse_rate_gbps("k", "400M"), 0.4);
}

TEST(ConfigParsers, RateMalformed) {
  for (const char* text : {"", "fast", "10Kbps", "G", "inf"}) {
    const ConfigError error = config_error_of([&] { parse_rate_gbps("link.rate", text); });
    EXPECT_EQ(error.key, "link.rate") << text;
    EXPECT_TRUE(contains(error.allowed, "Gb/s")) << error.allowed;
  }
}

TEST(ConfigParsers, Integer) {
  EXPECT_EQ(parse_integer("k", "42"), 42);
  EXPECT_EQ(parse_integer("k", "-7"), -7);
  EXPECT_EQ(parse_integer("k", " 12 "), 12);
  EXPECT_EQ(parse_integer("k", "9223372036854775807"), std::numeric_limits<int64_t>::max());
}

TEST(ConfigParsers, IntegerMalformed) {
  for (const char* text : {"", "12x", "1.5", "0x10", "ten", "9223372036854775808"}) {
    const ConfigError error = config_error_of([&] { parse_integer("leaf.clock_mhz", text); });
    EXPECT_EQ(error.value, text);
    EXPECT_EQ(error.allowed, "an integer");
  }
}

TEST(ConfigParsers, Real) {
  EXPECT_DOUBLE_EQ(parse_real("k", "0.5"), 0.5);
  EXPECT_DOUBLE_EQ(parse_real("k", "-2"), -2.0);
  EXPECT_DOUBLE_EQ(parse_real("k", "1e-3"), 0.001);
  for (const char* text : {"", "0.5x", "nan", "inf", "-infinity", "1e999"}) {
    const ConfigError error = config_error_of([&] { parse_real("k", text); });
    EXPECT_EQ(error.value, text);
    EXPECT_EQ(error.allowed, "a finite real number");
  }
}

TEST(ConfigParsers, Bool) {
  for (const char* text : {"true", "on", "1", "yes", "TRUE", " On "}) EXPECT_TRUE(parse_bool("k", text)) << text;
  for (const char* text : {"false", "off", "0", "no", "No"}) EXPECT_FALSE(parse_bool("k", text)) << text;
  const ConfigError error = config_error_of([] { parse_bool("link.fec", "maybe"); });
  EXPECT_EQ(error.value, "maybe");
  EXPECT_TRUE(contains(error.allowed, "true/false")) << error.allowed;
}

TEST(ConfigParsers, IntList) {
  EXPECT_EQ(parse_int_list("k", ""), std::vector<int64_t>{});
  EXPECT_EQ(parse_int_list("k", "  "), std::vector<int64_t>{});
  EXPECT_EQ(parse_int_list("k", "7"), std::vector<int64_t>{7});
  EXPECT_EQ(parse_int_list("k", "1,3,5-8"), (std::vector<int64_t>{1, 3, 5, 6, 7, 8}));
  EXPECT_EQ(parse_int_list("k", " 1 , 4 - 5 "), (std::vector<int64_t>{1, 4, 5}));
  EXPECT_EQ(parse_int_list("k", "2-2"), std::vector<int64_t>{2});
  EXPECT_EQ(parse_int_list("k", "-3--1"), (std::vector<int64_t>{-3, -2, -1}));
}

TEST(ConfigParsers, IntListMalformed) {
  for (const char* text : {"1,,2", "1,", "a", "5-3", "1-", "-", "1-2-3", "1.5"}) {
    const ConfigError error = config_error_of([&] { parse_int_list("leaf.ports", text); });
    EXPECT_EQ(error.value, text);
    EXPECT_TRUE(contains(error.allowed, "1,3,5-8")) << text << ": " << error.allowed;
  }
}

TEST(ConfigParsers, IntListHugeRangeRejectedBeforeExpanding) {
  const ConfigError error = config_error_of([] { parse_int_list("k", "0-4000000000"); });
  EXPECT_TRUE(contains(error.allowed, "at most")) << error.allowed;
}

// ---- errors and registry ----------------------------------------------------

TEST(ConfigErrorMessage, NamesKeyValueAndAllowed) {
  const ConfigError error("leaf.clock_mhz", "-3", "1 .. 10000 (MHz)");
  EXPECT_STREQ(error.what(), "configuration error: key 'leaf.clock_mhz' has value '-3'; allowed: 1 .. 10000 (MHz)");
  EXPECT_EQ(error.key, "leaf.clock_mhz");
  EXPECT_EQ(error.value, "-3");
  EXPECT_EQ(error.allowed, "1 .. 10000 (MHz)");
}

TEST(ConfigRegistry, TypeNames) {
  EXPECT_STREQ(to_string(ParamType::integer), "integer");
  EXPECT_STREQ(to_string(ParamType::duration), "duration");
  EXPECT_STREQ(to_string(ParamType::int_list), "int_list");
  EXPECT_STREQ(to_string(ParamType::choice), "choice");
}

TEST(ConfigRegistry, DeclarationMistakesAreLogicErrors) {
  ParamRegistry registry;
  registry.declare(spec("a.b", ParamType::integer, "1"));
  EXPECT_THROW(registry.declare(spec("a.b", ParamType::real, "1")), std::logic_error);
  EXPECT_THROW(registry.declare(spec("x.*.*", ParamType::integer, "1")), std::logic_error);
  EXPECT_THROW(registry.declare(spec("x.f*.y", ParamType::integer, "1")), std::logic_error);
  EXPECT_THROW(registry.declare(spec("x.bad_default", ParamType::integer, "5", "", 0, 3)), std::logic_error);
  EXPECT_THROW(registry.declare(spec("x.choice", ParamType::choice, "")), std::logic_error);
  // Text is parsed by the key's own parse function, never by hand elsewhere.
  EXPECT_THROW(registry.declare(spec("x.text", ParamType::text, "")), std::logic_error);
  EXPECT_EQ(registry.all().size(), 1u);
}

TEST(ConfigRegistry, FindPrefersExactOverWildcard) {
  ParamRegistry registry = test_registry();
  registry.declare(text_param("flow.default.src", "x", "", "test parameter", syntax_of<any_name>("any text")));
  ASSERT_NE(registry.find("flow.default.src"), nullptr);
  EXPECT_EQ(registry.find("flow.default.src")->type, ParamType::text);
  ASSERT_NE(registry.find("flow.f1.src"), nullptr);
  EXPECT_EQ(registry.find("flow.f1.src")->key, "flow.*.src");
  EXPECT_EQ(registry.find("flow.my-flow_2.src")->key, "flow.*.src");
}

TEST(ConfigRegistry, WildcardNeedsOneValidSegment) {
  const ParamRegistry registry = test_registry();
  EXPECT_EQ(registry.find("flow..src"), nullptr);
  EXPECT_EQ(registry.find("flow.a.b.src"), nullptr);
  EXPECT_EQ(registry.find("flow.f 1.src"), nullptr);
  EXPECT_EQ(registry.find("flow.f$.src"), nullptr);
  EXPECT_EQ(registry.find("flow.f1.dst"), nullptr);
}

TEST(ConfigRegistry, ListingIsSortedAndAligned) {
  const std::string table = list_params_text(test_registry(), "", 200);
  const size_t clock = table.find("\nleaf.clock_mhz");
  const size_t flow = table.find("\nflow.*.rate");
  const size_t seed = table.find("\nrun.seed");
  ASSERT_NE(clock, std::string::npos) << table;
  ASSERT_NE(flow, std::string::npos);
  ASSERT_NE(seed, std::string::npos);
  EXPECT_LT(flow, clock);
  EXPECT_LT(clock, seed);
  EXPECT_TRUE(contains(table, "1 .. 10000 (MHz)"));
  EXPECT_TRUE(contains(table, "one of: rr, wrr, strict"));
  // A heading, the header and 12 parameters, each its columns' line and its
  // description's below.
  EXPECT_EQ(table.rfind("# keys of every platform\n", 0), 0u) << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 1 + 2 + 12 * 2) << table;
  EXPECT_TRUE(contains(table, "\n    test parameter\n")) << table;
  // Aligned: the type column starts at the same offset on every line.
  const std::string clock_line = table.substr(clock + 1, table.find('\n', clock + 1) - clock - 1);
  const size_t header_at = table.find("\nKEY") + 1;
  const std::string header = table.substr(header_at, table.find('\n', header_at) - header_at);
  EXPECT_EQ(clock_line.find("integer"), header.find("TYPE")) << table;
}

// A platform's keys: marked as its own where declared, listed after the keys
// every platform reads under a heading of their own, refused in a run of
// another platform, and left out of that run's resolved configuration.
TEST(ConfigRegistry, PlatformKeysAreGroupedAndRefusedElsewhere) {
  ParamRegistry registry = test_registry();
  {
    ParamRegistry::OwnedKeys owned(registry, "ring");
    registry.declare(spec("ring.stations", ParamType::integer, "16", "", 2, 64));
  }
  registry.declare(spec("zz.shared", ParamType::integer, "1", "", 0, 9));
  EXPECT_EQ(registry.find("ring.stations")->platform, "ring");
  EXPECT_EQ(registry.find("zz.shared")->platform, "");
  const std::string table = list_params_text(registry, "", 100);
  const size_t heading = table.find("# platform ring (platform = ring)\n");
  ASSERT_NE(heading, std::string::npos) << table;
  EXPECT_LT(table.find("\nzz.shared"), heading) << table;
  EXPECT_GT(table.find("\nring.stations"), heading) << table;

  Config other(registry);
  other.set("ring.stations", "8");
  const ConfigError e = config_error_of([&] { other.select_platform("fabric"); });
  EXPECT_EQ(e.key, "ring.stations");
  EXPECT_EQ(e.allowed, "a key of platform 'ring', not of this run's platform 'fabric' (key 'platform')");

  Config fabric(registry);
  fabric.select_platform("fabric");
  EXPECT_EQ(fabric.resolved_text().find("ring.stations"), std::string::npos);
  EXPECT_NE(fabric.resolved_text().find("zz.shared = 1"), std::string::npos);
  Config ring(registry);
  ring.select_platform("ring");
  EXPECT_NE(ring.resolved_text().find("ring.stations = 16"), std::string::npos);
}

// ---- Config values ----------------------------------------------------------

TEST_F(ConfigTest, DefaultsAreParsed) {
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 500);
  EXPECT_EQ(config_.get_bytes("leaf.buffer"), 189'440);
  EXPECT_EQ(config_.get_duration("leaf.latency"), 150'000);
  EXPECT_DOUBLE_EQ(config_.get_real("leaf.red_probability"), 0.5);
  EXPECT_DOUBLE_EQ(config_.get_rate_gbps("link.rate"), 100.0);
  EXPECT_TRUE(config_.get_bool("link.fec"));
  EXPECT_EQ(config_.get_choice("leaf.policy"), "rr");
  EXPECT_EQ(config_.get_text("run.name"), "");
  EXPECT_TRUE(config_.get_int_list("leaf.ports").empty());
  EXPECT_FALSE(config_.is_set("leaf.clock_mhz"));
}

TEST_F(ConfigTest, SetValuesOverrideDefaults) {
  config_.set("leaf.clock_mhz", "1000");
  config_.set("leaf.latency", "2.5us");
  config_.set("leaf.ports", "0-3,8");
  config_.set("link.rate", "1200Mbps");
  config_.set("leaf.policy", "strict");
  config_.set("run.name", "smoke test");
  EXPECT_TRUE(config_.is_set("leaf.clock_mhz"));
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 1000);
  EXPECT_EQ(config_.get_duration("leaf.latency"), 2'500'000);
  EXPECT_EQ(config_.get_int_list("leaf.ports"), (std::vector<int64_t>{0, 1, 2, 3, 8}));
  EXPECT_DOUBLE_EQ(config_.get_rate_gbps("link.rate"), 1.2);
  EXPECT_EQ(config_.get_choice("leaf.policy"), "strict");
  EXPECT_EQ(config_.get_text("run.name"), "smoke test");
}

TEST_F(ConfigTest, EmptyNumericDefaultReadUnsetIsLogicError) {
  EXPECT_THROW(config_.get_int("run.seed"), std::logic_error);
  config_.set("run.seed", "17");
  EXPECT_EQ(config_.get_int("run.seed"), 17);
}

TEST_F(ConfigTest, UndeclaredOrWrongTypeReadIsLogicError) {
  EXPECT_THROW(config_.get_int("leaf.nothing"), std::logic_error);
  EXPECT_THROW(config_.get_real("leaf.clock_mhz"), std::logic_error);
  EXPECT_THROW(config_.get_text("leaf.policy"), std::logic_error);
  // A logic_error must not be mistaken for a user's ConfigError.
  try {
    config_.get_int("leaf.nothing");
  } catch (const ConfigError&) {
    FAIL() << "undeclared read reported as a ConfigError";
  } catch (const std::logic_error&) {
  }
}

TEST_F(ConfigTest, OutOfRangeNamesKeyValueAndRange) {
  const ConfigError error = config_error_of([&] { config_.set("leaf.clock_mhz", "-3"); });
  EXPECT_STREQ(error.what(), "configuration error: key 'leaf.clock_mhz' has value '-3'; allowed: 1 .. 10000 (MHz)");
  EXPECT_FALSE(config_.is_set("leaf.clock_mhz"));
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 500);
}

TEST_F(ConfigTest, RangesUseTheParsedUnit) {
  const ConfigError duration = config_error_of([&] { config_.set("leaf.latency", "2s"); });
  EXPECT_EQ(duration.allowed, "0 .. 1000000000000 ps");
  EXPECT_TRUE(contains(duration.what(), "'2s'"));
  const ConfigError bytes = config_error_of([&] { config_.set("leaf.buffer", "2GB"); });
  EXPECT_EQ(bytes.allowed, "0 .. 1073741824 B");
  const ConfigError rate = config_error_of([&] { config_.set("link.rate", "900G"); });
  EXPECT_EQ(rate.allowed, "1 .. 800 Gb/s");
  const ConfigError real = config_error_of([&] { config_.set("leaf.red_probability", "1.5"); });
  EXPECT_EQ(real.allowed, "0 .. 1");
  // Bounds themselves are allowed.
  config_.set("leaf.clock_mhz", "10000");
  config_.set("leaf.latency", "1s");
  EXPECT_EQ(config_.get_duration("leaf.latency"), 1'000'000'000'000);
}

TEST_F(ConfigTest, IntListElementsAreRangeChecked) {
  const ConfigError error = config_error_of([&] { config_.set("leaf.ports", "1,60-64"); });
  EXPECT_EQ(error.key, "leaf.ports");
  EXPECT_EQ(error.value, "1,60-64");
  EXPECT_EQ(error.allowed, "each element 0 .. 63");
}

TEST_F(ConfigTest, ChoiceMustBeDeclared) {
  const ConfigError error = config_error_of([&] { config_.set("leaf.policy", "random"); });
  EXPECT_EQ(error.allowed, "one of: rr, wrr, strict");
  EXPECT_TRUE(contains(error.what(), "'random'"));
}

TEST_F(ConfigTest, MalformedValueIsRejectedAtSet) {
  const ConfigError error = config_error_of([&] { config_.set("leaf.clock_mhz", "12x"); });
  EXPECT_EQ(error.key, "leaf.clock_mhz");
  EXPECT_EQ(error.allowed, "an integer; range 1 .. 10000 (MHz)");
}

TEST_F(ConfigTest, UnknownKeySuggestsNearestDeclared) {
  const ConfigError error = config_error_of([&] { config_.set("leaf.clok_mhz", "5"); });
  EXPECT_STREQ(error.what(),
               "configuration error: key 'leaf.clok_mhz' has value '5'; allowed: a declared key "
               "(see --list-params) -- did you mean 'leaf.clock_mhz'?");
}

TEST_F(ConfigTest, UnknownKeyWithoutCloseMatchHasNoSuggestion) {
  const ConfigError error = config_error_of([&] { config_.set("spine.count", "4"); });
  EXPECT_EQ(error.allowed, "a declared key (see --list-params)");
}

TEST_F(ConfigTest, UnknownWildcardKeySuggestsWithUsersInstanceName) {
  const ConfigError error = config_error_of([&] { config_.set("flow.bulk7.srcc", "1"); });
  EXPECT_TRUE(contains(error.allowed, "did you mean 'flow.bulk7.src'?")) << error.allowed;
}

TEST_F(ConfigTest, WildcardKeysAndInstances) {
  config_.set("flow.f2.rate", "25G");
  config_.set("flow.f1.src", "3");
  config_.set("flow.f1.rate", "10G");
  EXPECT_EQ(config_.get_int("flow.f1.src"), 3);
  EXPECT_EQ(config_.get_int("flow.f2.src"), 0);  // wildcard default
  EXPECT_DOUBLE_EQ(config_.get_rate_gbps("flow.f2.rate"), 25.0);
  EXPECT_EQ(config_.instances("flow"), (std::vector<std::string>{"f1", "f2"}));
  EXPECT_TRUE(config_.instances("leaf").empty());  // leaf.clock_mhz has no instance segment
  EXPECT_TRUE(config_.instances("flo").empty());
}

TEST_F(ConfigTest, WildcardRangeIsChecked) {
  const ConfigError error = config_error_of([&] { config_.set("flow.f1.src", "5000"); });
  EXPECT_EQ(error.key, "flow.f1.src");
  EXPECT_EQ(error.allowed, "0 .. 1000");
}

TEST_F(ConfigTest, WildcardPatternItselfCannotBeSet) {
  const ConfigError error = config_error_of([&] { config_.set("flow.*.src", "1"); });
  EXPECT_EQ(error.key, "flow.*.src");
  EXPECT_FALSE(config_.is_set("flow.*.src"));
}

TEST_F(ConfigTest, SetAssignment) {
  config_.set_assignment("leaf.clock_mhz=750");
  config_.set_assignment(" run.name = a=b ");
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 750);
  EXPECT_EQ(config_.get_text("run.name"), "a=b");  // split at the first '='
  const ConfigError error = config_error_of([&] { config_.set_assignment("leaf.clock_mhz"); });
  EXPECT_EQ(error.key, "--set");
  EXPECT_EQ(error.value, "leaf.clock_mhz");
  EXPECT_EQ(error.allowed, "KEY=VALUE");
}

TEST_F(ConfigTest, CheckAllUsedNamesUnreadKey) {
  config_.set("leaf.clock_mhz", "800");
  config_.set("link.fec", "off");
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 800);
  const ConfigError error = config_error_of([&] { config_.check_all_used(); });
  EXPECT_EQ(error.key, "link.fec");
  EXPECT_EQ(error.value, "off");
  EXPECT_TRUE(contains(error.allowed, "nothing read it"));
  EXPECT_FALSE(config_.get_bool("link.fec"));
  EXPECT_NO_THROW(config_.check_all_used());
}

TEST_F(ConfigTest, ResolvedTextListsDefaultsAndSetKeysSorted) {
  config_.set("leaf.clock_mhz", "800");
  config_.set("flow.f1.src", "4");
  const std::string text = config_.resolved_text();
  EXPECT_EQ(text.rfind("flow.f1.src = 4\n", 0), 0u) << text;  // first line
  EXPECT_TRUE(contains(text, "\nleaf.clock_mhz = 800\n"));
  EXPECT_TRUE(contains(text, "\nleaf.buffer = 185KB\n"));
  EXPECT_TRUE(contains(text, "\nrun.seed = \n"));
  EXPECT_FALSE(contains(text, "*"));
  // 10 non-wildcard declared keys plus one set wildcard instance.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 11);
  EXPECT_LT(text.find("leaf.buffer"), text.find("leaf.clock_mhz"));
}

TEST_F(ConfigTest, FailReportsCurrentValue) {
  config_.set("leaf.clock_mhz", "3");
  const ConfigError set_value = config_error_of([&] { config_.fail("leaf.clock_mhz", "a multiple of 4 MHz"); });
  EXPECT_STREQ(set_value.what(),
               "configuration error: key 'leaf.clock_mhz' has value '3'; allowed: a multiple of 4 MHz");
  const ConfigError default_value =
      config_error_of([&] { config_.fail("leaf.latency", "less than leaf.buffer allows"); });
  EXPECT_EQ(default_value.value, "150ns");
}

// ---- INI files --------------------------------------------------------------

TEST_F(ConfigTest, LoadIniCommentNeedsWhitespaceBeforeIt) {
  const TempFile ini("comments.ini",
                     "# whole-line comment\n"
                     "; another\n"
                     "[run]\n"
                     "name = tag#1;v2   ; trailing comment\n");
  config_.load_ini(ini.path());
  EXPECT_EQ(config_.get_text("run.name"), "tag#1;v2");
}

TEST_F(ConfigTest, LoadIniSectionAppliesToLaterLines) {
  const TempFile ini("sections.ini", "[leaf]\nclock_mhz = 900\n[flow]\nclock_mhz = 5\n");
  const ConfigError error = config_error_of([&] { config_.load_ini(ini.path()); });
  EXPECT_EQ(error.key, "flow.clock_mhz");
  EXPECT_EQ(error.value, "5");
  EXPECT_TRUE(contains(error.allowed, "a declared key")) << error.allowed;
}

TEST_F(ConfigTest, LoadIniIncludeLoadsTheBaseFirstThenOverrides) {
  const std::string prefix = fabric::testing::TempFile::prefix("config_test");
  const TempFile base("base.ini", "[leaf]\nclock_mhz = 900\nlatency = 2us\n");
  const TempFile variant("variant.ini", "include = " + prefix + "base.ini\n[leaf]\nclock_mhz = 1000\n");
  config_.load_ini(variant.path());
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 1000);
  EXPECT_EQ(config_.get_duration("leaf.latency"), 2'000'000);
}

TEST_F(ConfigTest, LoadIniIncludeLoopIsAnError) {
  const std::string prefix = fabric::testing::TempFile::prefix("config_test");
  const TempFile loop("loop.ini", "include = " + prefix + "loop.ini\n");
  const ConfigError error = config_error_of([&] { config_.load_ini(loop.path()); });
  EXPECT_EQ(error.key, "include");
  EXPECT_NE(error.allowed.find("nested"), std::string::npos);
}

TEST_F(ConfigTest, LoadIniValues) {
  const TempFile ini("values.ini",
                     "run.name = ini run   ; trailing comment\n"
                     "[leaf]\n"
                     "  clock_mhz = 1250  # MHz\n"
                     "ports = 1-2,9\r\n"
                     "[flow]\n"
                     "big1.src = 7\n"
                     "[leaf]\n"
                     "latency = 3us\n");
  config_.load_ini(ini.path());
  EXPECT_EQ(config_.get_text("run.name"), "ini run");
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 1250);
  EXPECT_EQ(config_.get_int_list("leaf.ports"), (std::vector<int64_t>{1, 2, 9}));
  EXPECT_EQ(config_.get_int("flow.big1.src"), 7);
  EXPECT_EQ(config_.get_duration("leaf.latency"), 3'000'000);
  EXPECT_EQ(config_.instances("flow"), std::vector<std::string>{"big1"});
}

TEST_F(ConfigTest, LaterValuesWin) {
  const TempFile ini("later.ini", "[leaf]\nclock_mhz = 100\nclock_mhz = 200\n");
  config_.load_ini(ini.path());
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 200);
  config_.set_assignment("leaf.clock_mhz=300");
  EXPECT_EQ(config_.get_int("leaf.clock_mhz"), 300);
}

TEST_F(ConfigTest, LoadIniLineWithoutEqualsNamesFileAndLine) {
  const TempFile ini("syntax.ini", "[leaf]\nclock_mhz = 100\nclock_mhz 200\n");
  const ConfigError error = config_error_of([&] { config_.load_ini(ini.path()); });
  EXPECT_EQ(error.key, "");
  EXPECT_EQ(error.origin, ini.path() + ":3");
  EXPECT_EQ(error.value, "clock_mhz 200");
  EXPECT_EQ(error.allowed, "section.key = value");
}

TEST_F(ConfigTest, LoadIniBadValueNamesKey) {
  const TempFile ini("range.ini", "[leaf]\nclock_mhz = -3\n");
  const ConfigError error = config_error_of([&] { config_.load_ini(ini.path()); });
  EXPECT_EQ(error.key, "leaf.clock_mhz");
  EXPECT_EQ(error.value, "-3");
  EXPECT_EQ(error.allowed, "1 .. 10000 (MHz)");
}

TEST_F(ConfigTest, LoadIniUnreadableFile) {
  const std::string missing = "/tmp/fabricsim_config_test_does_not_exist.ini";
  const ConfigError error = config_error_of([&] { config_.load_ini(missing); });
  EXPECT_EQ(error.key, "--config");
  EXPECT_EQ(error.value, missing);
  EXPECT_EQ(error.allowed, "a readable INI file (a regular file: not a FIFO, device or directory)");
  const ConfigError directory = config_error_of([&] { config_.load_ini("/tmp"); });
  EXPECT_EQ(directory.key, "--config");
}

// Issue 37: a FIFO would block the open until somebody writes to it.
TEST_F(ConfigTest, LoadIniRefusesAFifoWithoutWaitingForAWriter) {
  const std::string fifo = "/tmp/fabricsim_config_test_fifo_" + std::to_string(::getpid()) + ".ini";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const ConfigError error = config_error_of([&] { config_.load_ini(fifo); });
  ::unlink(fifo.c_str());
  EXPECT_EQ(error.key, "--config");
  EXPECT_EQ(error.value, fifo);
  const ConfigError device = config_error_of([&] { config_.load_ini("/dev/zero"); });
  EXPECT_EQ(device.key, "--config");
}

}  // namespace
}  // namespace fabric::config
