// Throughput of SqliteRecorder writing frames and deliveries (a unicast run
// where each frame is delivered once). Target: >= 1.5 M rows/s written.
//   BM_RecorderLoad:      first record until flush() returns, i.e. every row
//                         committed by the writer thread, indexes included
//                         (they are kept up per insert).
//   BM_RecorderEndToEnd:  first record until finish() returns.
// Counter rows_per_s = (frames + deliveries) / wall time.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "db/sqlite_recorder.h"

namespace {

namespace fs = std::filesystem;
using fabric::db::SqliteRecorder;

fs::path temp_db_path() {
  return fs::temp_directory_path() / ("fabricsim_recorder_bench_" + std::to_string(::getpid()) + ".db");
}

void remove_db(const fs::path& p) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(p.string() + suffix);
}

void record_frames(SqliteRecorder& rec, int64_t frames) {
  constexpr uint32_t kPorts = 64;
  for (int64_t i = 0; i < frames; ++i) {
    const auto src = static_cast<uint32_t>(i % kPorts);
    const auto frame_id = fabric::FrameId((uint64_t{src} << 32) | static_cast<uint64_t>(i / kPorts));
    const fabric::Picos t = i * 1200;
    rec.frame({frame_id, fabric::FlowId(src), fabric::PortId(src), 1500, 0, t, t + 100});
    rec.delivery({frame_id, fabric::FlowId(src), fabric::PortId((src + 7) % kPorts), t + 900000, 0, 1500, t});
  }
}

void BM_RecorderLoad(benchmark::State& state) {
  const int64_t frames = state.range(0);
  const fs::path path = temp_db_path();
  for (auto _ : state) {
    state.PauseTiming();
    remove_db(path);
    SqliteRecorder rec(path.string(), true);
    rec.begin_run({"bench", "[bench]", "0", "frames", 1});
    state.ResumeTiming();
    record_frames(rec, frames);
    rec.flush();
    state.PauseTiming();
    rec.finish("done", frames * 1200, 0.0);
    state.ResumeTiming();
  }
  remove_db(path);
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(2 * frames), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_RecorderEndToEnd(benchmark::State& state) {
  const int64_t frames = state.range(0);
  const fs::path path = temp_db_path();
  for (auto _ : state) {
    state.PauseTiming();
    remove_db(path);
    SqliteRecorder rec(path.string(), true);
    rec.begin_run({"bench", "[bench]", "0", "frames", 1});
    state.ResumeTiming();
    record_frames(rec, frames);
    rec.finish("done", frames * 1200, 0.0);
  }
  remove_db(path);
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(2 * frames), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

// 2 M frames + 2 M deliveries per iteration.
BENCHMARK(BM_RecorderLoad)->Arg(2'000'000)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_RecorderEndToEnd)->Arg(2'000'000)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
