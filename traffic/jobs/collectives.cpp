#include "traffic/jobs/collectives.h"

#include <algorithm>
#include <utility>

#include "config/config_error.h"
#include "traffic/jobs/collective_builders.h"

namespace fabric::traffic {
namespace {

using config::ConfigError;
using namespace collective_builders;

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

using Builder = void (*)(const CollectiveSpec&, JobSchedule&);

Builder builder_of(Collective c, const std::string& algorithm) {
  switch (c) {
    case Collective::allreduce:
      return algorithm == "ring" ? ring_allreduce : double_binary_tree_allreduce;
    case Collective::allgather:
      if (algorithm == "ring") return ring_allgather;
      return algorithm == "recursive_doubling" ? recursive_doubling_allgather : multicast_allgather;
    case Collective::reducescatter:
      return ring_reducescatter;
    case Collective::alltoall:
      return algorithm == "pairwise" ? pairwise_alltoall : direct_alltoall;
    case Collective::broadcast:
      return algorithm == "binomial" ? binomial_broadcast : multicast_broadcast;
    case Collective::incast:
      return direct_incast;
    case Collective::permutation:
      return shift_permutation;
  }
  return nullptr;
}

void check_spec(const CollectiveSpec& spec) {
  const std::string& prefix = spec.key_prefix;
  if (spec.ranks < 1) throw ConfigError(prefix + "ranks", std::to_string(spec.ranks), "at least 1");
  const std::vector<std::string>& allowed = algorithms_of(spec.collective);
  if (std::find(allowed.begin(), allowed.end(), spec.algorithm) == allowed.end())
    throw ConfigError(prefix + "algorithm", spec.algorithm,
                      "for " + to_string(spec.collective) + " one of: " + joined(allowed));
  if (spec.root < 0 || spec.root >= spec.ranks)
    throw ConfigError(prefix + "root", std::to_string(spec.root),
                      "a rank from 0 to " + std::to_string(spec.ranks - 1) + " (ranks - 1)");
  if (spec.iterations < 1) throw ConfigError(prefix + "iterations", std::to_string(spec.iterations), "at least 1");
  const bool power_of_two = (spec.ranks & (spec.ranks - 1)) == 0;
  if (spec.algorithm == "recursive_doubling" && !power_of_two)
    throw ConfigError(prefix + "ranks", std::to_string(spec.ranks), "a power of two for recursive_doubling");
  if (spec.ranks == 1) return;
  const uint64_t chunked_ops = spec.algorithm == "tree"       ? double_binary_tree_ops(spec)
                               : spec.algorithm == "binomial" ? binomial_broadcast_ops(spec)
                                                              : 0;
  if (chunked_ops > kMostCollectiveOperations)
    throw ConfigError(prefix + "chunk_bytes", std::to_string(spec.chunk_bytes),
                      "a chunk large enough for at most " + std::to_string(kMostCollectiveOperations) +
                          " ops (this one gives " + std::to_string(chunked_ops) + ")");
}

// The ops of a rank's iteration that no other op of it requires: once they
// have completed, every op of the iteration has.
std::vector<uint32_t> last_ops(const RankSchedule& rank) {
  std::vector<bool> required(rank.ops.size(), false);
  for (const JobOp& op : rank.ops)
    for (uint32_t r : op.after) required[r] = true;
  std::vector<uint32_t> last;
  for (uint32_t i = 0; i < rank.ops.size(); ++i)
    if (!required[i]) last.push_back(i);
  return last;
}

// Appends iterations 1..n-1, copies of iteration 0 with steps and tags
// shifted past the previous iteration's, each rank's first ops of an
// iteration requiring the last ops of the one before.
void repeat_iterations(const CollectiveSpec& spec, JobSchedule& s) {
  uint32_t tag_span = 0;
  uint64_t ops = 0;
  for (const RankSchedule& rank : s.ranks) {
    ops += rank.ops.size();
    for (const JobOp& op : rank.ops) tag_span = std::max(tag_span, op.tag + 1);
  }
  const auto iterations = static_cast<uint64_t>(spec.iterations);
  const uint64_t most_iterations = std::min(ops == 0 ? UINT64_MAX : kMostCollectiveOperations / ops,
                                            uint64_t{UINT32_MAX} / std::max(tag_span, s.steps));
  if (iterations > most_iterations)
    throw ConfigError(spec.key_prefix + "iterations", std::to_string(spec.iterations),
                      "at most " + std::to_string(most_iterations) + " for this collective's " + std::to_string(ops) +
                          " ops and " + std::to_string(s.steps) + " steps");
  for (RankSchedule& rank : s.ranks) {
    const auto per_iteration = static_cast<uint32_t>(rank.ops.size());
    rank.ops.reserve(per_iteration * iterations);
    const std::vector<uint32_t> last_of_first = last_ops(rank);
    for (uint32_t i = 1; i < iterations; ++i) {
      std::vector<uint32_t> barrier = last_of_first;
      for (uint32_t& b : barrier) b += (i - 1) * per_iteration;
      for (uint32_t k = 0; k < per_iteration; ++k) {
        JobOp op = rank.ops[k];
        op.step += i * s.steps;
        op.tag += i * tag_span;
        for (uint32_t& r : op.after) r += i * per_iteration;
        for (uint32_t& r : op.after_start) r += i * per_iteration;
        if (op.after.empty() && op.after_start.empty()) op.after = barrier;
        rank.ops.push_back(std::move(op));
      }
    }
  }
  s.steps *= static_cast<uint32_t>(iterations);
}

}  // namespace

JobSchedule build_collective(const CollectiveSpec& spec) {
  check_spec(spec);
  JobSchedule s;
  s.algorithm = spec.algorithm;
  s.ranks.resize(static_cast<size_t>(spec.ranks));
  if (spec.ranks == 1) return s;  // nothing to exchange
  builder_of(spec.collective, spec.algorithm)(spec, s);
  uint32_t largest_step = 0;
  for (const RankSchedule& rank : s.ranks)
    for (const JobOp& op : rank.ops) largest_step = std::max(largest_step, op.step);
  s.steps = largest_step + 1;
  repeat_iterations(spec, s);
  return s;
}

const std::vector<std::string>& algorithms_of(Collective c) {
  static const std::vector<std::string> allreduce{"ring", "tree"};
  static const std::vector<std::string> allgather{"ring", "recursive_doubling", "multicast"};
  static const std::vector<std::string> reducescatter{"ring"};
  static const std::vector<std::string> alltoall{"pairwise", "direct"};
  static const std::vector<std::string> broadcast{"binomial", "multicast"};
  static const std::vector<std::string> incast{"direct"};
  static const std::vector<std::string> permutation{"shift"};
  switch (c) {
    case Collective::allreduce:
      return allreduce;
    case Collective::allgather:
      return allgather;
    case Collective::reducescatter:
      return reducescatter;
    case Collective::alltoall:
      return alltoall;
    case Collective::broadcast:
      return broadcast;
    case Collective::incast:
      return incast;
    case Collective::permutation:
      return permutation;
  }
  return allreduce;
}

const std::vector<std::string>& collective_names() {
  static const std::vector<std::string> names{"allreduce", "allgather", "reducescatter", "alltoall",
                                              "broadcast", "incast",    "permutation"};
  return names;
}

std::string to_string(Collective c) { return collective_names()[static_cast<size_t>(c)]; }

Collective collective_named(const std::string& name, const std::string& key) {
  const std::vector<std::string>& names = collective_names();
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) throw ConfigError(key, name, "one of: " + joined(names));
  return static_cast<Collective>(found - names.begin());
}

uint64_t algorithm_bytes(const CollectiveSpec& spec) {
  if (spec.collective == Collective::incast) return static_cast<uint64_t>(std::max(spec.ranks - 1, 0)) * spec.bytes;
  return spec.bytes;
}

double bus_factor(Collective c, int ranks) {
  const double n = ranks;
  switch (c) {
    case Collective::allreduce:
      return 2 * (n - 1) / n;
    case Collective::allgather:
    case Collective::reducescatter:
    case Collective::alltoall:
      return (n - 1) / n;
    case Collective::broadcast:
    case Collective::incast:
    case Collective::permutation:
      return 1;
  }
  return 1;
}

uint64_t shard_bytes(uint64_t total, int parts, int index) {
  const auto n = static_cast<uint64_t>(parts);
  return total / n + (static_cast<uint64_t>(index) < total % n ? 1 : 0);
}

}  // namespace fabric::traffic
