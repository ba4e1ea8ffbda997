// Partitions served on several threads (sim.threads): the database is the
// same, row for row in every table, for 1, 2 and 3 threads, on a fabric
// with 8 leaves and 8 spines whose run records every kind of row: frames,
// deliveries, drops (a lossy overload), events (link replays at a bit error
// rate, PAUSE of a lossless class) and samples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

Args eight_leaf_run(const std::string& db, const std::string& threads) {
  return Args()
      .opt("--study", "perm640")
      .set("topology.racks=1")
      .set("topology.leaves=8")
      .set("traffic.permutation=random")
      .set("traffic.frame_size=uniform:64:9216")
      .set("errors.leaf_spine.ber=1e-6")
      .set("errors.spine_leaf.ber=1e-6")
      .set("record.sample_interval=2us")
      .set("sim.threads=" + threads)
      .opt("--time", "60us")
      .opt("--seed", "11")
      .opt("--db", db);
}

TEST(Threads, SameDatabaseForOneTwoAndThreeThreads) {
  TempDir dir;
  std::vector<std::vector<std::string>> runs;
  for (const std::string threads : {"1", "2", "3"}) {
    const std::string path = dir.file("t" + threads + ".db");
    const ProcResult r = run_fabricsim(eight_leaf_run(path, threads), 120);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    runs.push_back(database_contents(path));
  }
  Db first(dir.file("t1.db"));
  EXPECT_GT(first.integer("SELECT count(*) FROM frames"), 1000);
  EXPECT_GT(first.integer("SELECT count(*) FROM v_events WHERE kind = 'link_replay'"), 0);
  EXPECT_GT(first.integer("SELECT count(*) FROM v_samples"), 0);
  for (size_t i = 1; i < runs.size(); ++i)
    for (size_t t = 0; t < runs[0].size(); ++t)
      EXPECT_TRUE(runs[0][t] == runs[i][t])
          << "with " << i + 1 << " threads, " << runs[0][t].substr(0, 40) << "... differs from 1 thread";
}

}  // namespace
}  // namespace fabricsim_it
