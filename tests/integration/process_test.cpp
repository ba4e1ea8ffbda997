// The process as a whole (issue 19): fabricsim never restarts itself (it
// once re-executed itself for huge pages and rebuilt its command line from
// at most 64 KiB and 4095 words), and a stop signal at once, before the
// run has its row, writes nothing.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <string>
#include <thread>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// Whether process `pid` has a handler for `signal_number` (SigCgt in /proc/PID/status).
bool catches(pid_t pid, int signal_number) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
    return (mask >> (signal_number - 1)) & 1;
  }
  return false;
}

TEST(Process, ALongCommandLineIsReadWhole) {
  TempDir dir;
  Args args = two_leaf_shift();
  // 5000 words and over 100 KiB before the options that matter.
  for (int i = 0; i < 2500; ++i)
    args.set("flow.padding_flow_with_a_long_name_" + std::to_string(i % 3) + ".priority=0");
  args.set("flow.padding_flow_with_a_long_name_0.src=0").set("flow.padding_flow_with_a_long_name_0.dst=5");
  args.set("flow.padding_flow_with_a_long_name_1.src=1").set("flow.padding_flow_with_a_long_name_1.dst=6");
  args.set("flow.padding_flow_with_a_long_name_2.src=2").set("flow.padding_flow_with_a_long_name_2.dst=7");
  const std::string db_path = dir.file("long.db");
  args.opt("--seed", "7").opt("--time", "2us").opt("--db", db_path);
  size_t bytes = 0;
  for (const std::string& word : args.v) bytes += word.size() + 1;
  ASSERT_GT(bytes, size_t{100'000});
  ASSERT_GT(args.v.size(), size_t{5000});
  const ProcResult r = run_fabricsim(args, 120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(db_path);
  EXPECT_EQ(db.dump("SELECT seed, sim_time_ps, status FROM runs"), "7|2000000|done\n");
}

TEST(Process, AStopWhileTheModelIsBuiltEndsAtOnceAndWritesNothing) {
  TempDir dir;
  const std::string db_path = dir.file("early.db");
  // The signal comes as soon as fabricsim handles it, while it reads its
  // configuration and builds the full system.
  const Background bg =
      start_fabricsim(Args().opt("--study", "perm640").opt("--time", "10us").opt("--db", db_path), dir);
  const double started = now_seconds();
  while (!catches(bg.pid, SIGTERM) && now_seconds() - started < 10)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  const double sent = now_seconds();
  kill(bg.pid, SIGTERM);
  const ProcResult r = wait_fabricsim(bg, 60);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.describe();
  EXPECT_LT(now_seconds() - sent, 1.0) << "the stop took effect late";
  EXPECT_NE(r.err.find("stopped before the run started; nothing was recorded"), std::string::npos) << r.err;
  if (file_exists(db_path)) {
    Db db(db_path);
    if (db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'runs'") > 0) {
      EXPECT_EQ(db.integer("SELECT count(*) FROM runs"), 0);
    }
  }
}

// Ctrl-C was once seen only between progress slices (up to a second of
// simulated time, hours of wall time): now within one window of the model.
TEST(Process, CtrlCStopsWithinAWindowWhateverTheProgressSlice) {
  TempDir dir;
  const std::string db_path = dir.file("slice.db");
  // Stopped long before the 6 GB a whole second would write (record.max_db_bytes).
  const Background bg = start_fabricsim(two_leaf_shift()
                                            .set("sim.progress_slice=1s")
                                            .set("record.max_db_bytes=8GB")
                                            .opt("--time", "1s")
                                            .opt("--db", db_path),
                                        dir);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const double sent = now_seconds();
  kill(bg.pid, SIGINT);
  const ProcResult r = wait_fabricsim(bg, 60);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 130) << r.describe();
  EXPECT_LT(now_seconds() - sent, 1.0) << "Ctrl-C took effect late";
  Db db(db_path);
  EXPECT_EQ(db.text("SELECT status FROM runs"), "interrupted");
  EXPECT_GT(db.integer("SELECT sim_time_ps FROM runs"), 0);
  EXPECT_LT(db.integer("SELECT sim_time_ps FROM runs"), 1'000'000'000'000);
  EXPECT_GT(db.integer("SELECT count(*) FROM deliveries"), 0);
}

}  // namespace
}  // namespace fabricsim_it
