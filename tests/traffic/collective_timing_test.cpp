// Collectives replayed on an ideal network (collective_checks.h): ring
// allreduce takes the alpha-beta model's 2(n-1)(a + S/(nB)), no op starts
// before its data is there, chunks pipeline, iterations are local barriers.
// And the oracles themselves catch broken schedules.
#include <gtest/gtest.h>

#include "tests/traffic/collective_checks.h"
#include "traffic/jobs/collectives.h"
#include "traffic/jobs/tree_shapes.h"

namespace fabric::traffic {
namespace {

using testing::IdealNetwork;
using testing::IdealRun;
using testing::replay_on_ideal_network;

constexpr IdealNetwork kNetwork{1'500'000, 80};  // 1.5 us, 100 Gb/s (80 ps a byte)

using testing::spec_of;

// Every op starts after the ops it requires end; every recv ends after the
// last byte of its send left plus the latency.
void expect_dependencies_kept(const JobSchedule& s, const IdealRun& run, const std::string& what) {
  const testing::MessageMatching matching = testing::match_messages(s);
  for (int r = 0; r < s.size(); ++r) {
    const auto& ops = s.ranks[static_cast<size_t>(r)].ops;
    const auto& times = run.times[static_cast<size_t>(r)];
    for (uint32_t i = 0; i < ops.size(); ++i) {
      for (uint32_t d : ops[i].after) ASSERT_GE(times[i].start, times[d].end) << what;
      if (ops[i].kind != JobOpKind::recv) continue;
      const testing::OpRef send = matching.send_of_recv[static_cast<size_t>(r)][i];
      ASSERT_GE(times[i].end, run.times[static_cast<size_t>(send.rank)][send.op].end + kNetwork.latency) << what;
    }
  }
}

TEST(CollectiveTiming, RingAllreduceTakesTheAlphaBetaTime) {
  for (int n : {2, 3, 5, 8, 64})
    for (uint64_t per_rank : {uint64_t{0}, uint64_t{1000}, uint64_t{16384}}) {
      const uint64_t S = per_rank * static_cast<uint64_t>(n);
      const JobSchedule s = build_collective(spec_of(Collective::allreduce, "ring", n, S));
      const IdealRun run = replay_on_ideal_network(s, kNetwork);
      ASSERT_EQ(run.unfinished, 0u);
      const Picos step = kNetwork.latency + static_cast<Picos>(S / static_cast<uint64_t>(n)) * kNetwork.picos_per_byte;
      EXPECT_EQ(run.finish, 2 * (n - 1) * step) << "n=" << n << " S=" << S;
      expect_dependencies_kept(s, run, "ring allreduce n=" + std::to_string(n));
    }
  EXPECT_EQ(replay_on_ideal_network(build_collective(spec_of(Collective::allreduce, "ring", 1, 1000)), kNetwork).finish,
            0);
}

TEST(CollectiveTiming, RingForwardsAShardOnlyAfterReceivingIt) {
  // Found by step, not by the requires under test: at step k >= 1 rank r
  // sends what its recv of step k-1 brought.
  const int n = 8;
  const JobSchedule s = build_collective(spec_of(Collective::allreduce, "ring", n, 8000));
  const IdealRun run = replay_on_ideal_network(s, kNetwork);
  for (int r = 0; r < n; ++r) {
    const auto& ops = s.ranks[static_cast<size_t>(r)].ops;
    std::vector<Picos> received_at(2 * (n - 1), kNever);
    for (uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == JobOpKind::recv) received_at[ops[i].step] = run.times[static_cast<size_t>(r)][i].end;
    for (uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == JobOpKind::send && ops[i].step > 0) {
        EXPECT_GE(run.times[static_cast<size_t>(r)][i].start, received_at[ops[i].step - 1]) << "rank " << r;
        EXPECT_EQ(ops[i].peer, (r + 1) % n);
      }
  }
}

TEST(CollectiveTiming, TreeNodesSendOnlyWhatTheyHaveReduced) {
  for (int n : {3, 8, 13}) {
    CollectiveSpec spec = spec_of(Collective::allreduce, "tree", n, 100000);
    spec.chunk_bytes = 8192;
    const JobSchedule s = build_collective(spec);
    const IdealRun run = replay_on_ideal_network(s, kNetwork);
    ASSERT_EQ(run.unfinished, 0u);
    expect_dependencies_kept(s, run, "tree n=" + std::to_string(n));
    const std::array<RankTree, 2> trees = nccl_double_binary_tree(n);
    for (int r = 0; r < n; ++r) {
      const auto& ops = s.ranks[static_cast<size_t>(r)].ops;
      const auto& times = run.times[static_cast<size_t>(r)];
      for (uint32_t i = 0; i < ops.size(); ++i) {
        if (ops[i].kind != JobOpKind::send) continue;
        const uint32_t tree = ops[i].tag % 2, chunk = ops[i].step / 2;
        const bool up = ops[i].step % 2 == 0;
        const int parent = trees[tree].parent[static_cast<size_t>(r)];
        EXPECT_EQ(ops[i].peer == parent, up) << "up to the parent, down to the children";
        // What it must have first: the chunk from every child (up, and down
        // at the root), or from its parent (down elsewhere).
        for (uint32_t j = 0; j < ops.size(); ++j) {
          if (ops[j].kind != JobOpKind::recv || ops[j].tag % 2 != tree || ops[j].step / 2 != chunk) continue;
          const bool from_child = ops[j].peer != parent;
          if (up ? from_child : (parent < 0 || !from_child)) {
            EXPECT_GE(times[i].start, times[j].end) << "n=" << n << " rank " << r << " op " << i;
          }
        }
      }
    }
  }
}

TEST(CollectiveTiming, TreeAllreduceChunksPipeline) {
  // Unchunked, each level of the trees waits for the whole half below it;
  // in 64 chunks the levels overlap and the NICs' bytes bound the time.
  CollectiveSpec spec = spec_of(Collective::allreduce, "tree", 16, 1 << 20);
  const IdealRun whole = replay_on_ideal_network(build_collective(spec), kNetwork);
  spec.chunk_bytes = 1 << 13;
  const JobSchedule chunked = build_collective(spec);
  const IdealRun run = replay_on_ideal_network(chunked, kNetwork);
  ASSERT_EQ(run.unfinished, 0u);
  expect_dependencies_kept(chunked, run, "chunked tree");
  EXPECT_LT(run.finish, whole.finish / 2) << run.finish << " vs " << whole.finish;
  // Still at least what the busiest NIC sends: a rank interior in one tree
  // sends its half up once and down twice, and a leaf's half up in the other.
  const Picos half = (1 << 19) * kNetwork.picos_per_byte;
  EXPECT_GE(run.finish, 4 * half);
}

TEST(CollectiveTiming, BinomialBroadcastTakesItsRounds) {
  // Unchunked over 8 ranks: 3 rounds of a + S/B (the root's last child and
  // the chain 0-4-6-7 end together).
  const uint64_t S = 1 << 16;
  CollectiveSpec spec = spec_of(Collective::broadcast, "binomial", 8, S);
  spec.root = 3;
  const Picos whole = replay_on_ideal_network(build_collective(spec), kNetwork).finish;
  EXPECT_EQ(whole, 3 * (kNetwork.latency + static_cast<Picos>(S) * kNetwork.picos_per_byte));
  spec.chunk_bytes = S / 16;
  const JobSchedule chunked = build_collective(spec);
  const IdealRun run = replay_on_ideal_network(chunked, kNetwork);
  ASSERT_EQ(run.unfinished, 0u);
  expect_dependencies_kept(chunked, run, "chunked binomial");
  // The root's NIC sends the buffer to each of its 3 children, so chunks
  // cannot beat 3 S/B; they only never make it worse.
  EXPECT_LE(run.finish, whole);
  EXPECT_GE(run.finish, 3 * static_cast<Picos>(S) * kNetwork.picos_per_byte + kNetwork.latency);
  // Multicast: one message time.
  spec.algorithm = "multicast";
  EXPECT_EQ(replay_on_ideal_network(build_collective(spec), kNetwork).finish,
            kNetwork.latency + static_cast<Picos>(S) * kNetwork.picos_per_byte);
}

TEST(CollectiveTiming, IterationsAreLocalBarriers) {
  for (const auto& [c, algorithm] : std::vector<std::pair<Collective, std::string>>{{Collective::allreduce, "ring"},
                                                                                    {Collective::allreduce, "tree"},
                                                                                    {Collective::alltoall, "direct"},
                                                                                    {Collective::broadcast, "binomial"},
                                                                                    {Collective::incast, "direct"}}) {
    CollectiveSpec spec = spec_of(c, algorithm, 5, 5000);
    spec.root = 2;
    const JobSchedule once = build_collective(spec);
    spec.iterations = 3;
    const JobSchedule thrice = build_collective(spec);
    const std::string what = to_string(c) + "/" + algorithm;
    ASSERT_TRUE(testing::schedule_problems(thrice).empty()) << what;
    EXPECT_EQ(thrice.operations(), 3 * once.operations()) << what;
    EXPECT_EQ(thrice.steps, 3 * once.steps) << what;
    const IdealRun run = replay_on_ideal_network(thrice, kNetwork);
    ASSERT_EQ(run.unfinished, 0u) << what;
    for (int r = 0; r < 5; ++r) {
      const auto& ops = thrice.ranks[static_cast<size_t>(r)].ops;
      const size_t per_iteration = once.ranks[static_cast<size_t>(r)].ops.size();
      ASSERT_EQ(ops.size(), 3 * per_iteration);
      for (size_t i = per_iteration; i < ops.size(); ++i) {
        const JobOp& first = once.ranks[static_cast<size_t>(r)].ops[i % per_iteration];
        const auto iteration = static_cast<uint32_t>(i / per_iteration);
        EXPECT_EQ(ops[i].step, first.step + iteration * once.steps) << what;
        EXPECT_GT(ops[i].tag, first.tag) << what << ": tags continue";
        // No op of an iteration starts before every op of the one before has ended here.
        for (size_t j = (iteration - 1) * per_iteration; j < iteration * per_iteration; ++j)
          EXPECT_GE(run.times[static_cast<size_t>(r)][i].start, run.times[static_cast<size_t>(r)][j].end) << what;
      }
    }
  }
  // Ring allreduce is symmetric: every rank ends each iteration together.
  CollectiveSpec ring = spec_of(Collective::allreduce, "ring", 5, 5000);
  const Picos one = replay_on_ideal_network(build_collective(ring), kNetwork).finish;
  ring.iterations = 3;
  EXPECT_EQ(replay_on_ideal_network(build_collective(ring), kNetwork).finish, 3 * one);
}

JobSchedule two_ranks() {
  JobSchedule s;
  s.ranks.resize(2);
  s.steps = 1;
  return s;
}
JobOp op_of(JobOpKind kind, int peer, uint64_t bytes, std::vector<uint32_t> after = {}) {
  JobOp op;
  op.kind = kind;
  op.peer = peer;
  op.bytes = bytes;
  op.after = std::move(after);
  return op;
}

TEST(CollectiveChecks, TheOraclesCatchBrokenSchedules) {
  JobSchedule good = two_ranks();
  add_op(good, 0, op_of(JobOpKind::send, 1, 10));
  add_op(good, 1, op_of(JobOpKind::recv, 0, 10));
  EXPECT_TRUE(testing::schedule_problems(good).empty());
  EXPECT_EQ(replay_on_ideal_network(good, kNetwork).finish, kNetwork.latency + 10 * kNetwork.picos_per_byte);

  JobSchedule bytes = good;
  bytes.ranks[1].ops[0].bytes = 11;
  EXPECT_EQ(testing::schedule_problems(bytes).size(), 1u);
  JobSchedule unmatched = good;
  unmatched.ranks[1].ops[0].tag = 4;
  EXPECT_EQ(testing::schedule_problems(unmatched).size(), 2u) << "a send and a recv alone";
  JobSchedule cycle = good;
  add_op(cycle, 0, op_of(JobOpKind::calc, -1, 0, {2}));
  add_op(cycle, 0, op_of(JobOpKind::calc, -1, 0, {1}));
  EXPECT_EQ(testing::schedule_problems(cycle).size(), 1u);
  JobSchedule outside = good;
  outside.ranks[0].ops[0].after = {7};
  EXPECT_EQ(testing::schedule_problems(outside).size(), 1u);
  JobSchedule steps = good;
  steps.steps = 2;
  EXPECT_EQ(testing::schedule_problems(steps).size(), 1u);
  JobSchedule multicast = two_ranks();
  multicast.ranks.resize(3);
  multicast.groups = {{1, 2}};
  JobOp to_group = op_of(JobOpKind::send, -1, 10);
  to_group.group = 0;
  add_op(multicast, 0, to_group);
  add_op(multicast, 1, op_of(JobOpKind::recv, 0, 10));
  EXPECT_EQ(testing::schedule_problems(multicast).size(), 1u) << "rank 2's recv missing";
  // A deadlock: each rank's send waits for its recv.
  JobSchedule deadlock = two_ranks();
  for (int r = 0; r < 2; ++r) {
    add_op(deadlock, r, op_of(JobOpKind::recv, 1 - r, 10));
    add_op(deadlock, r, op_of(JobOpKind::send, 1 - r, 10, {0}));
  }
  EXPECT_TRUE(testing::schedule_problems(deadlock).empty());
  EXPECT_EQ(replay_on_ideal_network(deadlock, kNetwork).unfinished, 4u);
  // The NIC serialises: two sends posted together leave one after the other.
  JobSchedule two_sends = two_ranks();
  for (int k = 0; k < 2; ++k) {
    add_op(two_sends, 0, op_of(JobOpKind::send, 1, 100));
    add_op(two_sends, 1, op_of(JobOpKind::recv, 0, 100));
  }
  EXPECT_EQ(replay_on_ideal_network(two_sends, kNetwork).finish, kNetwork.latency + 200 * kNetwork.picos_per_byte);
}

}  // namespace
}  // namespace fabric::traffic
