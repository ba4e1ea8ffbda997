// SweepSpec: a [sweep] section's keys crossed in order (the last fastest),
// keys varied together, seeds as repetitions, later lines replacing earlier
// ones, and bad definitions refused naming the key and where it was given.
#include <gtest/gtest.h>

#include "model/config/sweep_spec.h"
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
  const SweepSpec spec = SweepSpec::parse({{"leaf.cache.entries", "16, 32", "a.ini:2"},
                                           {"flow.f1.frame_size", "512,1522,9022", "a.ini:3"}},
                                          r);
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
  const auto error = [&](std::vector<SweepLine> lines) {
    return config_error_of([&] { SweepSpec::parse(lines, r); });
  };
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
  expect({{"leaf.cache.entries", "16, 32", "s"}, {"leaf.sync.enable", "true", "s"},
          {"together", "leaf.cache.entries, leaf.sync.enable", "s:9"}},
         "leaf.sync.enable", "lists of different lengths");
  expect({{"leaf.cache.entries", "16, 32", "s"}, {"together", "leaf.cache.entries, leaf.sync.enable", "s:9"}},
         "together", "a key not swept");
  EXPECT_EQ(expect({{"seeds", "1-x", "s:3"}}, "sweep.seeds", "a bad seed list").origin, "s:3");
  expect({{"flow.*.src", "1, 2", "s:4"}}, "flow.*.src", "a pattern, not a key");
}

}  // namespace
}  // namespace fabric
