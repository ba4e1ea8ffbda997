// fabricsim-rtl-check's qualification (rtl/check/block_check.h), on blocks
// with one deliberate bug each (cmake/rtl_test_variants.cmake): every one
// fails the default check at the default size, the width mutants (a VOQ
// id, the time, a packet count kept in fewer bits) too: the stimulus drives
// each input over its whole width. The project's blocks pass
// with every coverage bin reached and every input bit toggled; a short run
// fails naming the bins and the bits it left empty; a block whose query
// outputs are registered passes when it declares its latency, and fails
// when it reports none.
#include <gtest/gtest.h>

#ifdef FABRICSIM_HAVE_RTL
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "Vmutant_packet_cache_reads_end_late.h"
#include "Vmutant_packet_cache_tie_highest.h"
#include "Vmutant_packet_cache_time_32_bits.h"
#include "Vmutant_packet_cache_unit_low_16_bits.h"
#include "Vmutant_sync_cam_count_16_bits.h"
#include "Vmutant_sync_cam_resume_highest_first.h"
#include "Vmutant_sync_cam_tick_resumes_nothing.h"
#include "Vmutant_sync_cam_tie_by_access.h"
#include "Vmutant_sync_cam_time_32_bits.h"
#include "Vmutant_sync_cam_voq_low_6_bits.h"
#include "Vregistered_sync_cam_1.h"
#include "Vregistered_sync_cam_2.h"
#include "Vregistered_sync_cam_lying.h"
#include "Vtest_packet_cache_4.h"
#include "Vtest_sync_cam_2.h"
#include "Vtest_sync_cam_3.h"
#include "model/multicast/rtl_blocks.h"
#include "rtl/check/block_check.h"
#include "rtl/cosim/rtl_packet_cache.h"
#include "rtl/cosim/rtl_sync_cam.h"

