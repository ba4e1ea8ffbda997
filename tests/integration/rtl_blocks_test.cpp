// The multicast blocks on RTL (leaf.sync.impl, leaf.cache.impl): E1b, E2b
// and E4e in lockstep with the C++ model run to the end without a mismatch,
// and their databases are those of the model's runs, row for row. Bad
// choices are refused (exit 2) naming the key. The blocks and sizes are
// this build's (ours, or a user's: FABRICSIM_RTL_*).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "model/multicast/rtl_blocks.h"
#include "platforms/app/parameters.h"
#include "platforms/app/study_catalog.h"
#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

bool built(const std::vector<uint32_t>& sizes, int64_t entries) {
  return std::find(sizes.begin(), sizes.end(), entries) != sizes.end();
}

// The study at sizes this build verilated: the study's own where the build
// has them, else the build's first size, set on the command line of the
// model's run and the RTL's alike (a build with other sizes, or a user's
// block, still runs every study in lockstep).
Args study_at_built_sizes(const std::string& name) {
  Args args = Args().opt("--study", name);
  if (!fabric::rtl::available()) return args;
  const fabric::config::ParamRegistry registry = fabric::build_registry();
  fabric::config::Config config(registry);
  config.load_ini(fabric::find_study(name).value().path);
  const std::vector<uint32_t> sync = fabric::rtl::sync_cam_sizes(), cache = fabric::rtl::packet_cache_sizes();
  if (!built(sync, config.get_int("leaf.sync.entries"))) args.set("leaf.sync.entries=" + std::to_string(sync.front()));
  if (!built(cache, config.get_int("leaf.cache.entries")))
    args.set("leaf.cache.entries=" + std::to_string(cache.front()));
  if (config.get_int("leaf.cache.mirrors") != fabric::rtl::packet_cache_mirrors())
    args.set("leaf.cache.mirrors=" + std::to_string(fabric::rtl::packet_cache_mirrors()));
  return args;
}

Args study(const std::string& name, const std::string& db, const std::string& impl) {
  return study_at_built_sizes(name).set("leaf.sync.impl=" + impl).set("leaf.cache.impl=" + impl).opt("--db", db);
}

// A size from `from` up that this build did not verilate, and the sizes it
// did as a run's refusal lists them.
uint32_t not_built(const std::vector<uint32_t>& sizes, uint32_t from) {
  while (built(sizes, from)) ++from;
  return from;
}
std::string listed(const std::vector<uint32_t>& sizes) {
  std::string text;
  for (uint32_t n : sizes) text += (text.empty() ? "" : ", ") + std::to_string(n);
  return text;
}

class RtlStudies : public ::testing::TestWithParam<std::string> {};

TEST_P(RtlStudies, LockstepFindsNoMismatchAndTheDatabaseIsTheModels) {
  if (!fabric::rtl::available()) GTEST_SKIP() << fabric::rtl::unavailable_reason();
  TempDir dir;
  const ProcResult model = run_fabricsim(study(GetParam(), dir.file("model.db"), "model"), 120);
  ASSERT_TRUE(model.exited && model.exit_code == 0) << model.describe();
  const ProcResult lockstep = run_fabricsim(study(GetParam(), dir.file("lockstep.db"), "lockstep"), 300);
  ASSERT_TRUE(lockstep.exited && lockstep.exit_code == 0) << lockstep.describe();
  const auto expected = database_contents(dir.file("model.db"));
  const auto got = database_contents(dir.file("lockstep.db"));
  for (size_t t = 0; t < expected.size(); ++t)
    EXPECT_TRUE(expected[t] == got[t]) << expected[t].substr(0, 40) << "... differs in lockstep";
  Db db(dir.file("lockstep.db"));
  EXPECT_GT(db.integer("SELECT count(*) FROM v_samples WHERE metric = 'cache_hits' AND value > 0"), 0)
      << "the cache did work";
}

INSTANTIATE_TEST_SUITE_P(Each, RtlStudies, ::testing::Values("E1b", "E2b", "E4e"));

int64_t file_size(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  return f ? static_cast<int64_t>(f.tellg()) : -1;
}

// rtl.trace: one FST file per block of the chosen leaf, complete when the run
// ends (no hierarchy file left over), with the window's edges only.
TEST(RtlBlocks, WaveformsOfOneLeafsBlocksWithinTheWindow) {
  if (!fabric::rtl::available()) GTEST_SKIP() << fabric::rtl::unavailable_reason();
  TempDir dir;
  const auto traced = [&](const std::string& stem, const std::string& from, const std::string& until) {
    const ProcResult r = run_fabricsim(study("E2b", dir.file(stem + ".db"), "rtl")
                                           .opt("--time", "40us")
                                           .set("rtl.trace=" + dir.file(stem + ".fst"))
                                           .set("rtl.trace.from=" + from)
                                           .set("rtl.trace.until=" + until));
    EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  };
  traced("busy", "10us", "20us");
  traced("idle", "50us", "60us");                            // after the run: no edge in the window
  for (const std::string block : {"cache", "port0.sync"}) {  // the blocks the multicast flow uses
    const std::string busy = dir.file("busy." + block + ".fst");
    std::ifstream f(busy, std::ios::binary);
    ASSERT_TRUE(f.good()) << busy;
    EXPECT_EQ(f.get(), 0) << "an FST header block first";
    EXPECT_EQ(file_size(busy + ".hier"), -1) << "the file was closed";
    EXPECT_GT(file_size(busy), file_size(dir.file("idle." + block + ".fst"))) << block;
  }
  EXPECT_GT(file_size(dir.file("busy.cache.fst")), 10000);
  EXPECT_GT(file_size(dir.file("busy.port5.sync.fst")), 0) << "every block of the leaf";
  EXPECT_EQ(file_size(dir.file("busy.port6.sync.fst")), -1) << "a leaf has ports 0-5";
}

