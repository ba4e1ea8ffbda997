#pragma once
// Records a run into a fabricsim SQLite database (schema: db/schema.sql).
//
// Use: construct, begin_run(), add_port/add_flow/add_flow_dest, hand the
// recorder to the model, then finish(). The Recorder calls only append to an
// in-memory batch; full batches go to a writer thread, one transaction each.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "db/abandoned_runs.h"
#include "db/batch_inserter.h"
#include "db/batch_writer.h"
#include "db/db_error.h"
#include "db/lock_wait.h"
#include "db/record_batch.h"
#include "db/sqlite_handle.h"
#include "model/recording/metric_catalog.h"
#include "model/recording/port_catalog.h"
#include "model/recording/recorder.h"

namespace fabric::db {

// A key as the run resolved it (run_params).
struct RunParam {
  std::string key, value, source;  // source: default, derived, study, config, set, sweep
  std::string origin;              // "" for none
  std::optional<double> number;    // the value in the key's unit; none for text keys
};

// A check of a physical constraint that did not hold (run_warnings).
struct RunWarning {
  std::string check_name, keys, message;
};

struct RunInfo {
  std::string study;
  std::string config_text;  // the full resolved configuration
  std::string model_version;
  std::string log_level;  // "frames" or "summary"
  uint64_t seed = 0;
  std::string platform;
  std::vector<RunParam> params;
  std::vector<RunWarning> warnings;
};

class SqliteRecorder final : public Recorder, public PortCatalog {
 public:
  using RunInfo = db::RunInfo;

  // Records handed to the writer at a time, and how many may wait for it.
  static constexpr size_t kBatchRecords = 65536;
  static constexpr size_t kMaxQueuedBatches = 8;

  // Opens or creates `path` (see open_fabric_database for the errors) and
  // marks the runs of processes that are gone as interrupted
  // (abandoned_runs()). With record_frames false, frame() and delivery() are
  // ignored (log level `summary`); everything else is still written. Until
  // begin_run() has its row, another writer's lock is waited for up to
  // `lock_wait_before_run` seconds; after that, for ever: a run that has
  // simulated never gives up its rows for a lock.
  SqliteRecorder(const std::string& path, bool record_frames, double lock_wait_before_run = LockWait::kForever);
  // Without finish(): writes what is buffered and marks the run 'failed'.
  ~SqliteRecorder() override;
  SqliteRecorder(const SqliteRecorder&) = delete;
  SqliteRecorder& operator=(const SqliteRecorder&) = delete;

  // Inserts the runs row (status 'running') and its owner (this process),
  // in one transaction, and returns its run_id. Call once, before any other
  // call below.
  int64_t begin_run(const RunInfo& info);

  // Metadata, called before simulation; written with the first batch.
  // A repeated port, flow or (flow, destination) throws DbError at once
  // (the table's key would otherwise fail the whole batch later).
  void add_port(int64_t port_id, int64_t leaf_id, const std::string& kind, int rack, int chassis, int cie) override;
  void add_flow(int64_t flow_id, const std::string& name, const std::string& kind, int64_t src_port, int priority,
                double offered_gbps, std::optional<int64_t> frame_bytes, const std::string& frame_size, Picos start_ps,
                std::optional<Picos> stop_ps);
  void add_flow_dest(int64_t flow_id, int64_t dst_port);

  // May be called before begin_run (while the model is built); written
  // with the first batch.
  EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1, const EntityPlace& place = {}) override;
  void frame(const FrameRecord& r) override;
  void delivery(const DeliveryRecord& r) override;
  void drop(const DropRecord& r) override;
  // A metric the catalog does not define, of the other kind, or for an
  // entity of a kind it does not allow, or an entity never declared (or a
  // port not added) throws std::logic_error: a model error.
  void sample_named(Picos t, EntityId entity, std::string_view metric, double value) override;
  void total_named(EntityId entity, std::string_view metric, double value) override;
  void event(Picos t, EventKind kind, EntityId entity, int64_t flow, double value) override;
  // One per (flow, destination); a repeat throws DbError.
  void subflow_summary(const SubflowSummary& s) override;
  // One per job id, a repeat throws DbError; with it go its job_ranks
  // rows, one per port (rank_ends must have one end per port, else
  // std::logic_error: a model error). Written in both log levels.
  void job(const JobRecord& j) override;
  // An operation of a kind other than send, recv, calc (0, 1, 2) throws
  // std::logic_error. Written in both log levels.
  void job_operation(const JobOperationRecord& op) override;