namespace fabric {
namespace {

template <class V>
rtl::SyncCamUnderTest sync_cam(const std::string& name, uint32_t entries = 24) {
  return {name, entries, [name](const SyncCam::Params& p) { return std::make_unique<rtl::RtlSyncCam<V>>(p, name); }};
}

template <class V>
rtl::PacketCacheUnderTest packet_cache(const std::string& name, uint32_t entries = 128) {
  return {name, entries, 8, [name](const PacketCache::Params& p, int ports) {
            return std::make_unique<rtl::RtlPacketCache<V>>(p, ports, name);
          }};
}

// The check's result line, and whether it passed.
struct Verdict {
  bool passed;
  std::string report;
};
Verdict check(const rtl::SyncCamUnderTest& block, const rtl::CheckOptions& o = rtl::CheckOptions{}) {
  std::ostringstream out;
  const bool passed = rtl::check_sync_cam(block, o, out);
  return {passed, out.str()};
}
Verdict check(const rtl::PacketCacheUnderTest& block, const rtl::CheckOptions& o = {}) {
  std::ostringstream out;
  const bool passed = rtl::check_packet_cache(block, o, out);
  return {passed, out.str()};
}

// A wrong block: how to check it, and what its report must say.
struct WrongBlock {
  const char* name;
  Verdict (*check)();
  const char* says;
};

class RtlWrongBlocks : public ::testing::TestWithParam<WrongBlock> {};

TEST_P(RtlWrongBlocks, FailTheDefaultCheckAtTheDefaultSize) {
  const Verdict v = GetParam().check();
  EXPECT_FALSE(v.passed) << v.report;
  EXPECT_NE(v.report.find(GetParam().says), std::string::npos) << v.report;
  // One line, naming the seed, the cycle and the call.
  EXPECT_EQ(std::count(v.report.begin(), v.report.end(), '\n'), 1) << v.report;
  EXPECT_NE(v.report.find(", seed "), std::string::npos) << v.report;
  EXPECT_NE(v.report.find(", cycle "), std::string::npos) << v.report;
  std::cout << GetParam().name << ": " << v.report;  // the first mismatch (docs/rtl.md)
}

INSTANTIATE_TEST_SUITE_P(
    Each, RtlWrongBlocks,
    ::testing::Values(
        WrongBlock{"CamTieByAccessOrder",
                   [] { return check(sync_cam<Vmutant_sync_cam_tie_by_access>("tie by access order")); },
                   "lockstep: sync CAM (tie by access order), 24 entries, seed"},
        WrongBlock{"CamTickResumesNothing",
                   [] { return check(sync_cam<Vmutant_sync_cam_tick_resumes_nothing>("tick resumes nothing")); },
                   "tick(): changes differs"},
        WrongBlock{"CamResumesHighestFirst",
                   [] { return check(sync_cam<Vmutant_sync_cam_resume_highest_first>("resume highest first")); },
                   "tick(): changes differs"},
        WrongBlock{"CamComparesTheLow6BitsOfTheVoq",
                   [] { return check(sync_cam<Vmutant_sync_cam_voq_low_6_bits>("VOQ low 6 bits")); },
                   "lockstep: sync CAM (VOQ low 6 bits), 24 entries, seed"},
        WrongBlock{"CamKeeps32BitsOfTime",
                   [] { return check(sync_cam<Vmutant_sync_cam_time_32_bits>("time 32 bits")); },
                   "lockstep: sync CAM (time 32 bits), 24 entries, seed"},
        WrongBlock{"CamCountsPacketsIn16Bits",
                   [] { return check(sync_cam<Vmutant_sync_cam_count_16_bits>("count 16 bits")); },
                   "lockstep: sync CAM (count 16 bits), 24 entries, seed"},
        WrongBlock{"CacheTieByHighestAddress",
                   [] { return check(packet_cache<Vmutant_packet_cache_tie_highest>("tie by highest address")); },
                   "lockstep: packet cache (tie by highest address), 128 entries"},
        WrongBlock{"CacheReadsEndACycleLate",
                   [] { return check(packet_cache<Vmutant_packet_cache_reads_end_late>("reads end late")); },
                   "lockstep: packet cache (reads end late), 128 entries"},
        WrongBlock{"CacheComparesTheLow16BitsOfTheUnit",
                   [] { return check(packet_cache<Vmutant_packet_cache_unit_low_16_bits>("unit low 16 bits")); },
                   "lockstep: packet cache (unit low 16 bits), 128 entries, seed"},
        WrongBlock{"CacheKeeps32BitsOfTime",
                   [] { return check(packet_cache<Vmutant_packet_cache_time_32_bits>("time 32 bits")); },
                   "lockstep: packet cache (time 32 bits), 128 entries, seed"},
        WrongBlock{"CamRegisteredButReportsNoLatency",
                   [] { return check(sync_cam<Vregistered_sync_cam_lying>("registered, reports 0")); },
                   "ahead(voq 0): ahead differs"}),
    [](const ::testing::TestParamInfo<WrongBlock>& info) { return std::string(info.param.name); });

// This build's blocks (ours, or the one the build was configured with) at
// every size, with the default options: no mismatch, no empty bin.
TEST(RtlQualification, ThisBuildsBlocksPassWithEveryBinCovered) {
  std::ostringstream out;
  EXPECT_TRUE(rtl::check_blocks(rtl::CheckOptions{}, out)) << out.str();
  for (uint32_t entries : rtl::sync_cam_sizes())
    EXPECT_NE(out.str().find("sync CAM (" + rtl::sync_cam_source() + "), " + std::to_string(entries) + " entries"),
              std::string::npos)
        << out.str();
  for (uint32_t entries : rtl::packet_cache_sizes())
    EXPECT_NE(
        out.str().find("packet cache (" + rtl::packet_cache_source() + "), " + std::to_string(entries) + " entries"),
        std::string::npos)
        << out.str();
  EXPECT_EQ(out.str().find("FAILED"), std::string::npos) << out.str();
}

// Small sizes reach every bin they can: a CAM of 2 has no tie of three; a
// cache of 4 entries and 8 mirrors can find every entry still being read.
TEST(RtlQualification, OurBlocksAtSmallSizesPassWithEveryBinCovered) {
  for (const Verdict& v : {check(sync_cam<Vtest_sync_cam_2>("ours", 2)), check(sync_cam<Vtest_sync_cam_3>("ours", 3)),
                           check(packet_cache<Vtest_packet_cache_4>("ours", 4))}) {
    EXPECT_TRUE(v.passed) << v.report;
    EXPECT_EQ(v.report.find("FAILED"), std::string::npos) << v.report;
  }
}

TEST(RtlQualification, AShortRunFailsNamingTheBinsAndInputBitsItLeftEmpty) {
  rtl::CheckOptions o;
  o.seeds = 1;
  o.cycles = 100;
  const Verdict v = check(sync_cam<Vregistered_sync_cam_1>("short"), o);
  EXPECT_FALSE(v.passed) << v.report;
  EXPECT_NE(v.report.find("no mismatch; coverage: full "), std::string::npos) << v.report;
  EXPECT_NE(v.report.find("FAILED: coverage bins left empty: "), std::string::npos) << v.report;
  EXPECT_NE(v.report.find(" timeout_one timeout_several "), std::string::npos) << v.report;
  EXPECT_NE(v.report.find(" count_at_max deadline_at_top "), std::string::npos) << v.report;
  // 100 cycles from just below 2^40: the top bits of `now` and of the counts never set.
  EXPECT_NE(v.report.find("FAILED: input bits that never took a value: "), std::string::npos) << v.report;
  EXPECT_NE(v.report.find(" packets[31]=1 "), std::string::npos) << v.report;
  EXPECT_NE(v.report.find(" now[62]=1 "), std::string::npos) << v.report;
  EXPECT_EQ(v.report.find("voq["), std::string::npos) << v.report;  // both ends of the ids come first
}

TEST(RtlQualification, ACamWithRegisteredQueryOutputsPasses) {
  for (const Verdict& v : {check(sync_cam<Vregistered_sync_cam_1>("registered, 1 cycle")),
                           check(sync_cam<Vregistered_sync_cam_2>("registered, 2 cycles"))}) {
    EXPECT_TRUE(v.passed) << v.report;
    EXPECT_EQ(v.report.find("FAILED"), std::string::npos) << v.report;
  }
}

}  // namespace
}  // namespace fabric
#endif
