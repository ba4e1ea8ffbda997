#include "db/batch_inserter.h"

#include "db/db_error.h"

namespace fabric::db {
namespace {

// run_id is always parameter 1 and bound once: sqlite3_reset keeps bindings.
Statement prepare_for_run(sqlite3* db, const std::string& path, int64_t run_id, const char* sql) {
  Statement s = prepare(db, path, sql);
  sqlite3_bind_int64(s.get(), 1, run_id);
  return s;
}

inline void bind(sqlite3_stmt* s, int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
inline void bind(sqlite3_stmt* s, int i, double v) { sqlite3_bind_double(s, i, v); }
// The batch outlives the step, so SQLite need not copy the text.
inline void bind(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
}
inline void bind(sqlite3_stmt* s, int i, const char* v) { sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC); }
template <typename T>
inline void bind(sqlite3_stmt* s, int i, const std::optional<T>& v) {
  if (v) bind(s, i, static_cast<int64_t>(*v)); else sqlite3_bind_null(s, i);
}
// Negative means "none" for injection times, drop destinations and event flows.
inline void bind_or_null_if_negative(sqlite3_stmt* s, int i, int64_t v) {
  if (v < 0) sqlite3_bind_null(s, i); else sqlite3_bind_int64(s, i, v);
}

}  // namespace

BatchInserter::BatchInserter(sqlite3* db, std::string path, int64_t run_id)
    : db_(db),
      path_(std::move(path)),
      ports_(prepare_for_run(db, path_, run_id,
                             "INSERT INTO ports(run_id, port_id, leaf_id, kind, rack, chassis, cie) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")),
      flows_(prepare_for_run(db, path_, run_id,
                             "INSERT INTO flows(run_id, flow_id, name, kind, src_port, priority, offered_gbps, "
                             "frame_bytes, frame_size, start_ps, stop_ps) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)")),
      flow_dests_(prepare_for_run(db, path_, run_id,
                                  "INSERT INTO flow_dests(run_id, flow_id, dst_port) VALUES (?1, ?2, ?3)")),
      frames_(prepare_for_run(db, path_, run_id,
                              "INSERT INTO frames(run_id, frame_id, flow_id, src_port, bytes, priority, "
                              "t_created_ps, t_injected_ps) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")),
      deliveries_(prepare_for_run(db, path_, run_id,
                                  "INSERT INTO deliveries(run_id, frame_id, flow_id, dst_port, t_delivered_ps, "
                                  "surrogate_levels) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")),
      drops_(prepare_for_run(db, path_, run_id,
                             "INSERT INTO drops(run_id, frame_id, flow_id, port_id, dst_port, reason, t_ps) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")),
      samples_(prepare_for_run(db, path_, run_id,
                               "INSERT INTO samples(run_id, t_ps, entity, metric, value) "
                               "VALUES (?1, ?2, ?3, ?4, ?5)")),
      events_(prepare_for_run(db, path_, run_id,
                              "INSERT INTO events(run_id, t_ps, kind, entity, flow_id, value) "
                              "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")),
      summaries_(prepare_for_run(db, path_, run_id,
                                 "INSERT INTO subflow_summary(run_id, flow_id, dst_port, frames, bytes, "
                                 "first_delivered_ps, last_delivered_ps, latency_sum_ps, latency_min_ps, "
                                 "latency_max_ps) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)")) {}

void BatchInserter::write(const RecordBatch& batch) {
  exec(db_, path_, "starting a batch", "BEGIN IMMEDIATE");
  try {
    insert_rows(batch);
    exec(db_, path_, "committing a batch", "COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void BatchInserter::insert_rows(const RecordBatch& batch) {
  // Builds the error text only on failure: this runs millions of times.
  auto step = [this](sqlite3_stmt* s, const char* table) {
    const int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE) {
      const std::string reason = sqlite_reason(db_, rc);
      sqlite3_reset(s);
      throw_db_error(path_, std::string("inserting into ") + table, reason);
    }
    sqlite3_reset(s);
  };

  for (const PortRow& r : batch.ports) {
    sqlite3_stmt* s = ports_.get();
    bind(s, 2, r.port_id);
    bind(s, 3, r.leaf_id);
    bind(s, 4, r.kind);
    bind(s, 5, int64_t{r.rack});
    bind(s, 6, int64_t{r.chassis});
    bind(s, 7, int64_t{r.cie});
    step(s, "ports");
  }
  for (const FlowRow& r : batch.flows) {
    sqlite3_stmt* s = flows_.get();
    bind(s, 2, r.flow_id);
    bind(s, 3, r.name);
    bind(s, 4, r.kind);
    bind(s, 5, r.src_port);
    bind(s, 6, int64_t{r.priority});
    bind(s, 7, r.offered_gbps);
    bind(s, 8, r.frame_bytes);
    bind(s, 9, r.frame_size);
    bind(s, 10, r.start_ps);
    bind(s, 11, r.stop_ps);
    step(s, "flows");
  }
  for (const FlowDestRow& r : batch.flow_dests) {
    sqlite3_stmt* s = flow_dests_.get();
    bind(s, 2, r.flow_id);
    bind(s, 3, r.dst_port);
    step(s, "flow_dests");
  }
  for (const FrameRecord& r : batch.frames) {
    sqlite3_stmt* s = frames_.get();
    bind(s, 2, static_cast<int64_t>(raw(r.frame)));
    bind(s, 3, int64_t{raw(r.flow)});
    bind(s, 4, int64_t{raw(r.src)});
    bind(s, 5, int64_t{r.bytes});
    bind(s, 6, int64_t{r.priority});
    bind(s, 7, r.created);
    bind_or_null_if_negative(s, 8, r.injected);
    step(s, "frames");
  }
  for (const DeliveryRecord& r : batch.deliveries) {
    sqlite3_stmt* s = deliveries_.get();
    bind(s, 2, static_cast<int64_t>(raw(r.frame)));
    bind(s, 3, int64_t{raw(r.flow)});
    bind(s, 4, int64_t{raw(r.dst)});
    bind(s, 5, r.delivered);
    bind(s, 6, int64_t{r.surrogate_levels});
    step(s, "deliveries");
  }
  for (const DropRecord& r : batch.drops) {
    sqlite3_stmt* s = drops_.get();
    bind(s, 2, static_cast<int64_t>(raw(r.frame)));
    bind(s, 3, int64_t{raw(r.flow)});
    bind(s, 4, int64_t{raw(r.port)});
    bind_or_null_if_negative(s, 5, r.dst);
    bind(s, 6, to_string(r.reason));
    bind(s, 7, r.t);
    step(s, "drops");
  }
  for (const SampleRow& r : batch.samples) {
    sqlite3_stmt* s = samples_.get();
    bind(s, 2, r.t);
    bind(s, 3, r.entity);
    bind(s, 4, r.metric);
    bind(s, 5, r.value);
    step(s, "samples");
  }
  for (const EventRow& r : batch.events) {
    sqlite3_stmt* s = events_.get();
    bind(s, 2, r.t);
    bind(s, 3, to_string(r.kind));
    bind(s, 4, r.entity);
    bind_or_null_if_negative(s, 5, r.flow);
    bind(s, 6, r.value);
    step(s, "events");
  }
  for (const SubflowSummary& r : batch.summaries) {
    sqlite3_stmt* s = summaries_.get();
    // Times of a subflow that received nothing are meaningless: NULL.
    const bool received = r.frames > 0;
    auto time_or_null = [&](int i, Picos t) {
      if (received) bind(s, i, t); else sqlite3_bind_null(s, i);
    };
    bind(s, 2, int64_t{raw(r.flow)});
    bind(s, 3, int64_t{raw(r.dst)});
    bind(s, 4, static_cast<int64_t>(r.frames));
    bind(s, 5, static_cast<int64_t>(r.bytes));
    time_or_null(6, r.first_delivered);
    time_or_null(7, r.last_delivered);
    bind(s, 8, r.latency_sum);
    time_or_null(9, r.latency_min);
    time_or_null(10, r.latency_max);
    step(s, "subflow_summary");
  }
}

}  // namespace fabric::db