TEST(RtlBlocks, BadChoicesAreRefusedNamingTheKey) {
  TempDir dir;
  const ProcResult unknown =
      run_fabricsim(Args().opt("--study", "E2b").set("leaf.cache.impl=verilog").opt("--db", dir.file("a.db")));
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("leaf.cache.impl"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("model, rtl, lockstep"), std::string::npos) << unknown.err;
  if (!fabric::rtl::available()) {
    const ProcResult absent =
        run_fabricsim(Args().opt("--study", "E2b").set("leaf.sync.impl=rtl").opt("--db", dir.file("b.db")));
    EXPECT_EQ(absent.exit_code, 2);
    EXPECT_NE(absent.err.find("leaf.sync.impl"), std::string::npos) << absent.err;
    return;
  }
  const std::vector<uint32_t> cache_sizes = fabric::rtl::packet_cache_sizes();
  const ProcResult size = run_fabricsim(Args()
                                            .opt("--study", "E2b")
                                            .set("leaf.cache.impl=rtl")
                                            .set("leaf.cache.entries=" + std::to_string(not_built(cache_sizes, 20)))
                                            .opt("--db", dir.file("c.db")));
  EXPECT_EQ(size.exit_code, 2);
  EXPECT_NE(size.err.find("leaf.cache.entries"), std::string::npos) << size.err;
  EXPECT_NE(size.err.find(listed(cache_sizes)), std::string::npos) << size.err;
  const ProcResult sync_size =
      run_fabricsim(Args()
                        .opt("--study", "E2b")
                        .set("leaf.sync.impl=lockstep")
                        .set("leaf.sync.entries=" + std::to_string(not_built(fabric::rtl::sync_cam_sizes(), 8)))
                        .opt("--db", dir.file("d.db")));
  EXPECT_EQ(sync_size.exit_code, 2);
  EXPECT_NE(sync_size.err.find("leaf.sync.entries"), std::string::npos) << sync_size.err;
  EXPECT_FALSE(std::ifstream(dir.file("c.db")).good()) << "refused before anything is written";
  const ProcResult trace =
      run_fabricsim(Args().opt("--study", "E2b").set("rtl.trace=" + dir.file("w.fst")).opt("--db", dir.file("e.db")));
  EXPECT_EQ(trace.exit_code, 2);
  EXPECT_NE(trace.err.find("rtl.trace"), std::string::npos) << trace.err;
  const ProcResult name = run_fabricsim(study_at_built_sizes("E2b")
                                            .set("leaf.cache.impl=rtl")
                                            .set("rtl.trace=" + dir.file("w.vcd"))
                                            .opt("--db", dir.file("f.db")));
  EXPECT_EQ(name.exit_code, 2);
  EXPECT_NE(name.err.find("ending in .fst"), std::string::npos) << name.err;
  // Issue 37: a directory that does not exist, a window that ends before it
  // starts, a leaf the fabric does not have, and window keys without a trace
  // are refused naming the key, never an uncaught exception.
  const auto refused = [&](Args args, const std::string& key, const std::string& db) {
    const ProcResult r = run_fabricsim(args.opt("--db", dir.file(db)));
    EXPECT_EQ(r.exit_code, 2) << key << ": " << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
    EXPECT_FALSE(std::ifstream(dir.file(db)).good()) << key << ": refused before anything is written";
  };
  refused(study_at_built_sizes("E2b").set("leaf.sync.impl=rtl").set("rtl.trace=" + dir.file("nosuchdir/w.fst")),
          "rtl.trace", "g.db");
  refused(study_at_built_sizes("E2b")
              .set("leaf.sync.impl=rtl")
              .set("rtl.trace=" + dir.file("w.fst"))
              .set("rtl.trace.from=20us")
              .set("rtl.trace.until=10us"),
          "rtl.trace.until", "h.db");
  refused(study_at_built_sizes("E2b")
              .set("leaf.sync.impl=rtl")
              .set("rtl.trace=" + dir.file("w.fst"))
              .set("rtl.trace.leaf=999"),
          "rtl.trace.leaf", "i.db");
  refused(Args().opt("--study", "E2b").set("rtl.trace.leaf=3"), "rtl.trace.leaf", "j.db");
}

}  // namespace
}  // namespace fabricsim_it
