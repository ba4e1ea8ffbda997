// A run its file cannot hold (issue 52, N13): past the file size limit
// (ulimit -f, which SIGXFSZ used to end unsaid; a full disk alike) fabricsim
// says so in one line, marks its run interrupted with the rows it committed
// and exits 1; the runs before it are intact and the next run continues.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// Runs `args` with the file size limit (RLIMIT_FSIZE, ulimit -f) at `bytes`.
ProcResult run_with_file_size_limit(const Args& args, rlim_t bytes) {
  rlimit before{};
  getrlimit(RLIMIT_FSIZE, &before);
  rlimit limited = before;
  limited.rlim_cur = bytes;
  if (setrlimit(RLIMIT_FSIZE, &limited) != 0) throw std::runtime_error("setrlimit(RLIMIT_FSIZE) failed");
  const ProcResult r = run_fabricsim(args, 120);  // the child inherits the limit
  setrlimit(RLIMIT_FSIZE, &before);
  return r;
}

rlim_t largest_file(const std::string& db) {
  std::uintmax_t largest = 0;
  for (const char* end : {"", "-wal", "-shm"}) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(db + end, ec);
    if (!ec) largest = std::max(largest, size);
  }
  return static_cast<rlim_t>(largest);
}

TEST(FileSizeLimit, ARunPastTheLimitIsCutShortAndTheFileStaysWhole) {
  TempDir dir;
  const std::string db = dir.file("limited.db");
  const ProcResult first = run_fabricsim(two_leaf_shift().opt("--time", "20us").opt("--db", db));
  ASSERT_TRUE(first.exited && first.exit_code == 0) << first.describe();
  const std::string run_1_rows = [&] {
    Db d(db);
    return d.dump(
        "SELECT (SELECT count(*) FROM frames WHERE run_id = 1), (SELECT count(*) FROM deliveries "
        "WHERE run_id = 1), (SELECT count(*) FROM samples WHERE run_id = 1), sim_time_ps, status "
        "FROM runs WHERE run_id = 1");
  }();

  // 10 ports at line rate for 5 ms write about 30 MB; the limit stops it after 2.
  const ProcResult cut = run_with_file_size_limit(two_leaf_shift().opt("--time", "5ms").opt("--db", db),
                                                  largest_file(db) + (rlim_t{2} << 20));
  ASSERT_TRUE(cut.exited) << "ended by a signal: " << cut.describe();
  EXPECT_EQ(cut.exit_code, 1) << cut.describe();
  EXPECT_EQ(std::count(cut.err.begin(), cut.err.end(), '\n'), 1) << cut.err;
  for (const char* said : {"the file reached the largest size this process may write (ulimit -f)", "run 2 is cut short",
                           "it is marked interrupted", "the runs before it are intact", "--record summary"})
    EXPECT_NE(cut.err.find(said), std::string::npos) << said << "\n" << cut.err;

  Db d(db);
  EXPECT_EQ(d.text("PRAGMA integrity_check"), "ok");
  EXPECT_EQ(d.dump("SELECT (SELECT count(*) FROM frames WHERE run_id = 1), (SELECT count(*) FROM deliveries "
                   "WHERE run_id = 1), (SELECT count(*) FROM samples WHERE run_id = 1), sim_time_ps, status "
                   "FROM runs WHERE run_id = 1"),
            run_1_rows);
  EXPECT_EQ(d.text("SELECT status FROM runs WHERE run_id = 2"), "interrupted");
  const int64_t reached = d.integer("SELECT sim_time_ps FROM runs WHERE run_id = 2");
  EXPECT_GT(reached, 0);
  EXPECT_LT(reached, 5'000'000'000);
  // What it committed before the limit is kept.
  EXPECT_GT(d.integer("SELECT count(*) FROM deliveries WHERE run_id = 2"), 0);
  EXPECT_EQ(d.integer("SELECT count(*) FROM run_owners"), 0);

  const ProcResult next = run_fabricsim(two_leaf_shift().opt("--time", "20us").opt("--db", db));
  ASSERT_TRUE(next.exited && next.exit_code == 0) << next.describe();
  EXPECT_EQ(d.dump("SELECT run_id, status FROM runs ORDER BY run_id"), "1|done\n2|interrupted\n3|done\n");
}

}  // namespace
}  // namespace fabricsim_it
