// config::Param: a key declared once by the member that holds it; read,
// derived, marked used when its value is used; and where each value of a
// run comes from (Config::resolved).
#include "config/param.h"
#include "config/param_listing.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/config_error_of.h"
#include "tests/support/temp_file.h"

namespace fabric::config {
namespace {

struct DemoKeys {
  Param<Duration> timeout{
      "demo.timeout", Derived{"2us", "max(the spec's 2 us, 1.5 x the round trip)"}, "ps", "a timeout", 1e3, 1e12};
  Param<Bytes> buffer{"demo.buffer", "6KB", "B", "a buffer", 64, 1e9};
  Param<Choice> mode{"demo.mode", "fast", "a choice", {"fast", "slow"}};
  Param<Integer> unset{"demo.unset", "", "", "no default", 0, 10};
  PatternParam<Rate> rate{"demo.*.rate", "", "Gb/s", "a rate per instance", 0, 400};
};

class ParamTest : public ::testing::Test {
 protected:
  ParamTest() {
    ParamScope declaring(registry_);
    DemoKeys keys;
  }
  ParamRegistry registry_;
};

TEST_F(ParamTest, DeclaringPutsEachKeyInTheRegistryOnceWithItsDeclaration) {
  ASSERT_EQ(registry_.all().size(), 5u);
  const ParamSpec* timeout = registry_.find("demo.timeout");
  ASSERT_NE(timeout, nullptr);
  EXPECT_EQ(timeout->type, ParamType::duration);
  EXPECT_EQ(timeout->default_value, "auto");
  EXPECT_EQ(timeout->derivation, "max(the spec's 2 us, 1.5 x the round trip)");
  EXPECT_EQ(registry_.find("demo.buffer")->default_value, "6KB");
  EXPECT_EQ(registry_.find("demo.mode")->choices, (std::vector<std::string>{"fast", "slow"}));
  EXPECT_TRUE(registry_.find("demo.x.rate")->is_pattern());
  // --list-params says a derived key is auto and how it is derived.
  const std::string table = list_params_tsv(registry_, "");
  EXPECT_NE(table.find("auto, or 1000 .. 1000000000000 ps"), std::string::npos) << table;
  EXPECT_NE(table.find("auto: max(the spec's 2 us"), std::string::npos) << table;
}

TEST_F(ParamTest, OutsideAScopeEachHoldsItsDefault) {
  DemoKeys keys;
  EXPECT_EQ(keys.buffer.value(), 6144);
  EXPECT_EQ(keys.mode.value(), "fast");
  EXPECT_TRUE(keys.timeout.is_auto());
  EXPECT_EQ(keys.timeout.spec_value(), std::optional<Picos>(2'000'000));
  EXPECT_FALSE(keys.unset.has_value());
  EXPECT_THROW(keys.timeout.value(), std::logic_error);  // auto, not derived
  keys.timeout.derive(7'100'000, "numbers");
  EXPECT_EQ(keys.timeout.value(), 7'100'000);
}

TEST_F(ParamTest, ReadsTheRunsValuesAndDerivesOnlyWhatIsLeftAuto) {
  Config config(registry_);
  config.set("demo.buffer", "32KB");
  config.set("demo.x.rate", "25");
  {
    ParamScope reading(config);
    DemoKeys keys;
    EXPECT_EQ(keys.buffer.value(), 32768);
    EXPECT_TRUE(keys.buffer.given());
    EXPECT_FALSE(keys.mode.given());
    EXPECT_DOUBLE_EQ(keys.rate.of(config, "x"), 25.0);
    EXPECT_EQ(keys.rate.key_of("x"), "demo.x.rate");
    EXPECT_TRUE(keys.rate.given_in(config, "x"));
    keys.timeout.derive(7'100'000, "max(the spec's 2 us, 1.5 x 4.67 us) = 7.1 us");
    EXPECT_EQ(keys.timeout.value(), 7'100'000);
  }
  const ResolvedParam timeout = config.resolved("demo.timeout");
  EXPECT_EQ(timeout.value, "7100ns");
  EXPECT_EQ(timeout.source, ValueSource::derived);
  EXPECT_EQ(timeout.origin, "max(the spec's 2 us, 1.5 x 4.67 us) = 7.1 us");
  EXPECT_NE(config.resolved_text().find("demo.timeout = 7100ns\n"), std::string::npos);

  Config given(registry_);
  given.set("demo.timeout", "3us");
  ParamScope reading(given);
  DemoKeys keys;
  EXPECT_FALSE(keys.timeout.is_auto());
  keys.timeout.derive(7'100'000, "ignored: the user's value stays");
  EXPECT_EQ(keys.timeout.value(), 3'000'000);
  EXPECT_EQ(given.resolved("demo.timeout").source, ValueSource::set);
}

TEST_F(ParamTest, AKeyIsUsedWhenItsValueIsUsedNotWhenItIsRead) {
  Config config(registry_);
  config.set("demo.mode", "slow");
  config.set("demo.buffer", "8KB");
  ParamScope reading(config);
  DemoKeys keys;
  static_cast<void>(keys.buffer.value());
  // demo.mode was given but nothing used it: a typo or a key of a mechanism that is off.
  const ConfigError error = fabric::testing::config_error_of([&] { config.check_all_used(); });
  EXPECT_EQ(error.key, "demo.mode");
  static_cast<void>(keys.mode.value());
  EXPECT_NO_THROW(config.check_all_used());
}

TEST_F(ParamTest, AFailNamesTheKeyAndItsValue) {
  Config config(registry_);
  config.set("demo.buffer", "100");
  ParamScope reading(config);
  DemoKeys keys;
  const ConfigError error = fabric::testing::config_error_of([&] { keys.buffer.fail("at least one packet"); });
  EXPECT_EQ(error.key, "demo.buffer");
  EXPECT_EQ(error.value, "100");
  EXPECT_EQ(error.allowed, "at least one packet");
}

TEST_F(ParamTest, EverySourceOfAValueIsRecorded) {
  fabric::testing::TempFile study("param", "study.ini", "[demo]\nbuffer = 12KB\nmode = slow\n");
  fabric::testing::TempFile extra("param", "extra.ini", "[demo]\nmode = fast\n");
  Config config(registry_);
  config.load_ini(study.path(), ValueSource::study);
  config.load_ini(extra.path(), ValueSource::config);
  config.set("demo.x.rate", "10", ValueSource::sweep);
  config.set("demo.unset", "3");
  EXPECT_EQ(config.resolved("demo.buffer").source, ValueSource::study);
  EXPECT_EQ(config.resolved("demo.buffer").origin, study.path() + ":2");
  EXPECT_EQ(config.resolved("demo.mode").source, ValueSource::config);
  EXPECT_EQ(config.resolved("demo.mode").origin, extra.path() + ":2");
  EXPECT_EQ(config.resolved("demo.x.rate").source, ValueSource::sweep);
  EXPECT_EQ(config.resolved("demo.unset").source, ValueSource::set);
  EXPECT_EQ(config.resolved("demo.timeout").source, ValueSource::default_value);
  EXPECT_EQ(config.resolved("demo.timeout").value, "auto");  // nobody derived it
  std::vector<std::string> keys;
  for (const ResolvedParam& p : config.resolved_params()) keys.push_back(p.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"demo.buffer", "demo.mode", "demo.timeout", "demo.unset", "demo.x.rate"}));
}

TEST(ParamText, DerivedValuesAreWrittenInTheKeysSyntax) {
  EXPECT_EQ(Duration::text(2'000'000), "2us");
  EXPECT_EQ(Duration::text(7'100'000), "7100ns");
  EXPECT_EQ(Duration::text(1'000'000'000), "1ms");
  EXPECT_EQ(Duration::text(1'234), "1234ps");
  EXPECT_EQ(Bytes::text(6144), "6KB");
  EXPECT_EQ(Bytes::text(22261), "22261B");
  EXPECT_EQ(Bytes::text(3 * 1024 * 1024), "3MB");
  EXPECT_EQ(IntList::text({1, 3, 5}), "1,3,5");
  for (Picos v : {Picos{1}, Picos{999}, Picos{2'000'000}, Picos{7'100'000}, Picos{4'000'000'000}})
    EXPECT_EQ(parse_duration("k", Duration::text(v)), v);
}

}  // namespace
}  // namespace fabric::config
