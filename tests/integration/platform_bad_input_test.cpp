// Bad input to the platforms other than the fabric: each case is exit 2
// with a message naming the key, and no database written.
#include <gtest/gtest.h>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

struct BadKey {
  std::string study;
  std::vector<std::string> sets;
  std::string key;
};

void PrintTo(const BadKey& b, std::ostream* os) {
  *os << b.study;
  for (const std::string& s : b.sets) *os << " --set " << s;
}

class PlatformBadInput : public ::testing::TestWithParam<BadKey> {};

TEST_P(PlatformBadInput, ExitTwoNamingTheKeyAndNoRun) {
  TempDir dir;
  Args args = Args().opt("--study", GetParam().study).opt("--db", dir.file("x.db"));
  for (const std::string& s : GetParam().sets) args.set(s);
  const ProcResult r = run_fabricsim(args);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("'" + GetParam().key + "'"), std::string::npos) << r.err;
  // The value named is the one given for that key, never another source's.
  for (const std::string& s : GetParam().sets) {
    if (s.rfind(GetParam().key + "=", 0) == 0) {
      EXPECT_NE(r.err.find("'" + s.substr(GetParam().key.size() + 1) + "'"), std::string::npos) << r.err;
    }
  }
  EXPECT_FALSE(file_exists(dir.file("x.db")));
}

std::string case_name(const ::testing::TestParamInfo<BadKey>& info) { return "case" + std::to_string(info.index); }

// The backplane (E12).
INSTANTIATE_TEST_SUITE_P(
    Backplane, PlatformBadInput,
    ::testing::Values(BadKey{"E12c", {"backplane.xon=20KB"}, "backplane.xon"},       // Low above High
                      BadKey{"E12c", {"backplane.xoff=64KB"}, "backplane.xoff"},     // above the 32 KB memory
                      BadKey{"E12a", {"backplane.memory=1KB"}, "backplane.memory"},  // below a 1518 B frame
                      BadKey{"E11", {"backplane.memory=1MB"}, "backplane.memory"},   // in a fabric study
                      BadKey{"E12a", {"leaf.clock_mhz=400"}, "leaf.clock_mhz"},      // a fabric key
                      BadKey{"E12a", {"flow.w0.closed_loop=false"}, "flow.w0.closed_loop"},
                      BadKey{"E12a", {"flow.w1.src=0", "flow.w1.dst=1,2,3"}, "flow.w1.src"},  // two applications
                      BadKey{"E12a", {"flow.w0.dst=1,7"}, "flow.w0.dst"},                     // no station there
                      BadKey{"E12a", {"backplane.stations=17"}, "backplane.stations"},
                      BadKey{"E11", {"flow.x.src=0", "flow.x.dst=1", "flow.x.closed_loop=true"}, "flow.x.closed_loop"}),
    case_name);

