#include "db/sqlite_recorder.h"

#include "model/recording/metric_catalog.h"

#include <cstdio>
#include <ctime>

#include "db/database_file.h"
#include "db/run_owner.h"
#include "db/schema.h"

namespace fabric::db {
namespace {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void bind_text(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

}  // namespace

// A batch is committed at least this often (wall time) while a run
// reaches new simulated times, so that a run stopped outright loses at most
// this much.
constexpr std::chrono::seconds kMaxUncommitted{1};

SqliteRecorder::SqliteRecorder(const std::string& path, bool record_frames, double lock_wait_before_run)
    : path_(path),
      record_frames_(record_frames),
      lock_wait_(path, lock_wait_before_run),
      db_(open_fabric_database(path, lock_wait_)),
      abandoned_(mark_abandoned_runs(db_.get(), path)) {}

SqliteRecorder::~SqliteRecorder() {
  if (state_ != State::running) return;
  try {
    complete("failed", std::nullopt, std::nullopt);
  } catch (...) {
    // A destructor must not throw; the run stays 'running' or 'failed'.
  }
}

void SqliteRecorder::insert_description(int64_t run_id, const RunInfo& info, const char* action) {
  Statement param =
      prepare(db_.get(), path_,
              "INSERT INTO run_params(run_id, key, value, source, origin, number) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  for (const RunParam& p : info.params) {
    sqlite3_bind_int64(param.get(), 1, run_id);
    bind_text(param.get(), 2, p.key);
    bind_text(param.get(), 3, p.value);
    bind_text(param.get(), 4, p.source);
    if (p.origin.empty()) {
      sqlite3_bind_null(param.get(), 5);
    } else {
      bind_text(param.get(), 5, p.origin);
    }
    if (p.number) {
      sqlite3_bind_double(param.get(), 6, *p.number);
    } else {
      sqlite3_bind_null(param.get(), 6);
    }
    step_done(db_.get(), param.get(), path_, action);
    sqlite3_reset(param.get());
  }
  Statement warning =
      prepare(db_.get(), path_, "INSERT INTO run_warnings(run_id, check_name, keys, message) VALUES (?1, ?2, ?3, ?4)");
  for (const RunWarning& w : info.warnings) {
    sqlite3_bind_int64(warning.get(), 1, run_id);
    bind_text(warning.get(), 2, w.check_name);
    bind_text(warning.get(), 3, w.keys);
    bind_text(warning.get(), 4, w.message);
    step_done(db_.get(), warning.get(), path_, action);
    sqlite3_reset(warning.get());
  }
}

int64_t SqliteRecorder::begin_run(const RunInfo& info) {
  if (state_ != State::opened) throw DbError("database '" + path_ + "': begin_run() may be called only once");
  const char* action = "starting a run";
  int64_t run_id = -1;  // this object's only once the row is committed
  in_write_transaction(db_.get(), path_, action, [&] {
    Statement insert = prepare(db_.get(), path_,
                               "INSERT INTO runs(study, config, seed, model_version, started_at, status, log_level, "
                               "platform) VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7)");
    bind_text(insert.get(), 1, info.study);
    bind_text(insert.get(), 2, info.config_text);
    sqlite3_bind_int64(insert.get(), 3, static_cast<sqlite3_int64>(info.seed));
    bind_text(insert.get(), 4, info.model_version);
    bind_text(insert.get(), 5, utc_now_iso8601());
    bind_text(insert.get(), 6, info.log_level);
    bind_text(insert.get(), 7, info.platform);
    step_done(db_.get(), insert.get(), path_, action);
    run_id = sqlite3_last_insert_rowid(db_.get());
    insert_description(run_id, info, action);
    const RunOwner me = this_process();
    Statement owner =
        prepare(db_.get(), path_,
                "INSERT INTO run_owners(run_id, host, boot_id, pid, start_ticks) VALUES (?1, ?2, ?3, ?4, ?5)");
    sqlite3_bind_int64(owner.get(), 1, run_id);
    bind_text(owner.get(), 2, me.host);
    bind_text(owner.get(), 3, me.boot_id);
    sqlite3_bind_int64(owner.get(), 4, me.pid);
    sqlite3_bind_int64(owner.get(), 5, me.start_ticks);
    step_done(db_.get(), owner.get(), path_, action);
  });
  run_id_ = run_id;
  lock_wait_.wait_forever();

  try {
    inserter_ = std::make_unique<BatchInserter>(db_.get(), path_, run_id_);
    writer_ = std::make_unique<BatchWriter>(*inserter_, kMaxQueuedBatches);
  } catch (...) {
    inserter_.reset();
    try {
      update_run_row("failed", std::nullopt, std::nullopt);
    } catch (const DbError&) {
    }
    throw;
  }
  state_ = State::running;
  last_hand_off_ = std::chrono::steady_clock::now();
  return run_id_;
}

void SqliteRecorder::add_port(int64_t port_id, int64_t leaf_id, const std::string& kind, int rack, int chassis,
                              int cie) {
  require_running("add_port");
  if (kind != "user" && kind != "surrogate") {
    throw DbError("add_port: port " + std::to_string(port_id) + " has kind '" + kind + "'; allowed: user, surrogate");
  }
  if (port_id < 0 || port_id >= kFirstNamedEntity) {
    throw DbError("add_port: port " + std::to_string(port_id) + " is out of range 0 .. " +
                  std::to_string(kFirstNamedEntity - 1));
  }
  if (!ports_seen_.insert(port_id).second) throw_duplicate("add_port", "port " + std::to_string(port_id));
  current_.entities.push_back(EntityRow{EntityId(port_id), EntityKind::port, "port" + std::to_string(port_id), port_id,
                                        unit_place({UnitKind::port, port_id})});
  current_.ports.push_back(PortRow{port_id, leaf_id, kind, rack, chassis, cie});
  count_record();
}

void SqliteRecorder::add_flow(int64_t flow_id, const std::string& name, const std::string& kind, int64_t src_port,
                              int priority, double offered_gbps, std::optional<int64_t> frame_bytes,
                              const std::string& frame_size, Picos start_ps, std::optional<Picos> stop_ps) {
  require_running("add_flow");
  if (kind != "unicast" && kind != "multicast") {
    throw DbError("add_flow: flow '" + name + "' has kind '" + kind + "'; allowed: unicast, multicast");
  }
  if (!flows_seen_.insert(flow_id).second) throw_duplicate("add_flow", "flow " + std::to_string(flow_id));
  current_.flows.push_back(
      FlowRow{flow_id, name, kind, src_port, priority, offered_gbps, frame_bytes, frame_size, start_ps, stop_ps});
  count_record();
}

void SqliteRecorder::add_flow_dest(int64_t flow_id, int64_t dst_port) {
  require_running("add_flow_dest");
  if (!flow_dests_seen_.insert({flow_id, dst_port}).second) {
    throw_duplicate("add_flow_dest", "flow " + std::to_string(flow_id) + " destination " + std::to_string(dst_port));
  }
  current_.flow_dests.push_back(FlowDestRow{flow_id, dst_port});
  count_record();
}

void SqliteRecorder::frame(const FrameRecord& r) {
  if (!record_frames_) return;
  require_running("frame");
  current_.frames.push_back(r);
  count_record();
}

void SqliteRecorder::delivery(const DeliveryRecord& r) {
  if (!record_frames_) return;
  require_running("delivery");
  current_.deliveries.push_back(r);
  count_record();
}

void SqliteRecorder::drop(const DropRecord& r) {
  require_running("drop");
  current_.drops.push_back(r);
  count_record();
}

EntityId SqliteRecorder::declare(EntityKind kind, const std::string& name, int64_t port, const EntityPlace& place) {
  if (state_ == State::finished) throw_not_running("declare");
  return entities_.declare(kind, name, port, place);
}

EntityKind SqliteRecorder::use(EntityId entity) {
  const int64_t id = static_cast<int64_t>(entity);
  if (id >= 0 && id < kFirstNamedEntity) {
    if (ports_seen_.count(id) == 0)
      throw std::logic_error("entity " + std::to_string(id) + " is a port the run has not added");
    return EntityKind::port;
  }
  const Entity& e = entities_.named(entity);
  const size_t index = static_cast<size_t>(id - kFirstNamedEntity);
  if (index >= entity_written_.size()) entity_written_.resize(entities_.declared().size(), false);
  if (!entity_written_[index]) {
    entity_written_[index] = true;
    current_.entities.push_back(EntityRow{e.id, e.kind, e.name, e.port, e.place});
    count_record();
  }
  return e.kind;
}

void SqliteRecorder::check_metric(EntityId entity, std::string_view metric, MetricKind kind) {
  // Every metric has one definition, with its unit, its kind and the kinds
  // of entity it is for: anything else is a model error
  // (model/recording/metric_catalog.h).
  const MetricDefinition* d = find_metric(metric);
  const EntityKind entity_kind = use(entity);
  const auto where = [&] {
    return "metric '" + std::string(metric) + "' (entity " + std::to_string(static_cast<int64_t>(entity)) + ", a " +
           std::string(kind_name(entity_kind)) + ")";
  };
  if (d == nullptr) throw std::logic_error(where() + " is not defined in model/recording/metric_catalog.h");
  if (d->kind != kind)
    throw std::logic_error(where() + " is a " + std::string(kind_name(d->kind)) + ", recorded as a " +
                           std::string(kind_name(kind)));
  if (!allows(*d, entity_kind)) throw std::logic_error(where() + " is defined for " + std::string(d->entity) + " only");
}

void SqliteRecorder::sample_named(Picos t, EntityId entity, std::string_view metric, double value) {
  require_running("sample");
  check_metric(entity, metric, MetricKind::series);
  current_.samples.push_back(SampleRow{t, entity, std::string(metric), value});
  count_record();
}

void SqliteRecorder::total_named(EntityId entity, std::string_view metric, double value) {
  require_running("total");
  check_metric(entity, metric, MetricKind::total);
  current_.totals.push_back(TotalRow{entity, std::string(metric), value});
  count_record();
}

void SqliteRecorder::event(Picos t, EventKind kind, EntityId entity, int64_t flow, double value) {
  require_running("event");
  use(entity);
  current_.events.push_back(EventRow{t, kind, entity, flow, value});
  count_record();
}

void SqliteRecorder::subflow_summary(const SubflowSummary& s) {
  require_running("subflow_summary");
  if (!summaries_seen_.insert({raw(s.flow), raw(s.dst)}).second) {
    throw_duplicate("subflow_summary",
                    "flow " + std::to_string(raw(s.flow)) + " destination " + std::to_string(raw(s.dst)));
  }
  current_.summaries.push_back(s);
  count_record();
}

void SqliteRecorder::job(const JobRecord& j) {
  require_running("job");
  if (j.rank_ends.size() != j.ports.size()) {
    throw std::logic_error("job " + std::to_string(j.job) + " ('" + j.name + "') has " +
                           std::to_string(j.ports.size()) + " ports but " + std::to_string(j.rank_ends.size()) +
                           " rank ends: one of each per rank");
  }
  if (!jobs_seen_.insert(j.job).second) throw_duplicate("job", "job " + std::to_string(j.job) + " ('" + j.name + "')");
  current_.jobs.push_back(j);
  for (size_t r = 0; r < j.ports.size(); ++r) {
    current_.job_ranks.push_back(JobRankRow{j.job, static_cast<int32_t>(r), int64_t{raw(j.ports[r])}, j.rank_ends[r]});
  }
  count_records(1 + j.ports.size());
}

void SqliteRecorder::job_operation(const JobOperationRecord& op) {
  require_running("job_operation");
  if (op.kind > 2) {
    throw std::logic_error("job " + std::to_string(op.job) + " rank " + std::to_string(op.rank) + " op " +
                           std::to_string(op.op) + " has kind " + std::to_string(op.kind) +
                           "; allowed: 0 send, 1 recv, 2 calc");
  }
  current_.job_operations.push_back(op);
  count_record();
}

void SqliteRecorder::flush() {
  require_running("flush");
  if (!current_.empty()) hand_off();
  writer_->drain();
}

bool SqliteRecorder::write_failed() const { return state_ == State::running && writer_->error().has_value(); }

void SqliteRecorder::reached(Picos t) {
  require_running("reached");
  current_.reached = t;
  if (std::chrono::steady_clock::now() - last_hand_off_ >= kMaxUncommitted) hand_off();
}

void SqliteRecorder::finish(const std::string& status, Picos sim_time_ps, double wall_seconds) {
  if (status != "done" && status != "interrupted" && status != "failed") {
    throw DbError("finish: status '" + status + "' is not one of done, interrupted, failed");
  }
  require_running("finish");
  complete(status, sim_time_ps, wall_seconds);
}

void SqliteRecorder::hand_off() {
  writer_->submit(current_);
  pending_ = 0;
  last_hand_off_ = std::chrono::steady_clock::now();
}

void SqliteRecorder::throw_not_running(const char* call) const {
  const char* why = state_ == State::opened ? "before begin_run()" : "after finish()";
  throw DbError(std::string("database '") + path_ + "': " + call + "() called " + why);
}

void SqliteRecorder::throw_duplicate(const char* call, const std::string& what) const {
  throw DbError(std::string("database '") + path_ + "': " + call + "(): " + what + " was already recorded in run " +
                std::to_string(run_id_));
}

void SqliteRecorder::complete(const std::string& status, std::optional<Picos> sim_time_ps,
                              std::optional<double> wall_seconds) {
  state_ = State::finished;
  if (!current_.empty()) writer_->submit(current_);
  writer_->close();
  const std::optional<DbError> failure = writer_->error();
  writer_.reset();
  inserter_.reset();  // finalizes its statements
  current_ = RecordBatch{};
  pending_ = 0;

  if (failure && failure->out_of_space()) throw cut_short(*failure, wall_seconds);
  if (failure) {
    try {
      update_run_row("failed", sim_time_ps, wall_seconds);
    } catch (const DbError&) {
      // Report the first failure, which is the cause.
    }
    throw DbError("run " + std::to_string(run_id_) + " was not completely recorded: " + failure->what());
  }
  update_run_row(status, sim_time_ps, wall_seconds);
  sqlite3_exec(db_.get(), "PRAGMA optimize", nullptr, nullptr, nullptr);  // best effort
}

DbError SqliteRecorder::cut_short(const DbError& failure, std::optional<double> wall_seconds) {
  // As a stopped run: interrupted, its rows complete up to the simulated
  // time its last committed batch reached (sim_time_ps is left as it is).
  std::string marked;
  try {
    update_run_row("interrupted", std::nullopt, wall_seconds);
    marked = "it is marked interrupted";
  } catch (const DbError&) {
    marked = "it stays 'running' until the next fabricsim to open the file marks it interrupted";
  }
  int64_t reached = 0;
  Statement s = prepare(db_.get(), path_, "SELECT coalesce(sim_time_ps, 0) FROM runs WHERE run_id = ?1");
  sqlite3_bind_int64(s.get(), 1, run_id_);
  if (sqlite3_step(s.get()) == SQLITE_ROW) reached = sqlite3_column_int64(s.get(), 0);
  char kept[96];
  std::snprintf(kept, sizeof kept, "its rows up to %.3f us simulated are kept", static_cast<double>(reached) / 1e6);
  return DbError(std::string(failure.what()) + "; run " + std::to_string(run_id_) + " is cut short: " + kept + " and " +
                     marked + ", the runs before it are intact",
                 true);
}

void SqliteRecorder::update_run_row(const std::string& status, std::optional<Picos> sim_time_ps,
                                    std::optional<double> wall_seconds) {
  const char* action = "completing the runs row";
  in_write_transaction(db_.get(), path_, action, [&] {
    // A run that stops without knowing its time keeps what its batches reached.
    Statement update = prepare(db_.get(), path_,
                               "UPDATE runs SET status = ?1, sim_time_ps = coalesce(?2, sim_time_ps), "
                               "wall_seconds = ?3 WHERE run_id = ?4");
    bind_text(update.get(), 1, status);
    if (sim_time_ps)
      sqlite3_bind_int64(update.get(), 2, *sim_time_ps);
    else
      sqlite3_bind_null(update.get(), 2);
    if (wall_seconds)
      sqlite3_bind_double(update.get(), 3, *wall_seconds);
    else
      sqlite3_bind_null(update.get(), 3);
    sqlite3_bind_int64(update.get(), 4, run_id_);
    step_done(db_.get(), update.get(), path_, action);
    Statement forget = prepare(db_.get(), path_, "DELETE FROM run_owners WHERE run_id = ?1");
    sqlite3_bind_int64(forget.get(), 1, run_id_);
    step_done(db_.get(), forget.get(), path_, action);
  });
}

}  // namespace fabric::db
