// Cost of the leaf's per-packet algorithms (counters time_per_grant and
// time_per_packet are in seconds, shown with their SI prefix, e.g. 20ns).
//   BM_CreditArbiterGrant:  ns per grant from arbitrate() with 8 backlogged
//                           requesters (requests of 1..36 units, quantum 36,
//                           560-unit pool, every grant released right away).
//   BM_ReorderBufferPacket: ns per packet through ReorderBuffer::on_packet
//                           (1522 B copies, 6 packets each, arriving in a
//                           fixed permuted order), pop() included.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "model/leaf/credit_arbiter.h"
#include "model/leaf/reorder_buffer.h"
#include "model/leaf/segmentation.h"

namespace {

using fabric::CreditArbiter;

void BM_CreditArbiterGrant(benchmark::State& state) {
  constexpr uint32_t kRequesters = 8;
  CreditArbiter arb(560, 36);
  std::mt19937 rng(1);
  std::uniform_int_distribution<uint32_t> size(1, 36);
  std::vector<uint32_t> sizes(4096);
  for (auto& s : sizes) s = size(rng);
  size_t next = 0;
  for (uint32_t r = 0; r < kRequesters; ++r)
    for (int k = 0; k < 4; ++k) arb.request(r, sizes[next++ % sizes.size()], 1);
  std::vector<CreditArbiter::Grant> out;
  out.reserve(64);
  int64_t grants = 0;
  for (auto _ : state) {
    out.clear();
    arb.arbitrate(out);
    for (const auto& g : out) {
      arb.release(g.units);
      arb.request(g.requester, sizes[next++ % sizes.size()], 1);  // stay backlogged
    }
    grants += static_cast<int64_t>(out.size());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(grants);
  state.counters["time_per_grant"] =
      benchmark::Counter(static_cast<double>(grants), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CreditArbiterGrant);

void BM_ReorderBufferPacket(benchmark::State& state) {
  constexpr uint32_t kCopies = 64;
  const uint16_t segs = fabric::segment_count(1522, 256);
  struct Pkt {
    uint32_t copy;
    uint16_t index;
  };
  std::vector<Pkt> order;
  for (uint32_t c = 0; c < kCopies; ++c)
    for (uint16_t i = 0; i < segs; ++i) order.push_back({c, i});
  std::mt19937 rng(2);
  std::shuffle(order.begin(), order.end(), rng);
  fabric::CopyMeta meta;
  meta.bytes = 1522;
  meta.segments = segs;

  fabric::ReorderBuffer rb;
  uint32_t base = 0;
  int64_t packets = 0;
  for (auto _ : state) {
    for (const Pkt& p : order) {
      rb.on_packet(base + p.copy, p.index, meta, static_cast<fabric::Picos>(p.copy));
      while (rb.has_ready()) benchmark::DoNotOptimize(rb.pop());
    }
    base += kCopies;
    packets += static_cast<int64_t>(order.size());
  }
  state.SetItemsProcessed(packets);
  state.counters["time_per_packet"] =
      benchmark::Counter(static_cast<double>(packets), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ReorderBufferPacket);

}  // namespace