// The InfiniBand fat tree (E13).
INSTANTIATE_TEST_SUITE_P(
    Ibft, PlatformBadInput,
    ::testing::Values(BadKey{"E13", {"ibft.m=7"}, "ibft.m"},                // odd m
                      BadKey{"E13", {"ibft.n=0"}, "ibft.n"},                // n < 1
                      BadKey{"E13", {"ibft.group=128"}, "ibft.group"},      // more than the other nodes
                      BadKey{"E13", {"ibft.sources=129"}, "ibft.sources"},  // more than the nodes
                      BadKey{"E13", {"ibft.group=0%"}, "ibft.group"},
                      BadKey{"E13", {"ibft.message_bytes=16"}, "ibft.message_bytes"},     // below 32 B
                      BadKey{"E13", {"ibft.message_bytes=256KB"}, "ibft.message_bytes"},  // above 128 KB
                      BadKey{"E13", {"ibft.n=8"}, "ibft.n"},                              // beyond InfiniBand's LIDs
                      BadKey{"E13", {"flow.x.src=0"}, "flow.x.src"},
                      BadKey{"E11", {"ibft.m=4"}, "ibft.m"},                           // an ibft key in a fabric study
                      BadKey{"E13", {"ibft.opensm_root=spread"}, "ibft.opensm_root"},  // unused: E13 is cyclic
                      BadKey{"E13", {"ibft.scheme=opensm", "ibft.opensm_root=middle"}, "ibft.opensm_root"},
                      BadKey{"E13", {"ibft.group=40%%"}, "ibft.group"}),  // issue 37: named with its own value
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Ring, PlatformBadInput,
    ::testing::Values(BadKey{"E14", {"ring.groups=4x5"}, "ring.groups"},     // 20 stations on a ring of 16
                      BadKey{"E14", {"ring.groups=1x40"}, "ring.groups"},    // more than a ring allows
                      BadKey{"E14", {"ring.groups=5x1"}, "ring.groups"},     // a group of one
                      BadKey{"E14", {"ring.stations=33"}, "ring.stations"},  // a ticket's map has 32 bits
                      BadKey{"E14", {"ring.rings=7", "ring.stations=30"}, "ring.stations"},  // and 3 bridges
                      BadKey{"E14", {"ring.rings=16"}, "ring.rings"},
                      BadKey{"E14", {"ring.bridge_backoff_d=-1"}, "ring.bridge_backoff_d"},
                      BadKey{"E14", {"ring.bridge_buffers=0"}, "ring.bridge_buffers"},
                      BadKey{"E14", {"ring.q=-1"}, "ring.q"},
                      BadKey{"E14", {"ring.backoff_d=-0.5"}, "ring.backoff_d"},  // a negative back-off constant
                      BadKey{"E14", {"ring.backoff_d0=-1us"}, "ring.backoff_d0"},
                      BadKey{"E14", {"traffic.load_gbps=0"}, "traffic.load_gbps"},
                      BadKey{"E14", {"traffic.load_schedule=2ms-1ms:3"}, "traffic.load_schedule"},
                      BadKey{"E14", {"traffic.load_schedule=1ms-2ms:fast"}, "traffic.load_schedule"},
                      BadKey{"E14", {"ring.pattern_schedule=1ms-2ms:all"}, "ring.pattern_schedule"},
                      BadKey{"E14", {"flow.x.src=0"}, "flow.x.src"},
                      BadKey{"E14", {"ring.rings=3", "ring.group_rings=0-1;x"}, "ring.group_rings"},
                      BadKey{"E14", {"ring.rings=3", "ring.group_rings=0-1;0,2"}, "ring.group_rings"},  // 3 groups
                      BadKey{"E14", {"ring.rings=3", "ring.group_rings=1,2;0;0"}, "ring.group_rings"},  // not joined
                      BadKey{"E14", {"ring.rings=2", "ring.group_rings=0-2;0;0"}, "ring.group_rings"},  // no ring 2
                      BadKey{"E14", {"ring.rings=3", "ring.sender_rings=3"}, "ring.sender_rings"},
                      BadKey{"E14",
                             {"ring.rings=3", "ring.groups=1x5", "ring.group_rings=1", "ring.sender_rings=0"},
                             "ring.group_rings"},  // a group with no member on a sending ring
                      BadKey{"E14", {"ring.own_frames=tickets-first"}, "ring.own_frames"},
                      // Issue 37: numbers past 64 bits, hex, and a back-off that would never retry.
                      BadKey{"E14", {"ring.groups=99999999999999999999x2"}, "ring.groups"},
                      BadKey{"E14", {"ring.groups=2x99999999999999999999"}, "ring.groups"},
                      BadKey{"E14", {"ring.groups=0x5"}, "ring.groups"},
                      BadKey{"E14", {"ring.groups=3x5x2"}, "ring.groups"},
                      BadKey{"E14", {"traffic.load_schedule=1ms-2ms:0x10"}, "traffic.load_schedule"},
                      BadKey{"E14", {"traffic.load_schedule=1ms-2ms:inf"}, "traffic.load_schedule"},
                      BadKey{"E14", {"ring.backoff=true", "ring.backoff_d=2", "ring.backoff_d0=1s"}, "ring.backoff_d"},
                      BadKey{"E14", {"ring.host_queue=0"}, "ring.host_queue"},
                      BadKey{"E11", {"ring.q=4"}, "ring.q"}),  // a ring key in a fabric study
    case_name);

}  // namespace
}  // namespace fabricsim_it
