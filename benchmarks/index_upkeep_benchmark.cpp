// What keeping the schema's indexes up during a load costs (issue 19), on
// the rows they index: occupancy samples (samples_by_series) in the order a
// run writes them, every port's two metrics per sampling instant.
//   BM_IndexedRowsKept:          the indexes stay, kept up per insert (this
//                                version's design);
//   BM_IndexedRowsDroppedRebuilt: the indexes are dropped before the load
//                                and built after it (the design before).
// Both time the first record until finish() returns (and the rebuild).
// Counter rows_per_s = samples / wall time.
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "db/sqlite_recorder.h"

namespace {

namespace fs = std::filesystem;
using fabric::db::SqliteRecorder;

constexpr int kPorts = 1536;
const char* const kIndexes[] = {"drops_by_run ON drops(run_id)", "events_by_run ON events(run_id, kind)",
                                "samples_by_series ON samples(run_id, metric, entity_id)"};

fs::path temp_db_path() {
  return fs::temp_directory_path() / ("fabricsim_index_bench_" + std::to_string(::getpid()) + ".db");
}

void remove_db(const fs::path& p) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(p.string() + suffix);
}

void exec(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
}

void record_samples(SqliteRecorder& rec, int64_t samples) {
  for (int64_t i = 0; i < samples; i += 2) {
    const fabric::Picos t = (i / 2 / kPorts + 1) * 10'000'000;
    const fabric::EntityId entity = fabric::port_entity(fabric::PortId(static_cast<uint32_t>(i / 2 % kPorts)));
    rec.sample(t, entity, fabric::metric::ingress_bytes, static_cast<double>(i % 4096));
    rec.sample(t, entity, fabric::metric::egress_bytes, static_cast<double>(i % 8192));
  }
}

void load(benchmark::State& state, bool drop_and_rebuild) {
  const int64_t samples = state.range(0);
  const fs::path path = temp_db_path();
  for (auto _ : state) {
    state.PauseTiming();
    remove_db(path);
    { SqliteRecorder create(path.string(), true); }  // schema and indexes
    state.ResumeTiming();
    if (drop_and_rebuild) exec(path, "DROP INDEX drops_by_run; DROP INDEX events_by_run; DROP INDEX samples_by_series");
    {
      SqliteRecorder rec(path.string(), true);
      rec.begin_run({"bench", "[bench]", "0", "frames", 1});
      for (int p = 0; p < kPorts; ++p) rec.add_port(p, 0, "user", 0, 0, 0);
      record_samples(rec, samples);
      rec.finish("done", samples, 0.0);
    }
    if (drop_and_rebuild)
      for (const char* index : kIndexes) exec(path, std::string("CREATE INDEX ") + index);
  }
  remove_db(path);
  state.counters["rows_per_s"] =
      benchmark::Counter(static_cast<double>(samples), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_IndexedRowsKept(benchmark::State& state) { load(state, false); }
void BM_IndexedRowsDroppedRebuilt(benchmark::State& state) { load(state, true); }

}  // namespace

// 2 M samples per iteration: 650 sampling instants of the full system.
BENCHMARK(BM_IndexedRowsKept)->Arg(2'000'000)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_IndexedRowsDroppedRebuilt)->Arg(2'000'000)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
