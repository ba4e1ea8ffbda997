// What a partition's cold state costs a turn (issue 56, step 2's bound).
// The census (docs/performance.md, step 1) found that one turn of perm640
// at 40 m touches 2,122 distinct lines (133 KiB) and that the other 159
// turns of the window pass 19 MiB through the cache before the partition's
// next turn. These benchmarks touch a turn's lines (spread over the
// partition's state, each read and written once, in an order fixed per
// run), with and without 19 MiB of other lines touched before each turn,
// and give the time of one turn (counter turn_time):
//   BM_TurnAfterOtherPartitions/LINES/POLLUTION_MIB: the model as it is,
//     the state found where the other partitions left the cache;
//   BM_TurnWarm/LINES: the same lines with nothing in between: what a
//     layout that kept a partition's state resident would at best reach;
//   BM_Chain*: the same as a chain of dependent loads (no overlap).
// The difference, times 160 turns and 5,000 windows a simulated ms, is the
// most a layout could remove from perm640's run time at 40 m; fewer lines a
// turn (the packed layout) remove their share of it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr size_t kLine = 64;

// A partition's state: `lines` lines spread over a region 4 times as large
// (units, queues and pools interleaved with what a turn does not touch), in
// a shuffled order of visit.
struct Partition {
  std::vector<uint8_t> state;
  std::vector<uint32_t> visit;  // line offsets, in the order a turn touches them
  Partition(size_t lines, uint64_t seed) : state(lines * 4 * kLine, 1) {
    std::vector<uint32_t> all(lines * 4);
    std::iota(all.begin(), all.end(), 0);
    std::mt19937_64 rng(seed);
    std::shuffle(all.begin(), all.end(), rng);
    visit.assign(all.begin(), all.begin() + static_cast<long>(lines));
  }
  // Each line read and written, the addresses known ahead (the loads overlap).
  uint64_t turn() {
    uint64_t sum = 0;
    for (uint32_t line : visit) {
      uint8_t& byte = state[line * kLine + (line & 7) * 8];
      sum += byte;
      byte = static_cast<uint8_t>(sum);
    }
    return sum;
  }
  // Each line holds the next one's offset (a pointer chased: no load starts
  // before the one before it ends), written back as it is read.
  void link() {
    for (size_t i = 0; i < visit.size(); ++i) slot(visit[i]) = visit[(i + 1) % visit.size()];
  }
  uint64_t chase() {
    uint32_t line = visit.front();
    for (size_t i = 0; i < visit.size(); ++i) {
      uint32_t& next = slot(line);
      line = next;
      next = line;  // the store of an event's update
    }
    return line;
  }
  uint32_t& slot(uint32_t line) { return *reinterpret_cast<uint32_t*>(&state[line * kLine]); }
};

// The other partitions' lines, touched between two turns.
struct Others {
  std::vector<uint8_t> lines;
  explicit Others(size_t mib) : lines(mib << 20, 1) {}
  uint64_t touch() {
    uint64_t sum = 0;
    for (size_t i = 0; i < lines.size(); i += kLine) {
      sum += lines[i];
      lines[i] = static_cast<uint8_t>(sum);
    }
    return sum;
  }
};

void report(benchmark::State& state, int64_t turns) {
  state.counters["turn_time"] =
      benchmark::Counter(static_cast<double>(turns), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Turns of a partition of state.range(0) lines, each after `others_mib`
// MiB of other partitions' lines (untimed; 0: none); `chained`: the turn
// chases its lines.
void turns(benchmark::State& state, bool chained, size_t others_mib) {
  Partition p(static_cast<size_t>(state.range(0)), 1);
  if (chained) p.link();
  Others others(others_mib);
  int64_t count = 0;
  for (auto _ : state) {
    if (others_mib > 0) {
      state.PauseTiming();
      benchmark::DoNotOptimize(others.touch());
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(chained ? p.chase() : p.turn());
    ++count;
  }
  report(state, count);
}

void BM_TurnAfterOtherPartitions(benchmark::State& state) { turns(state, false, static_cast<size_t>(state.range(1))); }
BENCHMARK(BM_TurnAfterOtherPartitions)
    ->Args({2122, 19})
    ->Args({1061, 19})
    ->Args({6493, 61})
    ->Iterations(300)
    ->UseRealTime();

void BM_TurnWarm(benchmark::State& state) { turns(state, false, 0); }
BENCHMARK(BM_TurnWarm)->Arg(2122)->Arg(1061)->Arg(6493)->UseRealTime();

// The same with each line's address known only from the line before: a
// turn as a chain of dependent loads (the model's events follow pointers
// from a message to its port, queue and credit state).
void BM_ChainAfterOtherPartitions(benchmark::State& state) { turns(state, true, static_cast<size_t>(state.range(1))); }
BENCHMARK(BM_ChainAfterOtherPartitions)->Args({2122, 19})->Args({1061, 19})->Iterations(300)->UseRealTime();

void BM_ChainWarm(benchmark::State& state) { turns(state, true, 0); }
BENCHMARK(BM_ChainWarm)->Arg(2122)->Arg(1061)->UseRealTime();

}  // namespace
