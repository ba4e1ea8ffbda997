// The size a run adds to its database, estimated before it runs (issue 52,
// N13): a run above record.max_db_bytes or the free space of the file's
// disk is refused before anything is written, with the estimate and the
// ways out; the estimate is near what the run writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>

#include "platforms/app/database_size.h"
#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

using fabric::DatabaseGrowth;

int64_t bytes_on_disk(const std::string& db) {
  int64_t bytes = 0;
  for (const char* end : {"", "-wal"}) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(db + end, ec);
    if (!ec) bytes += static_cast<int64_t>(size);
  }
  return bytes;
}

void expect_one_line(const std::string& err) { EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err; }

// The example of the issue: 640 ports at line rate for 100 ms, every frame
// recorded, about 40 GB; it used to start without a word.
TEST(DatabaseSize, TheFullSystemRecordedForAHundredMillisecondsIsRefused) {
  TempDir dir;
  const std::string db = dir.file("big.db");
  const ProcResult r = run_fabricsim(
      Args().opt("--study", "perm640").opt("--time", "100ms").opt("--record", "frames").opt("--db", db), 120);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  expect_one_line(r.err);
  const std::smatch about = [&] {
    std::smatch m;
    std::regex_search(r.err, m, std::regex(R"(would add about ([0-9.]+) GB)"));
    return m;
  }();
  ASSERT_FALSE(about.empty()) << r.err;
  EXPECT_GT(std::stod(about[1]), 20.0) << r.err;  // about 40 GB: within a factor of 2
  EXPECT_LT(std::stod(about[1]), 80.0) << r.err;
  for (const char* said : {"record.max_db_bytes has value '4GB'", "518.8 M frames", "--record summary: about",
                           "a shorter --time: 10ms fits"})
    EXPECT_NE(r.err.find(said), std::string::npos) << said << "\n" << r.err;
  // Raising the limit is offered where the disk has room for the run; where it has not, another disk.
  EXPECT_TRUE(r.err.find("--set record.max_db_bytes=") != std::string::npos ||
              r.err.find("a --db on a disk with room") != std::string::npos)
      << r.err;
  EXPECT_FALSE(file_exists(db)) << "refused, yet the file was made";
}

TEST(DatabaseSize, ASmallLimitRefusesARunAndARaisedOneLetsItRun) {
  TempDir dir;
  const std::string db = dir.file("small.db");
  const Args run = two_leaf_shift().opt("--time", "200us").opt("--db", db);
  Args limited = run;
  const ProcResult refused = run_fabricsim(limited.set("record.max_db_bytes=100KB"));
  ASSERT_TRUE(refused.exited) << refused.describe();
  EXPECT_EQ(refused.exit_code, 2) << refused.describe();
  expect_one_line(refused.err);
  EXPECT_NE(refused.err.find("record.max_db_bytes has value '100KB': this run would add about"), std::string::npos)
      << refused.err;
  EXPECT_FALSE(file_exists(db));
  Args raised = run;
  const ProcResult ran = run_fabricsim(raised.set("record.max_db_bytes=100MB"));
  ASSERT_TRUE(ran.exited && ran.exit_code == 0) << ran.describe();
  // The guard cannot change what the run simulates: it is no run parameter.
  Db database(db);
  EXPECT_EQ(database.integer("SELECT count(*) FROM run_params WHERE key = 'record.max_db_bytes'"), 0);
}

// What the refusal says the run adds, against what the same run writes.
TEST(DatabaseSize, TheEstimateIsWithinAFactorOfTwoOfTheFile) {
  TempDir dir;
  const std::string db = dir.file("measured.db");
  const Args run = two_leaf_shift().opt("--time", "500us").opt("--db", db);
  Args limited = run;
  const ProcResult refused = run_fabricsim(limited.set("record.max_db_bytes=1B"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(refused.err, m, std::regex(R"(would add about ([0-9.]+) MB)"))) << refused.err;
  const double estimate = std::stod(m[1]) * 1e6;
  const ProcResult ran = run_fabricsim(run);
  ASSERT_TRUE(ran.exited && ran.exit_code == 0) << ran.describe();
  const double actual = static_cast<double>(bytes_on_disk(db));
  EXPECT_GT(estimate, actual / 2) << estimate << " estimated, " << actual << " written";
  EXPECT_LT(estimate, actual * 2) << estimate << " estimated, " << actual << " written";
}

// The rows of the estimate, from the offered load.
TEST(DatabaseSize, FramesAndCopiesFollowTheOfferedLoad) {
  fabric::traffic::FlowSpec unicast;
  unicast.rate_gbps = 100;  // 1522 B frames: 1542 B on the wire
  fabric::traffic::FlowSpec multicast = unicast;
  multicast.multicast = true;
  multicast.dests.resize(4);
  multicast.schedule = {{0, 250'000'000}, {750'000'000, 2'000'000'000}};  // on for 0.5 of the 1 ms
  const DatabaseGrowth g = fabric::estimate_database_growth({unicast, multicast}, 1'000'000'000, 1000, true);
  const double frames_per_ms = 100e9 * 1e-3 / (1542 * 8);
  EXPECT_NEAR(g.frames, 1.5 * frames_per_ms, 1e-6);
  EXPECT_NEAR(g.copies, frames_per_ms + 4 * 0.5 * frames_per_ms, 1e-6);
  EXPECT_EQ(g.samples, 1000);
  EXPECT_GT(g.bytes(), g.bytes_recording_summary());
  EXPECT_EQ(fabric::estimate_database_growth({unicast}, 1'000'000'000, 1000, false).bytes(),
            g.bytes_recording_summary());
}

// A run larger than the disk's free space names --db, not the guard (raising it would not help).
TEST(DatabaseSize, ARunTheDiskCannotHoldNamesTheDisk) {
  DatabaseGrowth g;
  g.frames = g.copies = 1e6;
  const auto problem = fabric::database_size_problem(g, 1'000'000'000, int64_t{4} << 30, 1e6, "x.db");
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("--db has value 'x.db': this run would add about"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("1.0 MB free on its disk"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("a --db on a disk with room"), std::string::npos) << *problem;
  EXPECT_EQ(problem->find("raise the guard"), std::string::npos) << *problem;
  EXPECT_FALSE(fabric::database_size_problem(g, 1'000'000'000, int64_t{4} << 30, 1e12, "x.db"));
}

}  // namespace
}  // namespace fabricsim_it
