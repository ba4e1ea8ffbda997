// read_goal's refusals: each a ConfigError naming the configuration key,
// the offending line's text, what was expected there and "file:line"; and
// dependency_cycle, which finds the ops that could never start.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/config_error_of.h"
#include "tests/support/temp_file.h"
#include "traffic/jobs/dependency_cycle.h"
#include "traffic/jobs/goal_reader.h"

namespace fabric::traffic {
namespace {

using fabric::testing::config_error_of;

const char* const kKey = "job.train.schedule";

config::ConfigError goal_error(const std::string& text, Picos calc_unit_ps = 1000) {
  return config_error_of([&] {
    std::istringstream in(text);
    read_goal(in, kKey, "train.goal", calc_unit_ps);
  });
}

// The error of `text` is at `line`, quotes `value` (the line's text) and
// says `expected` in what it allows.
void expect_refused(const std::string& text, uint64_t line, const std::string& value, const std::string& expected,
                    Picos calc_unit_ps = 1000) {
  const config::ConfigError e = goal_error(text, calc_unit_ps);
  EXPECT_EQ(e.key, kKey);
  EXPECT_EQ(e.origin, "train.goal:" + std::to_string(line));
  EXPECT_EQ(e.value, value);
  EXPECT_NE(e.allowed.find(expected), std::string::npos) << e.allowed;
  EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
}

const std::string kHead = "num_ranks 3\nrank 0 {\n";  // lines 1 and 2; an item of rank 0 is on line 3

TEST(GoalReaderErrors, UnreadableFile) {
  const std::string path = "/nonexistent/fabricsim/train.goal";
  const config::ConfigError e = config_error_of([&] { read_goal_file(path, kKey); });
  EXPECT_EQ(e.key, kKey);
  EXPECT_EQ(e.value, path);
  EXPECT_EQ(e.origin, path);
  EXPECT_NE(e.allowed.find("readable"), std::string::npos) << e.allowed;
  // A folder opens but does not read.
  const config::ConfigError folder = config_error_of([&] { read_goal_file("/tmp", kKey); });
  EXPECT_EQ(folder.value, "/tmp");
  EXPECT_NE(folder.allowed.find("readable"), std::string::npos) << folder.allowed;
}

TEST(GoalReaderErrors, AFileErrorNamesTheFileAndLine) {
  const fabric::testing::TempFile file("goal_reader", "bad.goal", "num_ranks 2\nrank 0 {\nsend 8b to 2\n}\n");
  const config::ConfigError e = config_error_of([&] { read_goal_file(file.path(), kKey); });
  EXPECT_EQ(e.key, kKey);
  EXPECT_EQ(e.origin, file.path() + ":3");
  EXPECT_EQ(e.value, "send 8b to 2");
}

TEST(GoalReaderErrors, MissingNumRanks) {
  expect_refused("// no count\nrank 0 {\n}\n", 2, "rank 0 {", "num_ranks");
  expect_refused("", 1, "end of file", "num_ranks");
  expect_refused("/* only */\n// comments\n", 2, "end of file", "num_ranks");
  expect_refused("num_ranks 0\n", 1, "num_ranks 0", "from 1");
  expect_refused("num_ranks 16777217\n", 1, "num_ranks 16777217", "16777216");
  expect_refused("num_ranks 2\nnum_ranks 3\n", 2, "num_ranks 3", "once");
  expect_refused("num_ranks 2\nrank 0 {\nnum_ranks 2\n}\n", 3, "num_ranks 2", "before the first rank block");
}

TEST(GoalReaderErrors, RankBlockOutOfRangeOrRepeated) {
  expect_refused("num_ranks 2\nrank 2 {\n}\n", 2, "rank 2 {", "from 0 to 1");
  expect_refused("num_ranks 2\nrank 1 {\n}\nrank 0 {\n}\nrank 1 {\n}\n", 6, "rank 1 {", "one block a rank");
  expect_refused("num_ranks 2\nrank 0\n{\n}\n", 2, "rank 0", "\"rank R {\"");
}

TEST(GoalReaderErrors, PeerOutOfRangeOrTheRankItself) {
  expect_refused(kHead + "send 8b to 3\n}\n", 3, "send 8b to 3", "RANK from 0 to 2");
  expect_refused(kHead + "l1: recv 8b from 7 tag 1\n}\n", 3, "l1: recv 8b from 7 tag 1", "RANK from 0 to 2");
  expect_refused(kHead + "send 8b to 0\n}\n", 3, "send 8b to 0", "other than 0 itself");
  expect_refused(kHead + "send 8b to -1\n}\n", 3, "send 8b to -1", "RANK from 0 to 2");
}

TEST(GoalReaderErrors, WildcardReceivesAreRefused) {
  const std::string any_source = "l21: recv 8b from -1 tag -1";
  expect_refused(kHead + any_source + "\n}\n", 3, any_source, "any-source / any-tag receives are not supported");
  expect_refused(kHead + "recv 8b from 1 tag -1\n}\n", 3, "recv 8b from 1 tag -1",
                 "fabricsim matches each send to its recv statically");
  expect_refused(kHead + "send 8b to 1 tag -1\n}\n", 3, "send 8b to 1 tag -1", "any-tag");
}

TEST(GoalReaderErrors, UnknownLabel) {
  expect_refused(kHead + "l1: calc 5\nl1 requires l9\n}\n", 4, "l1 requires l9", "l9 is not");
  // Defined below the dependency: txt2bin resolves labels when it reads the
  // dependency line, so this is unknown there too.
  expect_refused(kHead + "l1: calc 5\nl1 irequires l2\nl2: calc 6\n}\n", 4, "l1 irequires l2", "defined above");
  // Another block's label is not this block's.
  expect_refused("num_ranks 2\nrank 0 {\na: calc 1\n}\nrank 1 {\nb: calc 1\nb requires a\n}\n", 7, "b requires a",
                 "block of rank 1");
}

TEST(GoalReaderErrors, DuplicateLabelInABlock) {
  expect_refused(kHead + "l1: calc 5\nl2: calc 6\nl1: send 8b to 1\n}\n", 5, "l1: send 8b to 1", "l1 labels line 3");
}

TEST(GoalReaderErrors, DependencyCycles) {
  // Reported at the dependency that closed the ring.
  expect_refused(kHead + "a: calc 1\nb: calc 1\na requires b\nb requires a\n}\n", 6, "b requires a",
                 "b waits for a waits for b");
  expect_refused(kHead + "a: calc 1\na irequires a\n}\n", 4, "a irequires a", "a waits for a");
  // Through both kinds, with an op downstream of the ring that is no part of it.
  const config::ConfigError e = goal_error(kHead +
                                           "a: calc 1\nb: calc 1\nc: calc 1\nd: calc 1\n"
                                           "d requires a\na requires b\nb irequires c\nc requires a\n}\n");
  EXPECT_EQ(e.origin, "train.goal:10");
  EXPECT_EQ(e.value, "c requires a");
  EXPECT_NE(e.allowed.find("c waits for a waits for b waits for c"), std::string::npos) << e.allowed;
  EXPECT_EQ(e.allowed.find("d waits"), std::string::npos) << e.allowed;
}

TEST(GoalReaderErrors, MissingClosingBrace) {
  expect_refused("num_ranks 2\nrank 0 {\ncalc 1\n", 2, "rank 0 {", "before the end of the file");
  expect_refused("num_ranks 2\nrank 0 {\ncalc 1\nrank 1 {\n}\n", 4, "rank 1 {", "closing the block of rank 0");
  expect_refused("num_ranks 2\nrank 0 {\ncalc 1 /* never\nclosed\n}\n", 3, "calc 1 /* never", "\"*/\"");
}

TEST(GoalReaderErrors, SizeOverflow) {
  expect_refused(kHead + "send 9223372036854775808b to 1\n}\n", 3, "send 9223372036854775808b to 1", "2^63 - 1");
  expect_refused(kHead + "recv 123456789012345678901234567890b from 1\n}\n", 3,
                 "recv 123456789012345678901234567890b from 1", "2^63 - 1");
  expect_refused(kHead + "send 8b to 1 tag 4294967296\n}\n", 3, "send 8b to 1 tag 4294967296", "4294967295");
  // 2^63 ps is past what Picos holds, whatever the unit.
  expect_refused(kHead + "calc 9223372036854776\n}\n", 3, "calc 9223372036854776", "calc units of 1000 ps");
  expect_refused(kHead + "calc 9223372036854775808\n}\n", 3, "calc 9223372036854775808", "2^63 - 1 ps", 1);
}

TEST(GoalReaderErrors, GarbageAfterAnItem) {
  expect_refused(kHead + "l1: send 8b to 1 tag 0 extra\n}\n", 3, "l1: send 8b to 1 tag 0 extra", "end of the line");
  expect_refused(kHead + "send 8b to 1 nic 0 cpu 0\n}\n", 3, "send 8b to 1 nic 0 cpu 0", "end of the line");
  expect_refused(kHead + "calc 5 nic 1\n}\n", 3, "calc 5 nic 1", "\"cpu C\" or the end of the line");
  expect_refused(kHead + "a: calc 5\nb: calc 5\nb requires a a\n}\n", 5, "b requires a a", "LABEL requires LABEL");
  expect_refused(kHead + "}}\n", 3, "}}", "nothing after");
  expect_refused(kHead + "send 8 to 1\n}\n", 3, "send 8 to 1", "send SIZEb to RANK");
  expect_refused(kHead + "recv 8b to 1\n}\n", 3, "recv 8b to 1", "recv SIZEb from RANK");
  expect_refused(kHead + "send 8b to 1;\n}\n", 3, "send 8b to 1;", "not ';'");
  expect_refused(kHead + "l0: put 200b to 1 tag 10\n}\n", 3, "l0: put 200b to 1 tag 10",
                 "\"send\", \"recv\" or \"calc\"");
  expect_refused(kHead + "l1 send 8b to 1\n}\n", 3, "l1 send 8b to 1", "\"LABEL:\"");
  expect_refused(kHead + "8b to 1\n}\n", 3, "8b to 1", "\"LABEL:\"");
}

TEST(GoalReaderErrors, ItemOutsideARankBlock) {
  expect_refused("num_ranks 2\nsend 8b to 1\n", 2, "send 8b to 1", "outside a rank block");
  expect_refused("num_ranks 2\nrank 0 {\n}\nl1: calc 5\n", 4, "l1: calc 5", "outside a rank block");
  expect_refused("num_ranks 2\n}\n", 2, "}", "only closing a rank block");
}

TEST(GoalReaderErrors, CalcUnitOfZero) {
  const config::ConfigError e = goal_error("num_ranks 1\n", 0);
  EXPECT_EQ(e.key, kKey);
  EXPECT_NE(e.allowed.find("at least 1 ps"), std::string::npos) << e.allowed;
}

JobOp waiting_op(std::vector<uint32_t> after, std::vector<uint32_t> after_start = {}) {
  JobOp op;
  op.after = std::move(after);
  op.after_start = std::move(after_start);
  return op;
}

TEST(GoalReaderDependencyCycle, NoneWhenEveryOpCanStart) {
  RankSchedule rank;
  EXPECT_TRUE(dependency_cycle(rank).empty());
  rank.ops = {waiting_op({}), waiting_op({0}), waiting_op({0, 1}, {0}), waiting_op({}, {2})};
  EXPECT_TRUE(dependency_cycle(rank).empty());
}

TEST(GoalReaderDependencyCycle, FindsTheRingNotWhatWaitsForIt) {
  RankSchedule rank;
  // 0 can start; 1 waits for 4 (stuck downstream); 2 -> 3 -> 4 -> 2 is the ring.
  rank.ops = {waiting_op({}), waiting_op({0, 4}), waiting_op({3}), waiting_op({}, {4}), waiting_op({0, 2})};
  EXPECT_EQ(dependency_cycle(rank), (std::vector<uint32_t>{4, 2, 3}));
  rank.ops = {waiting_op({0})};
  EXPECT_EQ(dependency_cycle(rank), std::vector<uint32_t>{0});
}

TEST(GoalReaderDependencyCycle, ADependencyOnAMissingOpIsABug) {
  RankSchedule rank;
  rank.ops = {waiting_op({1})};
  EXPECT_THROW(dependency_cycle(rank), std::out_of_range);
}

}  // namespace
}  // namespace fabric::traffic
