// The structured text keys (lists, trees, schedules): each has one typed
// parser, which the key's declaration runs when a value is given and the
// reader calls again; bad text is a ConfigError naming the key, never an
// exception of another kind, a wrapped number or a skipped item.
#include <gtest/gtest.h>

#include "model/leaf/coalesced_controls.h"
#include "model/link/scripted_errors.h"
#include "model/multicast/tree_text.h"
#include "model/protocol/fabric_protocol.h"
#include "platforms/app/parameters.h"
#include "tests/support/config_error_of.h"
#include "traffic/flow_times.h"
#include "traffic/frame_size.h"

namespace fabric {
namespace {

using fabric::testing::config_error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ScriptedErrors, ParsesLinksAndSequenceNumbers) {
  const ScriptedErrors s = parse_scripted_errors(
      "errors.scripted", "leaf0_spine0_up:3, leaf0_spine0_up:7,leaf1_spine2_down:18446744073709551615");
  EXPECT_EQ(s.at("leaf0_spine0_up"), (std::set<uint64_t>{3, 7}));
  EXPECT_EQ(s.at("leaf1_spine2_down"), (std::set<uint64_t>{18446744073709551615u}));
  EXPECT_TRUE(parse_scripted_errors("errors.scripted", "").empty());
}

TEST(ScriptedErrors, RefusesOverflowEmptyItemsAndJunk) {
  const config::ConfigError overflow =
      config_error_of([] { parse_scripted_errors("errors.scripted", "leaf0_spine0_up:99999999999999999999999"); });
  EXPECT_EQ(overflow.key, "errors.scripted");
  EXPECT_TRUE(contains(overflow.allowed, "0 .. 18446744073709551615")) << overflow.allowed;
  for (const char* bad :
       {",leaf0_spine0_up:1", "A:1,,B:2", "A:1,", "A", "A:", ":1", "A:-1", "A:1.5", "a b:1", "A:0x10"}) {
    const config::ConfigError error = config_error_of([&] { parse_scripted_errors("errors.scripted", bad); });
    EXPECT_EQ(error.key, "errors.scripted") << bad;
    EXPECT_EQ(error.value, bad);
  }
}

TEST(TreeText, ParsesTheFanoutOfEachPort) {
  const TreeFanout fanout = parse_tree_fanout("t", "0:1,641; 641:7,642;642:11");
  EXPECT_EQ(fanout.at(0), (std::vector<PortId>{PortId(1), PortId(641)}));
  EXPECT_EQ(fanout.at(642), (std::vector<PortId>{PortId(11)}));
  EXPECT_EQ(parse_tree_fanout("t", "4294967295:0").count(4294967295u), 1u);
}

TEST(TreeText, PortsDoNotWrapAt2To32) {
  for (const char* bad : {"0:4294967297", "4294967296:1", "0:1,99999999999999999999"}) {
    const config::ConfigError error = config_error_of([&] { parse_tree_fanout("flow.m.explicit_tree", bad); });
    EXPECT_TRUE(contains(error.allowed, "outside 0 .. 4294967295")) << bad << ": " << error.allowed;
  }
}

TEST(TreeText, RefusesEmptyItemsRepeatsAndJunk) {
  for (const char* bad : {"", "0:1;", ";0:1", "0:1;;641:7", "0:1,,2", "0:", "0", "0:1;0:2", "x:1", "0:-1"}) {
    const config::ConfigError error = config_error_of([&] { parse_tree_fanout("flow.m.explicit_tree", bad); });
    EXPECT_EQ(error.key, "flow.m.explicit_tree") << bad;
  }
  EXPECT_TRUE(contains(config_error_of([] { parse_tree_fanout("t", "0:1;0:2"); }).allowed, "port 0 is listed twice"));
}

TEST(CoalescedControls, AListOfKindsOnce) {
  const uint32_t request = 1u << static_cast<int>(ControlKind::request);
  const uint32_t ack = 1u << static_cast<int>(ControlKind::ack);
  EXPECT_EQ(parse_coalesced_controls("k", "request, ack"), request | ack);
  EXPECT_EQ(parse_coalesced_controls("k", ""), 0u);
  for (const char* bad : {"request,,ack", ",request", "request,", "credit", "request,request", "Request"}) {
    EXPECT_EQ(config_error_of([&] { parse_coalesced_controls("leaf.control.coalesce", bad); }).key,
              "leaf.control.coalesce")
        << bad;
  }
}

TEST(FlowTimes, StopTimeIsEmptyOrADurationOfTheRun) {
  EXPECT_EQ(traffic::parse_stop_time("k", ""), std::nullopt);
  EXPECT_EQ(traffic::parse_stop_time("k", "  "), std::nullopt);
  EXPECT_EQ(traffic::parse_stop_time("k", "2ms"), 2'000'000'000);
  EXPECT_EQ(traffic::parse_stop_time("k", "0"), 0);
  for (const char* bad : {"-1ns", "soon", "99999999999999999999999", "1e400s", "10000000s"}) {
    EXPECT_EQ(config_error_of([&] { traffic::parse_stop_time("flow.f.stop", bad); }).key, "flow.f.stop") << bad;
  }
}

TEST(FlowTimes, ScheduleIsOrderedOnIntervals) {
  EXPECT_EQ(traffic::parse_schedule("k", "1ms-2ms, 3ms-4ms"),
            (traffic::Schedule{{1'000'000'000, 2'000'000'000}, {3'000'000'000, 4'000'000'000}}));
  EXPECT_EQ(traffic::parse_schedule("k", "1e-3ms-2us"), (traffic::Schedule{{1'000'000, 2'000'000}}));
  for (const char* bad : {"", "1ms-2ms,", "1ms-2ms,,3ms-4ms", "2ms-1ms", "1ms-3ms,2ms-4ms", "1ms", "-1ms-2ms",
                          "1ms-99999999999999999999999ms", "1ms-2ms-3ms"}) {
    const config::ConfigError error = config_error_of([&] { traffic::parse_schedule("flow.f.schedule", bad); });
    EXPECT_EQ(error.key, "flow.f.schedule") << bad;
    EXPECT_TRUE(contains(error.allowed, "time order")) << error.allowed;
  }
}

TEST(FrameSizeText, OneParserWithoutWrapping) {
  EXPECT_EQ(traffic::FrameSizeDistribution::parse("k", "choice:64, 9216").text(), "choice:64,9216");
  for (const char* bad : {"4294967360", "uniform:64:99999999999999999999", "choice:64,,512", "choice:64,"}) {
    EXPECT_EQ(config_error_of([&] { traffic::FrameSizeDistribution::parse("flow.f.frame_size", bad); }).key,
              "flow.f.frame_size")
        << bad;
  }
}

// Every structured key of fabricsim refuses bad text when it is set, before
// anything reads it.
TEST(StructuredKeys, RefusedWhenSet) {
  const config::ParamRegistry registry = build_registry();
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"errors.scripted", "leaf0_spine0_up:99999999999999999999999"},
      {"errors.scripted", ",leaf0_spine0_up:1"},
      {"errors.scripted", "leaf0_spine0_up:1,,leaf0_spine1_up:2"},
      {"flow.m.explicit_tree", "0:4294967297"},
      {"flow.m.explicit_tree", "0:1;;641:7"},
      {"flow.f.frame_size", "choice:64,,512"},
      {"traffic.frame_size", "99999999999999999999999"},
      {"traffic.stop", "-1ms"},
      {"flow.f.stop", "never"},
      {"flow.f.schedule", "1ms-2ms,,3ms-4ms"},
      {"leaf.control.coalesce", "request,,grant"},
      {"rtl.trace", "wave.vcd"},
  };
  for (const auto& [key, value] : bad) {
    config::Config config(registry);
    const config::ConfigError error = config_error_of([&, &key = key, &value = value] { config.set(key, value); });
    EXPECT_EQ(error.key, key) << value;
    EXPECT_FALSE(config.is_set(key)) << key;
  }
}

// The declared text keys: each has a syntax, and its default passes it.
TEST(StructuredKeys, EveryTextKeyHasItsParser) {
  const config::ParamRegistry registry = build_registry();
  size_t text_keys = 0;
  for (const config::ParamSpec& spec : registry.all()) {
    if (spec.type != config::ParamType::text) continue;
    ++text_keys;
    EXPECT_TRUE(spec.syntax.check) << spec.key;
    EXPECT_FALSE(spec.syntax.allowed.empty()) << spec.key;
  }
  EXPECT_EQ(text_keys, 17u);  // job.*.schedule the latest
}

}  // namespace
}  // namespace fabric
