// SweepSpec: a [sweep] section's keys crossed in order (the last fastest),
// keys varied together, seeds as repetitions, later lines replacing earlier
// ones, bad definitions refused naming the key and where it was given, a
// definition whose points would be one run refused (a value twice, sim.seed
// swept twice), and the size counted without overflow.
#include <gtest/gtest.h>

#include "config/sweep_spec.h"
#include "platforms/app/parameters.h"
#include "tests/support/config_error_of.h"

namespace fabric {
namespace {

using config::SweepLine;
using config::SweepSpec;
using fabric::testing::config_error_of;

std::vector<std::string> keys_of(const SweepSpec& spec) {
  std::vector<std::string> out;
  for (const config::SweepPoint& p : spec.points()) out.push_back(p.key());
  return out;
}

TEST(SweepSpec, CrossesKeysInTheOrderGivenTheLastFastest) {
  const config::ParamRegistry r = build_registry();
  const SweepSpec spec = SweepSpec::parse(
      {{"leaf.cache.entries", "16, 32", "a.ini:2"}, {"flow.f1.frame_size", "512,1522,9022", "a.ini:3"}}, r);
  EXPECT_EQ(spec.size(), 6u);
  EXPECT_EQ(keys_of(spec), (std::vector<std::string>{
                               "leaf.cache.entries=16; flow.f1.frame_size=512",
                               "leaf.cache.entries=16; flow.f1.frame_size=1522",
                               "leaf.cache.entries=16; flow.f1.frame_size=9022",
                               "leaf.cache.entries=32; flow.f1.frame_size=512",
                               "leaf.cache.entries=32; flow.f1.frame_size=1522",
                               "leaf.cache.entries=32; flow.f1.frame_size=9022",
                           }));
}

TEST(SweepSpec, KeysVariedTogetherAndSeedsAsRepetitions) {
  const config::ParamRegistry r = build_registry();
  const SweepSpec spec = SweepSpec::parse({{"leaf.cache.entries", "16, 128", "s"},
                                           {"traffic.load_gbps", "5, 10", "s"},
                                           {"leaf.sync.enable", "false, true", "s"},
                                           {"together", "leaf.cache.entries, leaf.sync.enable", "s"},
                                           {"seeds", "7-8", "s"}},
                                          r);
  EXPECT_EQ(keys_of(spec), (std::vector<std::string>{
                               "leaf.cache.entries=16; leaf.sync.enable=false; traffic.load_gbps=5; sim.seed=7",
                               "leaf.cache.entries=16; leaf.sync.enable=false; traffic.load_gbps=5; sim.seed=8",
                               "leaf.cache.entries=16; leaf.sync.enable=false; traffic.load_gbps=10; sim.seed=7",
                               "leaf.cache.entries=16; leaf.sync.enable=false; traffic.load_gbps=10; sim.seed=8",
                               "leaf.cache.entries=128; leaf.sync.enable=true; traffic.load_gbps=5; sim.seed=7",
                               "leaf.cache.entries=128; leaf.sync.enable=true; traffic.load_gbps=5; sim.seed=8",
                               "leaf.cache.entries=128; leaf.sync.enable=true; traffic.load_gbps=10; sim.seed=7",
                               "leaf.cache.entries=128; leaf.sync.enable=true; traffic.load_gbps=10; sim.seed=8",
                           }));
}

TEST(SweepSpec, ValuesWithCommasAreSeparatedByBarsAndALaterLineReplacesAKey) {
  const config::ParamRegistry r = build_registry();
  const SweepSpec spec = SweepSpec::parse({{"flow.f1.dst", "1 | 1,2 | 1,2,3", "E1a.ini:30"},
                                           {"leaf.cache.entries", "16, 32", "E1a.ini:31"},
                                           {"flow.f1.dst", "1,2,3,4 | 5", "--sweep"}},
                                          r);
  EXPECT_EQ(keys_of(spec), (std::vector<std::string>{
                               "flow.f1.dst=1,2,3,4; leaf.cache.entries=16",
                               "flow.f1.dst=1,2,3,4; leaf.cache.entries=32",
                               "flow.f1.dst=5; leaf.cache.entries=16",
                               "flow.f1.dst=5; leaf.cache.entries=32",
                           }));
  EXPECT_EQ(SweepSpec::parse({}, r).size(), 1u) << "no sweep: the study's own point";
}

TEST(SweepSpec, BadDefinitionsNameTheKeyAndWhereItWasGiven) {
  const config::ParamRegistry r = build_registry();
  const auto error = [&](std::vector<SweepLine> lines) { return config_error_of([&] { SweepSpec::parse(lines, r); }); };
  const auto expect = [&](std::vector<SweepLine> lines, const std::string& key, const std::string& what) {
    const config::ConfigError e = error(std::move(lines));
    EXPECT_EQ(e.key, key) << what;
    return e;
  };
  EXPECT_EQ(expect({{"leaf.cache.entires", "16, 32", "a.ini:4"}}, "leaf.cache.entires", "a typo").origin, "a.ini:4");
  EXPECT_EQ(expect({{"leaf.cache.entries", "16, 5000", "a.ini:5"}}, "leaf.cache.entries", "out of range").value,
            "5000");
  expect({{"leaf.cache.entries", "", "--sweep"}}, "leaf.cache.entries", "an empty list");
  expect({{"leaf.cache.entries", "16,,32", "--sweep"}}, "leaf.cache.entries", "an empty value");
  expect({{"leaf.cache.entries", "16, 32", "s"},
          {"leaf.sync.enable", "true", "s"},
          {"together", "leaf.cache.entries, leaf.sync.enable", "s:9"}},
         "leaf.sync.enable", "lists of different lengths");
  expect({{"leaf.cache.entries", "16, 32", "s"}, {"together", "leaf.cache.entries, leaf.sync.enable", "s:9"}},
         "together", "a key not swept");
  EXPECT_EQ(expect({{"seeds", "1-x", "s:3"}}, "sweep.seeds", "a bad seed list").origin, "s:3");
  expect({{"flow.*.src", "1, 2", "s:4"}}, "flow.*.src", "a pattern, not a key");
}

TEST(SweepSpec, AValueGivenTwiceIsRefusedNamingIt) {
  const config::ParamRegistry r = build_registry();
  const auto refused = [&](std::vector<SweepLine> lines) {
    return std::string(config_error_of([&] { SweepSpec::parse(lines, r); }).what());
  };
  const auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos ? ::testing::AssertionSuccess()
                                                : ::testing::AssertionFailure() << "no '" << part << "' in: " << text;
  };
  EXPECT_TRUE(has(refused({{"leaf.cache.entries", "16, 32, 16", "a.ini:7"}}), "leaf.cache.entries=16 is given twice"));
  EXPECT_TRUE(has(refused({{"leaf.cache.entries", "16, 32, 16", "a.ini:7"}}), "a.ini:7"));
  EXPECT_TRUE(has(refused({{"leaf.cache.entries", "16, 016", "s"}}),
                  "leaf.cache.entries=016 is leaf.cache.entries=16 again (one value, two spellings)"));
  EXPECT_TRUE(has(refused({{"sim.time", "1us, 1000ns", "s"}}), "sim.time=1000ns is sim.time=1us again"));
  EXPECT_TRUE(
      has(refused({{"leaf.sync.enable", "on, true", "s"}}), "leaf.sync.enable=true is leaf.sync.enable=on again"));
  EXPECT_TRUE(has(refused({{"seeds", "1-3, 2", "s:2"}}), "sim.seed=2 is given twice"));
  EXPECT_TRUE(has(refused({{"leaf.cache.entries", "16, 16", "s"},
                           {"leaf.sync.enable", "true, true", "s"},
                           {"together", "leaf.cache.entries, leaf.sync.enable", "s"}}),
                  "leaf.cache.entries=16 & leaf.sync.enable=true is given twice"));
  // Varied together, a value may come back with another partner: the points differ.
  EXPECT_EQ(SweepSpec::parse({{"leaf.cache.entries", "16, 16", "s"},
                              {"leaf.sync.enable", "true, false", "s"},
                              {"together", "leaf.cache.entries, leaf.sync.enable", "s"}},
                             r)
                .size(),
            2u);
}

TEST(SweepSpec, SimSeedSweptItselfAndBySeedsIsRefused) {
  const config::ParamRegistry r = build_registry();
  const config::ConfigError e = config_error_of([&] {
    SweepSpec::parse({{"sim.seed", "1, 2", "a.ini:3"}, {"seeds", "1-2", "a.ini:4"}}, r);
  });
  EXPECT_EQ(e.key, "sweep.seeds");
  EXPECT_EQ(e.origin, "a.ini:4");
  EXPECT_NE(std::string(e.what()).find("sim.seed is swept itself (at a.ini:3)"), std::string::npos) << e.what();
}

TEST(SweepSpec, TheSizeIsCountedWithoutMakingAPointOrOverflowing) {
  const config::ParamRegistry r = build_registry();
  std::vector<SweepLine> lines;
  for (int i = 0; i < 20; ++i) lines.push_back({"flow.f" + std::to_string(i) + ".priority", "0,1,2,3,4,5,6,7", "s"});
  lines.push_back({"seeds", "1-4", "s"});
  const SweepSpec big = SweepSpec::parse(lines, r);
  EXPECT_EQ(big.size(), std::optional<uint64_t>(uint64_t{1} << 62));  // 8^20 x 4
  EXPECT_EQ(big.size_formula(), "8^20 x 4");
  // The last point, made from its coordinates without the others.
  config::SweepCoordinates last(20, 7);
  last.push_back(3);
  EXPECT_EQ(big.point(last).values.front(), (std::pair<std::string, std::string>{"flow.f0.priority", "7"}));
  EXPECT_EQ(big.point(last).values.back(), (std::pair<std::string, std::string>{"sim.seed", "4"}));
  lines.pop_back();
  for (int i = 20; i < 44; ++i) lines.push_back({"flow.f" + std::to_string(i) + ".priority", "0,1,2,3", "s"});
  EXPECT_EQ(SweepSpec::parse(lines, r).size(), std::nullopt) << "8^20 x 4^24 = 2^108";
  std::vector<SweepLine> halves;
  for (int i = 0; i < 63; ++i) halves.push_back({"flow.f" + std::to_string(i) + ".priority", "0,1", "s"});
  EXPECT_EQ(SweepSpec::parse(halves, r).size(), std::optional<uint64_t>(uint64_t{1} << 63));
  halves.push_back({"seeds", "1,2", "s"});
  EXPECT_EQ(SweepSpec::parse(halves, r).size(), std::nullopt) << "2^64 does not wrap to 0";
}

TEST(SweepSpec, APointFromItsCoordinatesIsThePointInOrder) {
  const config::ParamRegistry r = build_registry();
  const SweepSpec spec = SweepSpec::parse(
      {{"leaf.cache.entries", "16, 32, 64", "s"}, {"flow.f1.frame_size", "512, 9022", "s"}, {"seeds", "5-6", "s"}}, r);
  EXPECT_EQ(spec.dimension_sizes(), (std::vector<size_t>{3, 2, 2}));
  EXPECT_EQ(spec.point({2, 0, 1}).key(), "leaf.cache.entries=64; flow.f1.frame_size=512; sim.seed=6");
  EXPECT_EQ(spec.points()[9].key(), spec.point({2, 0, 1}).key());  // 2 x 4 + 0 x 2 + 1
  EXPECT_EQ(spec.describe(), "leaf.cache.entries = 16 | 32 | 64\nflow.f1.frame_size = 512 | 9022\nsim.seed = 5 | 6\n");
}

}  // namespace
}  // namespace fabric
