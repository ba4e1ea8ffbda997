// Cost of the fabric's event queue (counter time_per_event in seconds, shown
// with its SI prefix):
//   BM_TimingWheelEvent/N: one pop and one push, the steady state of a
//     simulation with N entries pending, each new entry due 80 to 300 ns
//     after the one just served (a link hop: serialization plus cable), as
//     in the full 640-port system (~30,000 pending). No prefetch hint: this
//     is the wheel's own cost, its entries mostly in cache.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "model/core/timing_wheel.h"

namespace {

void BM_TimingWheelEvent(benchmark::State& state) {
  const int pending = static_cast<int>(state.range(0));
  fabric::TimingWheel<uint64_t> wheel(8, 12);
  std::mt19937_64 rng(1);
  std::vector<fabric::Picos> delays(1 << 16);
  for (auto& d : delays) d = 80'000 + static_cast<fabric::Picos>(rng() % 220'000);
  size_t next = 0;
  for (int i = 0; i < pending; ++i) wheel.push(delays[next++ % delays.size()], static_cast<uint64_t>(i));
  int64_t events = 0;
  for (auto _ : state) {
    const auto e = wheel.pop();
    wheel.push(e.due + delays[next++ & (delays.size() - 1)], e.value);
    ++events;
  }
  state.counters["time_per_event"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_TimingWheelEvent)->Arg(1000)->Arg(30000);

}  // namespace
