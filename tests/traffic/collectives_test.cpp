// build_collective: every collective and algorithm gives a schedule whose
// sends and recvs match, whose dependencies are acyclic, that finishes on
// an ideal network, and whose bytes per rank and steps are the analytic
// figures; shards when the size is not a multiple of the ranks; names,
// NCCL-tests' factors and every error. Trees: collective_trees_test.cpp;
// times and iterations: collective_timing_test.cpp.
#include <gtest/gtest.h>

#include "tests/support/config_error_of.h"
#include "tests/traffic/collective_checks.h"
#include "traffic/jobs/collectives.h"

namespace fabric::traffic {
namespace {

using fabric::testing::config_error_of;
using testing::replay_on_ideal_network;
using testing::schedule_problems;

const int kRankCounts[] = {1, 2, 3, 5, 8, 64};
const uint64_t kSizes[] = {0, 1, 1000, (uint64_t{1} << 20) + 7};

CollectiveSpec spec_of(Collective c, const std::string& algorithm, int n, uint64_t bytes) {
  CollectiveSpec spec = testing::spec_of(c, algorithm, n, bytes);
  spec.root = n / 2;  // not rank 0, where a relative numbering would hide mistakes
  spec.key_prefix = "job.train.";
  return spec;
}

bool power_of_two(int n) { return (n & (n - 1)) == 0; }

struct RankBytes {
  uint64_t sent = 0, received = 0;
  int sends = 0;
};
std::vector<RankBytes> bytes_per_rank(const JobSchedule& s) {
  std::vector<RankBytes> out(s.ranks.size());
  for (size_t r = 0; r < s.ranks.size(); ++r)
    for (const JobOp& op : s.ranks[r].ops) {
      if (op.kind == JobOpKind::send) out[r].sent += op.bytes, ++out[r].sends;
      if (op.kind == JobOpKind::recv) out[r].received += op.bytes;
    }
  return out;
}

TEST(CollectiveSchedules, EveryAlgorithmMatchesIsAcyclicAndFinishes) {
  for (const std::string& name : collective_names()) {
    const Collective c = collective_named(name);
    for (const std::string& algorithm : algorithms_of(c))
      for (int n : kRankCounts)
        for (uint64_t bytes : kSizes)
          for (uint64_t chunk : {uint64_t{0}, uint64_t{65536}}) {
            if (algorithm == "recursive_doubling" && !power_of_two(n)) continue;
            CollectiveSpec spec = spec_of(c, algorithm, n, bytes);
            spec.chunk_bytes = chunk;
            const std::string what = name + "/" + algorithm + " n=" + std::to_string(n) +
                                     " S=" + std::to_string(bytes) + " chunk=" + std::to_string(chunk);
            const JobSchedule s = build_collective(spec);
            ASSERT_EQ(s.size(), n) << what;
            EXPECT_EQ(s.algorithm, algorithm) << what;
            if (n == 1) {
              EXPECT_EQ(s.operations(), 0u) << what;
              EXPECT_EQ(s.steps, 0u) << what;
              continue;
            }
            const std::vector<std::string> problems = schedule_problems(s);
            ASSERT_TRUE(problems.empty()) << what << ": " << problems.front();
            const testing::IdealRun run = replay_on_ideal_network(s, {1000, 1});
            EXPECT_EQ(run.unfinished, 0u) << what << ": a deadlock";
            for (int r = 0; r < n; ++r)
              EXPECT_FALSE(s.ranks[static_cast<size_t>(r)].ops.empty()) << what << " rank " << r;
          }
  }
}

TEST(CollectiveBytes, RingAllreduceSendsEveryShardButTwoTwice) {
  for (int n : kRankCounts)
    for (uint64_t S : kSizes) {
      if (n == 1) continue;
      const JobSchedule s = build_collective(spec_of(Collective::allreduce, "ring", n, S));
      const std::vector<RankBytes> per_rank = bytes_per_rank(s);
      uint64_t total = 0;
      for (int r = 0; r < n; ++r) {
        // Reduce-scatter forwards every shard but (r+1), which r ends with;
        // all-gather every shard but (r+2), the last it receives.
        const uint64_t expected = 2 * S - shard_bytes(S, n, (r + 1) % n) - shard_bytes(S, n, (r + 2) % n);
        EXPECT_EQ(per_rank[static_cast<size_t>(r)].sent, expected) << "n=" << n << " S=" << S << " rank " << r;
        // What r-1 sends.
        EXPECT_EQ(per_rank[static_cast<size_t>(r)].received,
                  2 * S - shard_bytes(S, n, r) - shard_bytes(S, n, (r + 1) % n))
            << "n=" << n << " S=" << S;
        EXPECT_EQ(per_rank[static_cast<size_t>(r)].sends, 2 * (n - 1));
        total += per_rank[static_cast<size_t>(r)].sent;
      }
      EXPECT_EQ(total, 2 * static_cast<uint64_t>(n - 1) * S) << "each shard n-1 times in each half";
      if (S % static_cast<uint64_t>(n) == 0) {
        EXPECT_EQ(per_rank[0].sent, 2 * static_cast<uint64_t>(n - 1) * S / static_cast<uint64_t>(n));
      }
    }
}

TEST(CollectiveBytes, AllgatherAndReducescatterSendTheirShareOnce) {
  for (int n : kRankCounts)
    for (uint64_t S : kSizes) {
      if (n == 1) continue;
      const auto sent_by = [&](const char* algorithm, Collective c) {
        return bytes_per_rank(build_collective(spec_of(c, algorithm, n, S)));
      };
      const std::vector<RankBytes> ring = sent_by("ring", Collective::allgather);
      const std::vector<RankBytes> multicast = sent_by("multicast", Collective::allgather);
      const std::vector<RankBytes> reducescatter = sent_by("ring", Collective::reducescatter);
      for (int r = 0; r < n; ++r) {
        const auto i = static_cast<size_t>(r);
        // Ring allgather: every shard but (r+1) mod n, the last one r receives.
        EXPECT_EQ(ring[i].sent, S - shard_bytes(S, n, (r + 1) % n)) << "n=" << n << " S=" << S;
        // Every rank ends with every shard but its own.
        EXPECT_EQ(ring[i].received, S - shard_bytes(S, n, r));
        EXPECT_EQ(multicast[i].sends, 1);
        EXPECT_EQ(multicast[i].sent, shard_bytes(S, n, r)) << "its own shard, once";
        EXPECT_EQ(multicast[i].received, S - shard_bytes(S, n, r));
        // Reduce-scatter: every shard but r, which it keeps.
        EXPECT_EQ(reducescatter[i].sent, S - shard_bytes(S, n, r));
      }
      if (power_of_two(n)) {
        const std::vector<RankBytes> doubling = sent_by("recursive_doubling", Collective::allgather);
        uint64_t total = 0;
        for (int r = 0; r < n; ++r) {
          // Before step k rank r holds the 2^k shards of its aligned block, and sends them all.
          uint64_t held = 0;
          for (int block = 1; block < n; block *= 2)
            for (int i = r & ~(block - 1); i < (r & ~(block - 1)) + block; ++i) held += shard_bytes(S, n, i);
          EXPECT_EQ(doubling[static_cast<size_t>(r)].sent, held) << "n=" << n << " S=" << S << " rank " << r;
          EXPECT_EQ(doubling[static_cast<size_t>(r)].received, S - shard_bytes(S, n, r));
          total += doubling[static_cast<size_t>(r)].sent;
          if (S % static_cast<uint64_t>(n) == 0) {
            EXPECT_EQ(held, S - S / static_cast<uint64_t>(n)) << "(n-1)/n of S";
          }
        }
        EXPECT_EQ(total, static_cast<uint64_t>(n - 1) * S);
      }
    }
}

TEST(CollectiveBytes, ReducescatterLeavesShardRAtRankR) {
  // S = 1003 over 5 ranks: shards 201, 201, 201, 200, 200; the last recv
  // at rank r completes shard r.
  const JobSchedule s = build_collective(spec_of(Collective::reducescatter, "ring", 5, 1003));
  for (int r = 0; r < 5; ++r) {
    const JobOp& last = s.ranks[static_cast<size_t>(r)].ops.back();
    ASSERT_EQ(last.kind, JobOpKind::recv);
    EXPECT_EQ(last.step, 3u);
    EXPECT_EQ(last.bytes, r < 3 ? 201u : 200u) << "rank " << r;
  }
  // Allreduce's reduce-scatter half leaves shard (r+1) mod n at rank r.
  const JobSchedule a = build_collective(spec_of(Collective::allreduce, "ring", 5, 1003));
  for (int r = 0; r < 5; ++r)
    for (const JobOp& op : a.ranks[static_cast<size_t>(r)].ops)
      if (op.kind == JobOpKind::recv && op.step == 3) {
        EXPECT_EQ(op.bytes, (r + 1) % 5 < 3 ? 201u : 200u);
      }
}

TEST(CollectiveBytes, AlltoallAndIncast) {
  for (int n : kRankCounts)
    for (uint64_t S : kSizes) {
      if (n == 1) continue;
      for (const char* algorithm : {"pairwise", "direct"}) {
        const std::vector<RankBytes> per_rank =
            bytes_per_rank(build_collective(spec_of(Collective::alltoall, algorithm, n, S)));
        for (int r = 0; r < n; ++r) {
          EXPECT_EQ(per_rank[static_cast<size_t>(r)].sent, S - shard_bytes(S, n, r)) << algorithm << " n=" << n;
          EXPECT_EQ(per_rank[static_cast<size_t>(r)].received, static_cast<uint64_t>(n - 1) * shard_bytes(S, n, r));
        }
      }
      const CollectiveSpec incast = spec_of(Collective::incast, "direct", n, S);
      const std::vector<RankBytes> per_rank = bytes_per_rank(build_collective(incast));
      for (int r = 0; r < n; ++r) {
        const RankBytes& b = per_rank[static_cast<size_t>(r)];
        EXPECT_EQ(b.received, r == incast.root ? static_cast<uint64_t>(n - 1) * S : 0u);
        EXPECT_EQ(b.sent, r == incast.root ? 0u : S);
      }
      EXPECT_EQ(algorithm_bytes(incast), static_cast<uint64_t>(n - 1) * S);
    }
}

TEST(CollectiveBytes, ShiftPermutationPairsEachRankWithTheOneHalfTheJobAway) {
  for (int n : {2, 3, 8, 576}) {
    const JobSchedule s = build_collective(spec_of(Collective::permutation, "shift", n, 5000));
    ASSERT_EQ(s.steps, 1u);
    std::vector<int> received_from(static_cast<size_t>(n), -1);
    for (int r = 0; r < n; ++r) {
      const auto& ops = s.ranks[static_cast<size_t>(r)].ops;
      ASSERT_EQ(ops.size(), 2u);
      EXPECT_EQ(ops[0].kind, JobOpKind::send);
      EXPECT_EQ(ops[0].peer, (r + n / 2) % n);
      EXPECT_EQ(ops[0].bytes, 5000u);
      EXPECT_EQ(ops[1].kind, JobOpKind::recv);
      received_from[static_cast<size_t>(r)] = ops[1].peer;
    }
    for (int r = 0; r < n; ++r) EXPECT_EQ((received_from[static_cast<size_t>(r)] + n / 2) % n, r) << "n=" << n;
  }
  EXPECT_DOUBLE_EQ(bus_factor(Collective::permutation, 8), 1);
}

TEST(CollectiveBytes, RemaindersGoToTheFirstShards) {
  EXPECT_EQ(shard_bytes(1000, 3, 0), 334u);
  EXPECT_EQ(shard_bytes(1000, 3, 1), 333u);
  EXPECT_EQ(shard_bytes(1000, 3, 2), 333u);
  EXPECT_EQ(shard_bytes(7, 8, 6), 1u);
  EXPECT_EQ(shard_bytes(7, 8, 7), 0u);
  // Ring allgather of 1000 B over 3 ranks: rank 0 sends its own 334 B first.
  const JobSchedule s = build_collective(spec_of(Collective::allgather, "ring", 3, 1000));
  EXPECT_EQ(s.ranks[0].ops[0].kind, JobOpKind::send);
  EXPECT_EQ(s.ranks[0].ops[0].bytes, 334u);
  EXPECT_EQ(s.ranks[2].ops[0].bytes, 333u);
}

TEST(CollectiveSteps, StepCountsOfEachAlgorithm) {
  for (int n : {2, 3, 5, 8, 64}) {
    const auto steps = [&](Collective c, const char* algorithm) {
      return build_collective(spec_of(c, algorithm, n, 4096)).steps;
    };
    EXPECT_EQ(steps(Collective::allreduce, "ring"), 2u * (n - 1)) << n;
    EXPECT_EQ(steps(Collective::allgather, "ring"), n - 1u);
    EXPECT_EQ(steps(Collective::reducescatter, "ring"), n - 1u);
    EXPECT_EQ(steps(Collective::alltoall, "pairwise"), n - 1u);
    EXPECT_EQ(steps(Collective::alltoall, "direct"), 1u);
    EXPECT_EQ(steps(Collective::allgather, "multicast"), 1u);
    EXPECT_EQ(steps(Collective::broadcast, "multicast"), 1u);
    EXPECT_EQ(steps(Collective::incast, "direct"), 1u);
    EXPECT_EQ(steps(Collective::allreduce, "tree"), 2u) << "one chunk: reduce and broadcast";
    if (power_of_two(n)) {
      int log2 = 0;
      while ((1 << log2) < n) ++log2;
      EXPECT_EQ(steps(Collective::allgather, "recursive_doubling"), static_cast<uint32_t>(log2));
      EXPECT_EQ(steps(Collective::broadcast, "binomial"), static_cast<uint32_t>(log2));
    }
  }
  // Pairwise step k-1 pairs r with r+k: at step 0 rank 3 of 5 sends to 4 and receives from 2.
  const JobSchedule pairwise = build_collective(spec_of(Collective::alltoall, "pairwise", 5, 500));
  EXPECT_EQ(pairwise.ranks[3].ops[0].peer, 4);
  EXPECT_EQ(pairwise.ranks[3].ops[1].peer, 2);
  EXPECT_EQ(pairwise.ranks[3].ops[2].peer, 0);
  EXPECT_EQ(pairwise.ranks[3].ops[2].step, 1u);
}

TEST(CollectiveNames, NamesFiguresAndDefaults) {
  for (const std::string& name : collective_names()) EXPECT_EQ(to_string(collective_named(name)), name);
  EXPECT_EQ(algorithms_of(Collective::allreduce).front(), "ring");
  EXPECT_EQ(algorithms_of(Collective::alltoall).front(), "pairwise");
  EXPECT_EQ(algorithms_of(Collective::broadcast).front(), "binomial");
  EXPECT_DOUBLE_EQ(bus_factor(Collective::allreduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::allgather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::reducescatter, 4), 3.0 / 4);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::alltoall, 5), 4.0 / 5);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::broadcast, 8), 1);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::incast, 8), 1);
  EXPECT_EQ(algorithm_bytes(spec_of(Collective::allreduce, "ring", 8, 1000)), 1000u);
  const config::ConfigError e = config_error_of([] { collective_named("allreduse", "job.train.collective"); });
  EXPECT_EQ(e.key, "job.train.collective");
  EXPECT_NE(e.allowed.find("reducescatter"), std::string::npos) << e.allowed;
}

