// read_goal on LogGOPSim's own example schedules (tests/data/goal, see its
// README) and on small texts for the grammar's corners: comments, CRLF,
// calc units, irequires, ignored cpu/nic. The errors are in
// goal_reader_errors_test.cpp.
#include "traffic/jobs/goal_reader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <tuple>

namespace fabric::traffic {
namespace {

namespace fs = std::filesystem;

const char* const kKey = "job.train.schedule";

// $FABRICSIM_SOURCE_DIR (CTest sets it), else the tree this file is in.
std::string goal_data(const std::string& name) {
  const char* env = std::getenv("FABRICSIM_SOURCE_DIR");
  const fs::path root = env != nullptr ? fs::path(env) : fs::path(__FILE__).parent_path().parent_path().parent_path();
  return (root / "tests" / "data" / "goal" / name).string();
}

JobSchedule read_text(const std::string& text, Picos calc_unit_ps = 1000) {
  std::istringstream in(text);
  return read_goal(in, kKey, "text.goal", calc_unit_ps);
}

// The messages of a schedule as MPI would match them: per (source,
// destination, tag), the sizes of the sends in the source's order must be
// the sizes of the recvs in the destination's order. Also: bytes sent =
// bytes received.
void expect_sends_meet_recvs(const JobSchedule& s) {
  using Channel = std::tuple<int32_t, int32_t, uint32_t>;
  std::map<Channel, std::vector<uint64_t>> sent, received;
  uint64_t bytes_sent = 0, bytes_received = 0;
  for (int rank = 0; rank < s.size(); ++rank) {
    for (const JobOp& op : s.ranks[static_cast<size_t>(rank)].ops) {
      if (op.kind == JobOpKind::send) {
        sent[{rank, op.peer, op.tag}].push_back(op.bytes);
        bytes_sent += op.bytes;
      } else if (op.kind == JobOpKind::recv) {
        received[{op.peer, rank, op.tag}].push_back(op.bytes);
        bytes_received += op.bytes;
      }
    }
  }
  EXPECT_EQ(sent, received);
  EXPECT_EQ(bytes_sent, bytes_received);
  EXPECT_GT(bytes_sent, 0u);
}

void expect_goal_shape(const JobSchedule& s, int ranks) {
  EXPECT_EQ(s.algorithm, "goal");
  EXPECT_EQ(s.size(), ranks);
  EXPECT_EQ(s.steps, 1u);
  EXPECT_TRUE(s.groups.empty());
  for (const RankSchedule& r : s.ranks) {
    for (const JobOp& op : r.ops) {
      EXPECT_EQ(op.step, 0u);
      EXPECT_EQ(op.group, -1);
    }
  }
}

void expect_op(const JobOp& op, JobOpKind kind, int peer, uint64_t bytes, uint32_t tag,
               std::vector<uint32_t> after = {}) {
  EXPECT_EQ(op.kind, kind);
  EXPECT_EQ(op.peer, peer);
  EXPECT_EQ(op.bytes, bytes);
  EXPECT_EQ(op.tag, tag);
  EXPECT_EQ(op.after, after);
  EXPECT_TRUE(op.after_start.empty());
}

// Schedgen's binomial tree broadcast: rank r > 0 receives once from r minus
// its highest bit, then sends to r + 2^k for every 2^k above r.
void expect_binomial_broadcast(const JobSchedule& s, int n) {
  expect_goal_shape(s, n);
  for (int r = 0; r < n; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const std::vector<JobOp>& ops = s.ranks[static_cast<size_t>(r)].ops;
    int bit = 1;
    while (bit <= r) bit *= 2;
    size_t i = 0;
    if (r > 0) {
      ASSERT_GE(ops.size(), 1u);
      expect_op(ops[i++], JobOpKind::recv, r - bit / 2, 1, 0);
    }
    for (; r + bit < n; bit *= 2) {
      ASSERT_LT(i, ops.size());
      expect_op(ops[i++], JobOpKind::send, r + bit, 1, 0, r > 0 ? std::vector<uint32_t>{0} : std::vector<uint32_t>{});
    }
    EXPECT_EQ(ops.size(), i);
  }
  EXPECT_EQ(s.operations(), 2u * static_cast<uint64_t>(n - 1)) << "one send and one recv for each rank but the root";
  expect_sends_meet_recvs(s);
}

// The dissemination barrier: in round i rank r sends to r + 2^i and
// receives from r - 2^i, and each round's send waits for the previous recv.
void expect_dissemination(const JobSchedule& s, int n, int rounds) {
  expect_goal_shape(s, n);
  for (int r = 0; r < n; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const std::vector<JobOp>& ops = s.ranks[static_cast<size_t>(r)].ops;
    ASSERT_EQ(ops.size(), 2u * static_cast<size_t>(rounds));
    for (int i = 0; i < rounds; ++i) {
      const int distance = 1 << i;
      const auto send = static_cast<uint32_t>(2 * i);
      expect_op(ops[send], JobOpKind::send, (r + distance) % n, 1, 0,
                i == 0 ? std::vector<uint32_t>{} : std::vector<uint32_t>{send - 1});
      expect_op(ops[send + 1], JobOpKind::recv, (r - distance + n) % n, 1, 0);
    }
  }
  expect_sends_meet_recvs(s);
}

TEST(GoalReaderExamples, BinaryTree16) {
  const JobSchedule s = read_goal_file(goal_data("binary_tree_16.goal"), kKey);
  expect_binomial_broadcast(s, 16);
  EXPECT_EQ(s.ranks[0].ops.size(), 4u);
  EXPECT_EQ(s.ranks[1].ops.size(), 4u);  // recv from 0, sends to 3, 5, 9
  EXPECT_EQ(s.ranks[1].ops[3].peer, 9);
  EXPECT_EQ(s.ranks[15].ops.size(), 1u);
  EXPECT_EQ(s.ranks[15].ops[0].peer, 7);
}

TEST(GoalReaderExamples, BinaryTree32) {
  const JobSchedule s = read_goal_file(goal_data("binary_tree_32.goal"), kKey);
  expect_binomial_broadcast(s, 32);
  EXPECT_EQ(s.ranks[0].ops.size(), 5u);
  EXPECT_EQ(s.ranks[0].ops[4].peer, 16);
  EXPECT_EQ(s.ranks[5].ops.size(), 3u);  // recv from 1, sends to 13 and 21
  EXPECT_EQ(s.ranks[5].ops[2].peer, 21);
}

TEST(GoalReaderExamples, Dissemination16) {
  const JobSchedule s = read_goal_file(goal_data("dissemination_16.goal"), kKey);
  expect_dissemination(s, 16, 4);
  EXPECT_EQ(s.operations(), 128u);
  expect_op(s.ranks[8].ops[6], JobOpKind::send, 0, 1, 0, {5});
}

TEST(GoalReaderExamples, Dissemination32) {
  const JobSchedule s = read_goal_file(goal_data("dissemination_32.goal"), kKey);
  expect_dissemination(s, 32, 5);
  EXPECT_EQ(s.operations(), 320u);
  expect_op(s.ranks[17].ops[9], JobOpKind::recv, 1, 1, 0);
}

// Schedgen2's binomial tree broadcast of 8 B over 8 ranks: tag 42001, and
// labels numbered across the file (l4 .. l14) though each is local to its block.
TEST(GoalReaderExamples, Schedgen2Schedule) {
  const JobSchedule s = read_goal_file(goal_data("schedgen2_schedule.goal"), kKey);
  expect_goal_shape(s, 8);
  EXPECT_EQ(s.operations(), 14u);
  const std::vector<size_t> ops_per_rank = {3, 3, 2, 2, 1, 1, 1, 1};
  for (size_t r = 0; r < ops_per_rank.size(); ++r) EXPECT_EQ(s.ranks[r].ops.size(), ops_per_rank[r]) << r;
  expect_op(s.ranks[0].ops[2], JobOpKind::send, 4, 8, 42001);
  expect_op(s.ranks[1].ops[0], JobOpKind::recv, 0, 8, 42001);
  expect_op(s.ranks[1].ops[1], JobOpKind::send, 3, 8, 42001, {0});
  expect_op(s.ranks[1].ops[2], JobOpKind::send, 5, 8, 42001, {0});
  expect_op(s.ranks[7].ops[0], JobOpKind::recv, 3, 8, 42001);
  expect_sends_meet_recvs(s);
}

TEST(GoalReaderSyntax, CommentsBlankLinesAndCrlf) {
  const JobSchedule s = read_text(
      "// a ping-pong\r\n"
      "num_ranks 2 /* two ranks */\r\n"
      "\r\n"
      "/* rank 0 starts;\r\n"
      "   rank 1 answers */\r\n"
      "rank 0{\r\n"
      "  ping: send 64 b to 1 tag 5   // blanks before \"b\" are allowed\r\n"
      "\tpong: recv 32b from 1 tag 6\r\n"
      "pong requires ping\r\n"
      "}\r\n"
      "rank 1 {\r\n"
      "/* x */ ping: recv 64b from 0 tag 5\r\n"
      "pong: send 32b to 0 tag 6\r\n"
      "pong requires ping /* answer once received */\r\n"
      "}");
  expect_goal_shape(s, 2);
  ASSERT_EQ(s.ranks[0].ops.size(), 2u);
  ASSERT_EQ(s.ranks[1].ops.size(), 2u);
  expect_op(s.ranks[0].ops[0], JobOpKind::send, 1, 64, 5);
  expect_op(s.ranks[0].ops[1], JobOpKind::recv, 1, 32, 6, {0});
  expect_op(s.ranks[1].ops[0], JobOpKind::recv, 0, 64, 5);
  expect_op(s.ranks[1].ops[1], JobOpKind::send, 0, 32, 6, {0});
  expect_sends_meet_recvs(s);
}

TEST(GoalReaderSyntax, CalcTimesScaleByTheCalcUnit) {
  const std::string text = "num_ranks 1\nrank 0 {\nl1: calc 1500\ncalc 0 cpu 3\n}\n";
  const JobSchedule ns = read_text(text);
  ASSERT_EQ(ns.ranks[0].ops.size(), 2u);
  EXPECT_EQ(ns.ranks[0].ops[0].kind, JobOpKind::calc);
  EXPECT_EQ(ns.ranks[0].ops[0].duration, 1'500'000) << "1500 ns in ps";
  EXPECT_EQ(ns.ranks[0].ops[0].bytes, 0u);
  EXPECT_EQ(ns.ranks[0].ops[1].duration, 0);
  EXPECT_EQ(read_text(text, 1).ranks[0].ops[0].duration, 1500);
  EXPECT_EQ(read_text(text, 1'000'000).ranks[0].ops[0].duration, 1'500'000'000) << "1500 us";
  // The largest calc the unit allows: 2^63 - 1 ps, rounded down to the unit.
  const JobSchedule longest = read_text("num_ranks 1\nrank 0 {\ncalc 9223372036854775\n}\n");
  EXPECT_EQ(longest.ranks[0].ops[0].duration, 9'223'372'036'854'775'000);
}

TEST(GoalReaderSyntax, IrequiresWaitsForAStartRequiresForACompletion) {
  const JobSchedule s = read_text(
      "num_ranks 2\n"
      "rank 0 {\n"
      "a: calc 10\n"
      "b: send 8b to 1\n"
      "c: calc 20\n"
      "b irequires a\n"
      "c requires b\n"
      "c irequires a\n"
      "c requires b\n"  // said twice, waited for once
      "}\n"
      "rank 1 {\n"
      "recv 8b from 0\n"
      "}\n");
  const std::vector<JobOp>& ops = s.ranks[0].ops;
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_TRUE(ops[0].after.empty());
  EXPECT_EQ(ops[1].after_start, std::vector<uint32_t>{0});
  EXPECT_TRUE(ops[1].after.empty());
  EXPECT_EQ(ops[2].after, std::vector<uint32_t>{1});
  EXPECT_EQ(ops[2].after_start, std::vector<uint32_t>{0});
  EXPECT_EQ(ops[1].tag, 0u) << "tags default to 0";
  EXPECT_EQ(s.ranks[1].ops[0].tag, 0u);
}

TEST(GoalReaderSyntax, CpuAndNicAreAcceptedAndIgnored) {
  const JobSchedule s = read_text(
      "num_ranks 3\n"
      "rank 2 {\n"
      "s1: send 4096b to 0 tag 9 cpu 1 nic 2\n"
      "s2: send 1b to 1 cpu 0\n"
      "r1: recv 7b from 1 nic 1\n"
      "}\n");
  ASSERT_EQ(s.ranks[2].ops.size(), 3u);
  expect_op(s.ranks[2].ops[0], JobOpKind::send, 0, 4096, 9);
  expect_op(s.ranks[2].ops[1], JobOpKind::send, 1, 1, 0);
  expect_op(s.ranks[2].ops[2], JobOpKind::recv, 1, 7, 0);
  EXPECT_TRUE(s.ranks[0].ops.empty()) << "a rank without a block has no ops";
  EXPECT_TRUE(s.ranks[1].ops.empty());
}

TEST(GoalReaderSyntax, LabelsAreLocalToTheirBlockAndOpsKeepTheirOrder) {
  const JobSchedule s = read_text(
      "num_ranks 2\n"
      "rank 1 {\n"
      "x: recv 2b from 0\n"
      "y: recv 1b from 0\n"
      "}\n"
      "rank 0 {\n"
      "y: send 1b to 1\n"
      "x: send 2b to 1\n"
      "x requires y\n"
      "}\n");
  expect_op(s.ranks[0].ops[0], JobOpKind::send, 1, 1, 0);
  expect_op(s.ranks[0].ops[1], JobOpKind::send, 1, 2, 0, {0});
  expect_op(s.ranks[1].ops[0], JobOpKind::recv, 0, 2, 0);
  expect_op(s.ranks[1].ops[1], JobOpKind::recv, 0, 1, 0);
}

TEST(GoalReaderSyntax, LargestSizesAndTags) {
  const JobSchedule s = read_text("num_ranks 2\nrank 0 {\nsend 9223372036854775807b to 1 tag 4294967295\n}\n");
  EXPECT_EQ(s.ranks[0].ops[0].bytes, 9'223'372'036'854'775'807u);
  EXPECT_EQ(s.ranks[0].ops[0].tag, 4'294'967'295u);
}

}  // namespace
}  // namespace fabric::traffic
