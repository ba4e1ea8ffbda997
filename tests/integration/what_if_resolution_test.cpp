// Trustworthy what-ifs, resolved in process (no simulation): every shipped
// study raises no warning and keeps the spec's values where keys are
// derived; a longer cable derives the link retry, the credit windows and
// the timeouts from the physics; each check of a physical constraint fires
// when a value breaks it and holds at the shipped study.
#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

#include "config/config.h"
#include "platforms/app/command_line.h"
#include "platforms/app/parameters.h"
#include "platforms/app/run_resolution.h"
#include "platforms/app/study_catalog.h"

namespace fabric {
namespace {

struct Resolved {
  config::ParamRegistry registry = build_registry();
  config::Config config{registry};
  ResolvedRun run;

  Resolved(const std::string& study, const std::vector<std::string>& sets, const std::string& time = "") {
    CommandLine cl;
    cl.study = study;
    cl.sets = sets;
    if (!time.empty()) cl.time = time;
    run = resolve(cl, config);
  }
  std::string value(const std::string& key) const { return config.resolved(key).value; }
  config::ValueSource source(const std::string& key) const { return config.resolved(key).source; }
  // The check named `name`, which must have been evaluated once.
  config::CheckResult check(const std::string& name) const {
    std::vector<config::CheckResult> found;
    for (const config::CheckResult& c : config.notes().checks())
      if (c.name == name) found.push_back(c);
    EXPECT_EQ(found.size(), 1u) << name;
    return found.empty() ? config::CheckResult{} : found.front();
  }
};

TEST(WhatIfResolution, NoShippedStudyRaisesAWarning) {
  const std::vector<StudyEntry> studies = list_studies();
  ASSERT_GT(studies.size(), 30u);
  size_t checked = 0;  // studies with a check that applies (some have every checked mechanism off)
  for (const StudyEntry& s : studies) {
    const Resolved r(s.id, {});
    for (const config::CheckResult& w : r.run.warnings) ADD_FAILURE() << s.id << ": " << w.detail;
    if (!r.config.notes().checks().empty()) ++checked;
    // The checks of offered load apply to open-loop traffic; a study of
    // closed-loop jobs alone has the checks of the fabric's own sizing.
    const bool open_loop =
        std::any_of(r.run.flows.begin(), r.run.flows.end(), [](const traffic::FlowSpec& f) { return !f.job; });
    if (s.platform == "fabric") {
      EXPECT_GE(r.config.notes().checks().size(), open_loop ? 6u : 3u) << s.id;
    }
  }
  EXPECT_GT(checked, 30u);
}

TEST(WhatIfResolution, TheShippedFabricDerivesTheSpecsValues) {
  const Resolved r("perm640", {});
  const std::vector<std::pair<std::string, std::string>> spec = {
      {"link.retry.timeout", "2us"},          {"link.retry.buffer", "6KB"}, {"spine.buffer_packets", "16"},
      {"leaf.downlink_buffer_packets", "16"}, {"leaf.e2e.timeout", "1ms"},  {"cna.e2e.timeout", "4ms"}};
  for (const auto& [key, value] : spec) {
    EXPECT_EQ(r.value(key), value) << key;
    EXPECT_EQ(r.source(key), config::ValueSource::derived) << key;
  }
  EXPECT_NE(r.run.config_text.find("link.retry.timeout = 2us\n"), std::string::npos);
}

TEST(WhatIfResolution, A400mCableDerivesFromTheRoundTrip) {
  const Resolved r("perm640", {"topology.leaf_spine_cable_m=400"});
  // The link ACK round trip: 2 x 2 us + 2 x 81.92 ns + 500 ns + 3.2 ns = 4.667 us; x 1.5, up to 100 ns.
  EXPECT_EQ(r.value("link.retry.timeout"), "7100ns");
  // 25 Gb/s x 4.667 us = 14584.5 B, + 256 B, x 1.5.
  EXPECT_EQ(r.value("link.retry.buffer"), "22261B");
  // Credit round trips 4.311 us (spine: 44 ns) and 4.317 us (leaf: 50 ns): 52.6 and 52.7 packets, x 1.5.
  EXPECT_EQ(r.value("spine.buffer_packets"), "79");
  EXPECT_EQ(r.value("leaf.downlink_buffer_packets"), "80");
  EXPECT_EQ(r.value("leaf.e2e.timeout"), "1ms");  // 1.5 x 20.1 us stays under the spec's 1 ms
  EXPECT_NE(r.config.resolved("link.retry.timeout").origin.find("400 m leaf-spine link, 4.67 us"), std::string::npos)
      << r.config.resolved("link.retry.timeout").origin;
  EXPECT_TRUE(r.check("link.retry.timeout >= the link ACK round trip").holds);
  EXPECT_TRUE(r.check("spine.buffer_packets carries what the traffic puts on each leaf-spine link").holds);
  // Vth stays the spec's, and says what it costs: a line-rate flow to another leaf gets at most Vth per round trip.
  EXPECT_FALSE(r.check("leaf.voq.threshold carries the busiest lossy flow to another leaf").holds);
}

// A derived buffer keeps its SRAM in bytes when the cell size changes: the
// spec's 16 packets of 256 B are 4 KB, so 32 packets of 128 B (the credit
// round trip needs 1.5 x 15.4); of 512 B the spec's SRAM is 8 packets, and
// the round trip (874.8 ns: 5.34 packets) asks for 1.5 x 5.34 = 8.01: 9.
// What a derivation moved away from the spec's value is a departure, which
// fabricsim prints before the run and --explain lists.
TEST(WhatIfResolution, ACellSizeWhatIfKeepsTheSpinesSramAndSaysWhatItDerived) {
  const Resolved small("perm640", {"leaf.packet_bytes=128"});
  EXPECT_EQ(small.value("spine.buffer_packets"), "32");
  EXPECT_EQ(small.value("leaf.downlink_buffer_packets"), "32");
  std::vector<std::string> departed;
  for (const auto& [key, d] : small.config.notes().departures()) departed.push_back(key + " " + d.spec_value);
  EXPECT_EQ(departed, (std::vector<std::string>{"leaf.downlink_buffer_packets 16", "spine.buffer_packets 16"}));
  const Resolved large("perm640", {"leaf.packet_bytes=512", "leaf.pause.qhi=140KB"});  // 512 B units: less headroom
  EXPECT_EQ(large.value("spine.buffer_packets"), "9");
  EXPECT_TRUE(Resolved("perm640", {}).config.notes().departures().empty()) << "the shipped fabric derives the spec's";
}

TEST(WhatIfResolution, AGivenValueIsKeptAndCheckedNotDerived) {
  const Resolved r("perm640", {"topology.leaf_spine_cable_m=400", "link.retry.timeout=2us"});
  EXPECT_EQ(r.value("link.retry.timeout"), "2us");
  EXPECT_EQ(r.source("link.retry.timeout"), config::ValueSource::set);
  const config::CheckResult c = r.check("link.retry.timeout >= the link ACK round trip");
  EXPECT_FALSE(c.holds);
  EXPECT_EQ(c.detail,
            "link.retry.timeout 2 us < the link ACK round trip of a 400 m leaf-spine link, 4.67 us (2 x 2 us of flight "
            "+ 81.9 ns for a 256 B message each way + link.retry.ack_delay 500 ns + 3.2 ns for a 10 B ACK): every "
            "message will be replayed");
  EXPECT_EQ(c.keys.front(), "link.retry.timeout");
}

// Each check: the study it holds at, the values that break it.
struct CheckCase {
  std::string study;
  std::vector<std::string> enabling;  // switches on the mechanism the check reads, at shipped values
  std::vector<std::string> breaking;  // the values that break it (with `enabling`)
  std::string check;
  std::string time = "";  // sim.time of the broken run
};

class EachCheck : public ::testing::TestWithParam<CheckCase> {};

TEST_P(EachCheck, HoldsAtTheShippedStudyAndFailsWhenBroken) {
  const CheckCase& c = GetParam();
  {
    const Resolved shipped(c.study, c.enabling, c.time.empty() ? "" : "100ms");
    EXPECT_TRUE(shipped.check(c.check).holds) << shipped.check(c.check).detail;
  }
  std::vector<std::string> sets = c.enabling;
  sets.insert(sets.end(), c.breaking.begin(), c.breaking.end());
  const Resolved broken(c.study, sets, c.time);
  const config::CheckResult result = broken.check(c.check);
  EXPECT_FALSE(result.holds) << c.check;
  bool warned = false;
  for (const config::CheckResult& w : broken.run.warnings) warned = warned || w.name == c.check;
  EXPECT_TRUE(warned);
  // The message names the first key it reads.
  EXPECT_NE(result.detail.find(result.keys.front()), std::string::npos) << result.detail;
}

INSTANTIATE_TEST_SUITE_P(
    WhatIf, EachCheck,
    ::testing::Values(
        CheckCase{"perm640",
                  {"topology.leaf_spine_cable_m=400"},
                  {"link.retry.timeout=2us"},
                  "link.retry.timeout >= the link ACK round trip"},
        CheckCase{"perm640",
                  {},
                  {"link.retry.buffer=2KB"},
                  "link.retry.buffer >= the bytes a leaf-spine link sends in its ACK round trip + one message"},
        CheckCase{"perm640",
                  {},
                  {"spine.buffer_packets=4"},
                  "spine.buffer_packets carries what the traffic puts on each leaf-spine link"},
        CheckCase{"perm640",
                  {},
                  {"leaf.downlink_buffer_packets=4"},
                  "leaf.downlink_buffer_packets carries what the traffic puts on each spine-leaf link"},
        CheckCase{"perm640",
                  {},
                  {"leaf.voq.threshold=8KB"},
                  "leaf.voq.threshold carries the busiest lossy flow to another leaf"},
        CheckCase{"perm640",
                  {"topology.leaf_spine_cable_m=400"},
                  {"leaf.voq.threshold=128KB"},
                  "leaf.ingress.lossy_threshold holds a full VOQ and the copies awaiting their ACK"},
        CheckCase{"perm640",
                  {},
                  {"leaf.egress.pool=12KB"},
                  "leaf.egress.pool carries what the traffic sends a port from other leaves"},
        CheckCase{"perm640",
                  {"classes.lossless_priorities=0"},
                  {"topology.leaf_spine_cable_m=400"},
                  "leaf.pause.qhi holds what a lossless port holds until its ACKs"},
        CheckCase{"perm640",
                  {"classes.lossless_priorities=0"},
                  {"traffic.frame_size=64"},
                  "leaf.pause.headers_hi holds the headers a lossless port holds until its ACKs"},
        CheckCase{"perm640", {}, {"leaf.e2e.timeout=10us"}, "leaf.e2e.timeout >= the longest wait for a copy's ACK"},
        CheckCase{
            "perm640", {"cna.e2e.retransmit=true"}, {"cna.e2e.timeout=1ms"}, "cna.e2e.timeout > leaf.e2e.timeout"},
        CheckCase{"perm640",
                  {"link.retry=false", "errors.leaf_spine.ber=1e-9"},
                  {},
                  "leaf.e2e.timeout < sim.time when messages are lost",
                  "500us"},
        CheckCase{"E12c", {}, {"backplane.xoff=30KB"}, "backplane.xoff + the PAUSE headroom <= backplane.memory"},
        CheckCase{"E13",
                  {"ibft.message_bytes=32"},
                  {"ibft.link_delay=100ns"},
                  "a packet's time on the wire >= the credit round trip of a link"},
        CheckCase{"E14",
                  {"ring.q_adaptive=false", "ring.q=4"},
                  {"ring.q=6"},
                  "ring.q x the other senders of a group <= ring.buffers"}));

TEST(WhatIfResolution, ChecksReadOnlyTheMechanismsThatAreOn) {
  const Resolved off("perm640", {"link.retry=false"});
  for (const config::CheckResult& c : off.config.notes().checks())
    EXPECT_EQ(c.name.find("link.retry"), std::string::npos) << c.name;
  // A key of a mechanism that is off and given is still refused as unused.
  EXPECT_THROW(Resolved("perm640", {"leaf.qcn.w=3"}), config::ConfigError);
}

}  // namespace
}  // namespace fabric