TEST(CollectiveErrors, EachBadValueNamesItsKey) {
  const auto error_of = [](CollectiveSpec spec) { return config_error_of([&] { build_collective(spec); }); };
  CollectiveSpec spec = spec_of(Collective::broadcast, "binomial", 4, 1000);
  for (int ranks : {0, -3}) {
    spec.ranks = ranks;
    const config::ConfigError e = error_of(spec);
    EXPECT_EQ(e.key, "job.train.ranks");
    EXPECT_EQ(e.value, std::to_string(ranks));
  }
  spec.ranks = 4;
  for (int root : {-1, 4}) {
    spec.root = root;
    const config::ConfigError e = error_of(spec);
    EXPECT_EQ(e.key, "job.train.root");
    EXPECT_NE(e.allowed.find("0 to 3"), std::string::npos) << e.allowed;
  }
  spec.root = 0;
  spec.iterations = 0;
  EXPECT_EQ(error_of(spec).key, "job.train.iterations");
  spec.iterations = 1 << 30;
  EXPECT_EQ(error_of(spec).key, "job.train.iterations") << "more ops than memory holds";
  spec.iterations = 1;
  spec.algorithm = "ring";
  const config::ConfigError algorithm = error_of(spec);
  EXPECT_EQ(algorithm.key, "job.train.algorithm");
  EXPECT_NE(algorithm.allowed.find("binomial, multicast"), std::string::npos) << algorithm.allowed;
  spec.algorithm = "binomial";
  spec.bytes = uint64_t{1} << 40;
  spec.chunk_bytes = 1;
  EXPECT_EQ(error_of(spec).key, "job.train.chunk_bytes");
  const config::ConfigError doubling = error_of(spec_of(Collective::allgather, "recursive_doubling", 6, 1000));
  EXPECT_EQ(doubling.key, "job.train.ranks");
  EXPECT_EQ(doubling.value, "6");
  EXPECT_EQ(doubling.allowed, "a power of two for recursive_doubling");
  EXPECT_EQ(build_collective(spec_of(Collective::allgather, "recursive_doubling", 1, 1000)).operations(), 0u);
}

}  // namespace
}  // namespace fabric::traffic