  // Returns once everything recorded so far is committed (e.g. so that a
  // reader sees it). Write failures still surface only in finish().
  void flush();

  // Everything up to simulated time `t` has been recorded: the runs row
  // says so once the current batch is committed, which happens within
  // about a second of wall time, so that a run stopped outright keeps what
  // it simulated up to a second before.
  void reached(Picos t);

  // Whether a batch could not be written: the rest of the run would not
  // be recorded, so the caller stops it (finish() then says why).
  bool write_failed() const;

  // Writes everything and completes the runs row.
  // `status` is 'done', 'interrupted' or 'failed'. Throws DbError if any
  // write failed: the run is then marked 'failed', or 'interrupted' when
  // the file could not grow (DbError::out_of_space(); a full disk, a file
  // size limit), its rows complete up to the simulated time it reached.
  void finish(const std::string& status, Picos sim_time_ps, double wall_seconds);

  const std::string& path() const { return path_; }
  // Runs of processes that are gone, marked interrupted when the file was opened.
  const std::vector<AbandonedRun>& abandoned_runs() const { return abandoned_; }
  int64_t run_id() const { return run_id_; }
  bool records_frames() const { return record_frames_; }

 private:
  enum class State { opened, running, finished };

  // Counts one appended record; hands the batch over when it is full.
  void count_record() {
    if (++pending_ >= kBatchRecords) hand_off();
  }
  // The same for `n` records appended together (so they go in one batch).
  void count_records(size_t n) {
    pending_ += n;
    if (pending_ >= kBatchRecords) hand_off();
  }
  void hand_off();
  void require_running(const char* call) const {
    if (state_ != State::running) throw_not_running(call);
  }
  [[noreturn]] void throw_not_running(const char* call) const;
  [[noreturn]] void throw_duplicate(const char* call, const std::string& what) const;
  // The entity's kind, its row into the batch the first time a record
  // names it (an entity nothing was recorded about has none); throws
  // std::logic_error for an id never declared or a port never added.
  EntityKind use(EntityId entity);
  // Throws std::logic_error unless `metric` is defined, of `kind`, for
  // entities of the entity's kind; then use(entity).
  void check_metric(EntityId entity, std::string_view metric, MetricKind kind);
  // Shared by finish() and the destructor; sim_time/wall unknown there.
  void complete(const std::string& status, std::optional<Picos> sim_time_ps, std::optional<double> wall_seconds);
  // The run's parameters and warnings, in begin_run's transaction.
  void insert_description(int64_t run_id, const RunInfo& info, const char* action);
  // The error of a run the file could not hold, marked interrupted.
  DbError cut_short(const DbError& failure, std::optional<double> wall_seconds);
  void update_run_row(const std::string& status, std::optional<Picos> sim_time_ps, std::optional<double> wall_seconds);

  std::string path_;
  bool record_frames_;
  LockWait lock_wait_;  // declared before db_: outlives the connection
  Connection db_;
  std::vector<AbandonedRun> abandoned_;
  State state_ = State::opened;
  int64_t run_id_ = -1;
  std::chrono::steady_clock::time_point last_hand_off_ = std::chrono::steady_clock::now();
  RecordBatch current_;
  size_t pending_ = 0;
  // Keys already recorded, to refuse duplicates before they reach SQLite.
  std::set<int64_t> ports_seen_, flows_seen_, jobs_seen_;
  EntityTable entities_;
  std::vector<bool> entity_written_;  // by declared entity: its row is in a batch
  std::set<std::pair<int64_t, int64_t>> flow_dests_seen_, summaries_seen_;
  std::unique_ptr<BatchInserter> inserter_;
  std::unique_ptr<BatchWriter> writer_;  // declared after inserter_: destroyed first
};

}  // namespace fabric::db
