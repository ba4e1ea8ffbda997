// RankExecutor and JobMessages: a job's ranks run their schedules closed
// loop. A send starts once what it requires has completed (plus the
// per-step delay), a recv completes when its message's last frame has
// arrived and it is posted, a calc after its duration; messages are matched
// statically (k-th send a->b tag t to the k-th recv at b from a tag t).
#include <gtest/gtest.h>

#include "config/config_error.h"
#include "model/invariants/invariant_broken.h"
#include "traffic/jobs/job_messages.h"
#include "traffic/jobs/rank_executor.h"

namespace fabric::traffic {
namespace {

JobOp send(int peer, uint64_t bytes, uint32_t tag, std::vector<uint32_t> after = {}) {
  JobOp o;
  o.kind = JobOpKind::send;
  o.peer = peer;
  o.bytes = bytes;
  o.tag = tag;
  o.after = std::move(after);
  return o;
}
JobOp recv(int peer, uint64_t bytes, uint32_t tag, std::vector<uint32_t> after = {}) {
  JobOp o = send(peer, bytes, tag, std::move(after));
  o.kind = JobOpKind::recv;
  return o;
}
JobOp calc(Picos duration, std::vector<uint32_t> after = {}) {
  JobOp o;
  o.duration = duration;
  o.after = std::move(after);
  return o;
}

// rank 0: 3000 B to rank 1; waits for its 100 B reply, computes 5 ns, sends 10 B.
JobSchedule ping_pong() {
  JobSchedule s;
  s.ranks.resize(2);
  add_op(s, 0, send(1, 3000, 0));
  add_op(s, 0, recv(1, 100, 1));
  add_op(s, 0, calc(5'000, {1}));
  add_op(s, 0, send(1, 10, 2, {2}));
  add_op(s, 1, recv(0, 3000, 0));
  add_op(s, 1, send(0, 100, 1, {0}));
  add_op(s, 1, recv(0, 10, 2));
  return s;
}

TEST(JobMessages, FramesOfAMessage) {
  EXPECT_EQ(message_frame_count(0), 1u);
  EXPECT_EQ(message_frame_bytes(0, 0), 64u);
  EXPECT_EQ(message_frame_count(1500), 1u);
  EXPECT_EQ(message_frame_count(1501), 2u);
  EXPECT_EQ(message_frame_bytes(3000, 1), 1518u);
  EXPECT_EQ(message_frame_bytes(3001, 2), 64u);  // 1 B of payload, padded
  EXPECT_EQ(message_frame_bytes(4000, 2), 1018u);
}

TEST(JobMessages, MatchesSendsToRecvsInOrderPerSourceAndTag) {
  JobSchedule s;
  s.ranks.resize(2);
  add_op(s, 0, send(1, 10, 7));
  add_op(s, 0, send(1, 20, 7));
  add_op(s, 0, send(1, 30, 8));
  add_op(s, 1, recv(0, 30, 8));
  add_op(s, 1, recv(0, 10, 7));
  add_op(s, 1, recv(0, 20, 7));
  const JobMessages m(s, "job.j.schedule");
  ASSERT_EQ(m.all().size(), 3u);
  EXPECT_EQ(m.recv_op(1, m.message_of(0, 0)), 1u);
  EXPECT_EQ(m.recv_op(1, m.message_of(0, 1)), 2u);
  EXPECT_EQ(m.recv_op(1, m.message_of(0, 2)), 0u);
  EXPECT_EQ(m.recv_op(0, m.message_of(0, 2)), kNoMessage);
}

TEST(JobMessages, MulticastSendFillsARecvAtEveryMember) {
  JobSchedule s;
  s.ranks.resize(3);
  s.groups = {{1, 2}};
  JobOp mc = send(-1, 5000, 0);
  mc.group = 0;
  add_op(s, 0, mc);
  add_op(s, 1, recv(0, 5000, 0));
  add_op(s, 2, recv(0, 5000, 0));
  const JobMessages m(s, "job.j.algorithm");
  ASSERT_EQ(m.all().size(), 1u);
  EXPECT_EQ(m[0].group, 0);
  EXPECT_EQ(m[0].frames, 4u);
  EXPECT_EQ(m.recv_op(1, 0), 0u);
  EXPECT_EQ(m.recv_op(2, 0), 0u);
}

TEST(JobMessages, UnmatchedOrShortRecvsAreRefusedNamingTheKey) {
  JobSchedule s = ping_pong();
  s.ranks[1].ops.pop_back();  // rank 0's 10 B send has no recv
  try {
    JobMessages m(s, "job.j.schedule");
    FAIL();
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.key, "job.j.schedule");
    EXPECT_NE(e.value.find("rank 0 op 3"), std::string::npos) << e.value;
  }
  s = ping_pong();
  s.ranks[1].ops.push_back(recv(0, 10, 9));  // a recv nobody sends to
  EXPECT_THROW(JobMessages(s, "k"), config::ConfigError);
  s = ping_pong();
  s.ranks[1].ops[0].bytes = 2999;  // smaller than the message
  EXPECT_THROW(JobMessages(s, "k"), config::ConfigError);
}

TEST(RankExecutor, PingPongRunsClosedLoop) {
  const JobSchedule s = ping_pong();
  const JobMessages m(s, "k");
  const Picos delay = 1'000;
  RankExecutor a(s, m, 0, 10'000, delay, "job j rank 0");
  RankExecutor b(s, m, 1, 10'000, delay, "job j rank 1");
  EXPECT_EQ(a.next_frame_time(), 11'000);  // start + the per-step delay
  EXPECT_EQ(b.next_frame_time(), kNever);  // waits for its message
  const auto f1 = a.pop_frame(11'000);
  const auto f2 = a.pop_frame(12'000);
  EXPECT_EQ(f1.bytes, 1518u);
  EXPECT_EQ(f2.bytes, 1518u);
  EXPECT_EQ(f1.dst, 1);
  EXPECT_EQ(a.times()[0].end, 12'000);
  EXPECT_EQ(a.next_frame_time(), kNever);
  EXPECT_FALSE(b.frame_arrived(f1.message, 20'000));
  EXPECT_TRUE(b.frame_arrived(f2.message, 21'000));
  EXPECT_EQ(b.times()[0].end, 21'000);
  EXPECT_EQ(b.next_frame_time(), 22'000);
  const auto reply = b.pop_frame(22'000);
  EXPECT_EQ(reply.bytes, 118u);
  EXPECT_TRUE(a.frame_arrived(reply.message, 30'000));
  // The calc ends 5 ns later, then the send waits its delay.
  EXPECT_EQ(a.times()[2].end, 35'000);
  EXPECT_EQ(a.next_frame_time(), 36'000);
  const auto last = a.pop_frame(36'000);
  EXPECT_EQ(last.bytes, 64u);
  EXPECT_TRUE(a.done());
  EXPECT_FALSE(b.done());
  b.frame_arrived(last.message, 40'000);
  EXPECT_TRUE(b.done());
  EXPECT_EQ(a.finished_at(), 36'000);
  EXPECT_EQ(b.finished_at(), 40'000);
}

TEST(RankExecutor, AMessageArrivingBeforeItsRecvIsPostedCompletesItWhenPosted) {
  JobSchedule s;
  s.ranks.resize(2);
  add_op(s, 0, send(1, 100, 1));       // message B goes first
  add_op(s, 0, send(1, 100, 0));       // then A
  add_op(s, 1, recv(0, 100, 0));       // A
  add_op(s, 1, recv(0, 100, 1, {0}));  // B, posted once A is in
  add_op(s, 1, send(0, 1, 2, {1}));
  add_op(s, 0, recv(1, 1, 2));
  const JobMessages m(s, "k");
  RankExecutor a(s, m, 0, 0, 0, "a");
  RankExecutor b(s, m, 1, 0, 0, "b");
  const auto first = a.pop_frame(0);
  const auto second = a.pop_frame(0);
  EXPECT_FALSE(b.frame_arrived(first.message, 2'000));  // B, before its recv is posted
  EXPECT_EQ(b.times()[1].end, kNever);
  EXPECT_TRUE(b.frame_arrived(second.message, 3'000));  // A: posts B's recv, which has its message
  EXPECT_EQ(b.times()[0].end, 3'000);
  EXPECT_EQ(b.times()[1].end, 3'000);
  EXPECT_EQ(b.next_frame_time(), 3'000);
}

TEST(RankExecutor, ACalcsEndIsKnownAtOnceAndPostsWhatFollowsInTheFuture) {
  JobSchedule s;
  s.ranks.resize(2);
  add_op(s, 0, send(1, 100, 0));
  add_op(s, 1, calc(50'000));
  add_op(s, 1, recv(0, 100, 0, {0}));
  add_op(s, 1, send(0, 1, 1, {1}));
  add_op(s, 0, recv(1, 1, 1));
  const JobMessages m(s, "k");
  RankExecutor a(s, m, 0, 0, 0, "a");
  RankExecutor b(s, m, 1, 0, 0, "b");
  EXPECT_EQ(b.times()[0].end, 50'000);
  EXPECT_EQ(b.times()[1].start, 50'000);
  EXPECT_TRUE(b.frame_arrived(a.pop_frame(0).message, 2'000));
  EXPECT_EQ(b.times()[1].end, 50'000);  // its message was in before it was posted
  EXPECT_EQ(b.next_frame_time(), 50'000);
}

TEST(RankExecutor, RoundRobinOverDestinationsInOrderWithinOne) {
  JobSchedule s;
  s.ranks.resize(3);
  add_op(s, 0, send(1, 3000, 0));  // two frames
  add_op(s, 0, send(1, 1500, 1));  // one frame, after op 0 (same destination)
  add_op(s, 0, send(2, 3000, 0));  // two frames
  add_op(s, 1, recv(0, 3000, 0));
  add_op(s, 1, recv(0, 1500, 1));
  add_op(s, 2, recv(0, 3000, 0));
  const JobMessages m(s, "k");
  RankExecutor a(s, m, 0, 0, 0, "a");
  std::vector<std::pair<int, uint32_t>> order;  // (destination, message)
  while (a.next_frame_time() != kNever) {
    const auto f = a.pop_frame(0);
    order.emplace_back(f.dst, f.message);
  }
  const std::vector<std::pair<int, uint32_t>> expected{{1, 0}, {2, 2}, {1, 0}, {2, 2}, {1, 1}};
  EXPECT_EQ(order, expected);
}

TEST(RankExecutor, IrequiresWaitsForTheStartOnly) {
  JobSchedule s;
  s.ranks.resize(2);
  add_op(s, 0, calc(100'000));
  JobOp o = send(1, 10, 0);
  o.after_start = {0};
  add_op(s, 0, o);
  add_op(s, 1, recv(0, 10, 0));
  const JobMessages m(s, "k");
  RankExecutor a(s, m, 0, 5'000, 0, "a");
  EXPECT_EQ(a.next_frame_time(), 5'000);  // with the calc's start, not its end
}

TEST(RankExecutor, ASendTakenBeforeItsDependenciesIsNeverHandedOut) {
  const JobSchedule s = ping_pong();
  const JobMessages m(s, "k");
  RankExecutor b(s, m, 1, 0, 0, "job j rank 1");
  // Nothing is due at rank 1 before its message arrives; an adapter that
  // takes a frame anyway gets a logic error, never a frame.
  EXPECT_THROW(b.pop_frame(1'000), std::logic_error);
}

// The invariant on a deliberately broken record: what a RankExecutor that
// posted sends too early would have kept.
TEST(JobDependencies, ASendBeforeWhatItWaitsForBreaksTheInvariant) {
  const JobSchedule s = ping_pong();  // rank 0: op 3 (send) requires op 2 (calc), which requires op 1 (recv)
  const auto& ops = s.ranks[0].ops;
  std::vector<JobOpTimes> times(ops.size());
  std::vector<Picos> arrived(ops.size(), kNever);
  times[1] = {0, 30'000};
  arrived[1] = 30'000;
  times[2] = {30'000, 35'000};
  const Picos delay = 1'000;
  const RankRecord record{ops, times, arrived, 0, delay};
  forget_broken_invariant();
  EXPECT_NO_THROW(check_send_dependencies(record, 3, 36'000, "job j rank 0"));
  try {  // 1 ps too early: the calc ended 35 ns, plus the delay
    check_send_dependencies(record, 3, 35'999, "job j rank 0");
    FAIL() << "not broken";
  } catch (const InvariantBroken& e) {
    EXPECT_EQ(e.invariant(), invariant::kJobDependencies);
    EXPECT_EQ(e.entity(), "job j rank 0");
  }
  forget_broken_invariant();
  times[2].end = kNever;  // the calc never ended
  EXPECT_THROW(check_send_dependencies(record, 3, 100'000, "r"), InvariantBroken);
  forget_broken_invariant();
  times[2].end = 35'000;
  {  // rank 1: op 1 (send) requires op 0 (recv), which "ended" before its message was in
    const auto& ops1 = s.ranks[1].ops;
    std::vector<JobOpTimes> times1(ops1.size());
    std::vector<Picos> arrived1(ops1.size(), kNever);
    times1[0] = {0, 20'000};
    arrived1[0] = 25'000;
    EXPECT_THROW(check_send_dependencies({ops1, times1, arrived1, 0, 0}, 1, 100'000, "r"), InvariantBroken);
    forget_broken_invariant();
    arrived1[0] = 20'000;
    EXPECT_NO_THROW(check_send_dependencies({ops1, times1, arrived1, 0, 0}, 1, 100'000, "r"));
  }
  const RankRecord late_job{ops, times, arrived, 200'000, delay};  // a frame before the job's start
  EXPECT_THROW(check_send_dependencies(late_job, 3, 100'000, "r"), InvariantBroken);
  forget_broken_invariant();
}

}  // namespace
}  // namespace fabric::traffic
