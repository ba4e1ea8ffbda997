#include "db/batch_inserter.h"

#include "db/db_error.h"

namespace fabric::db {
namespace {

using TableStatements = BatchInserter::TableStatements;

// "INSERT INTO t(c1, c2) VALUES (?,?),(?,?)..." for `rows` rows.
std::string insert_sql(const char* table, const char* column_list, int columns, int rows) {
  std::string sql = std::string("INSERT INTO ") + table + "(" + column_list + ") VALUES ";
  for (int r = 0; r < rows; ++r) {
    sql += r ? ",(" : "(";
    for (int c = 0; c < columns; ++c) sql += c ? ",?" : "?";
    sql += ")";
  }
  return sql;
}

// run_id is the first column of every row and is bound once here:
// sqlite3_reset keeps bindings.
Statement prepare_rows(sqlite3* db, const std::string& path, int64_t run_id, const char* table, const char* column_list,
                       int columns, int rows) {
  Statement s = prepare(db, path, insert_sql(table, column_list, columns, rows).c_str());
  for (int r = 0; r < rows; ++r) sqlite3_bind_int64(s.get(), r * columns + 1, run_id);
  return s;
}

TableStatements prepare_table(sqlite3* db, const std::string& path, int64_t run_id, const char* table,
                              const char* column_list, int columns) {
  return TableStatements{table, columns, prepare_rows(db, path, run_id, table, column_list, columns, 1),
                         prepare_rows(db, path, run_id, table, column_list, columns, BatchInserter::kRowsPerStatement)};
}

// (Not named bind: std::bind, found by argument-dependent lookup on
// std::optional arguments, would win for rvalues and silently bind nothing.)
inline void bind_value(sqlite3_stmt* s, int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
inline void bind_value(sqlite3_stmt* s, int i, double v) { sqlite3_bind_double(s, i, v); }
// The batch outlives the step, so SQLite need not copy the text.
inline void bind_value(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
}
inline void bind_value(sqlite3_stmt* s, int i, const char* v) { sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC); }
inline void bind_value(sqlite3_stmt* s, int i, const std::optional<int64_t>& v) {
  if (v)
    sqlite3_bind_int64(s, i, *v);
  else
    sqlite3_bind_null(s, i);
}
// Negative means "none" for injection times, drop destinations and event flows.
inline void bind_or_null_if_negative(sqlite3_stmt* s, int i, int64_t v) {
  if (v < 0)
    sqlite3_bind_null(s, i);
  else
    sqlite3_bind_int64(s, i, v);
}
// A literal (a kind's or a direction's name), or NULL when empty.
inline void bind_or_null_if_empty(sqlite3_stmt* s, int i, std::string_view literal) {
  if (literal.empty())
    sqlite3_bind_null(s, i);
  else
    sqlite3_bind_text(s, i, literal.data(), static_cast<int>(literal.size()), SQLITE_STATIC);
}
// An entity's end into (kind, id) at i, i + 1; NULL, NULL for none.
inline void bind_end(sqlite3_stmt* s, int i, const std::optional<Unit>& end) {
  bind_or_null_if_empty(s, i, end ? unit_kind_name(end->kind) : std::string_view());
  bind_value(s, i + 1, end ? std::optional<int64_t>(end->id) : std::nullopt);
}

// bind_row(s, b, row) binds one row's columns 2.. at parameters b+2..; b is
// the row's offset in a multi-row statement. Column 1 is run_id.
void bind_row(sqlite3_stmt* s, int b, const PortRow& r) {
  bind_value(s, b + 2, r.port_id);
  bind_value(s, b + 3, r.leaf_id);
  bind_value(s, b + 4, r.kind);
  bind_value(s, b + 5, int64_t{r.rack});
  bind_value(s, b + 6, int64_t{r.chassis});
  bind_value(s, b + 7, int64_t{r.cie});
}

void bind_row(sqlite3_stmt* s, int b, const FlowRow& r) {
  bind_value(s, b + 2, r.flow_id);
  bind_value(s, b + 3, r.name);
  bind_value(s, b + 4, r.kind);
  bind_value(s, b + 5, r.src_port);
  bind_value(s, b + 6, int64_t{r.priority});
  bind_value(s, b + 7, r.offered_gbps);
  bind_value(s, b + 8, r.frame_bytes);
  bind_value(s, b + 9, r.frame_size);
  bind_value(s, b + 10, r.start_ps);
  bind_value(s, b + 11, r.stop_ps);
}

void bind_row(sqlite3_stmt* s, int b, const FlowDestRow& r) {
  bind_value(s, b + 2, r.flow_id);
  bind_value(s, b + 3, r.dst_port);
}

void bind_row(sqlite3_stmt* s, int b, const FrameRecord& r) {
  bind_value(s, b + 2, static_cast<int64_t>(raw(r.frame)));
  bind_value(s, b + 3, int64_t{raw(r.flow)});
  bind_value(s, b + 4, int64_t{raw(r.src)});
  bind_value(s, b + 5, int64_t{r.bytes});
  bind_value(s, b + 6, int64_t{r.priority});
  bind_value(s, b + 7, r.created);
  bind_or_null_if_negative(s, b + 8, r.injected);
}

void bind_row(sqlite3_stmt* s, int b, const DeliveryRecord& r) {
  bind_value(s, b + 2, static_cast<int64_t>(raw(r.frame)));
  bind_value(s, b + 3, int64_t{raw(r.flow)});
  bind_value(s, b + 4, int64_t{raw(r.dst)});
  bind_value(s, b + 5, r.delivered);
  bind_value(s, b + 6, int64_t{r.surrogate_levels});
  bind_value(s, b + 7, int64_t{r.bytes});
  bind_value(s, b + 8, r.created);
}

void bind_row(sqlite3_stmt* s, int b, const DropRecord& r) {
  bind_value(s, b + 2, static_cast<int64_t>(raw(r.frame)));
  bind_value(s, b + 3, int64_t{raw(r.flow)});
  bind_value(s, b + 4, int64_t{raw(r.port)});
  bind_or_null_if_negative(s, b + 5, r.dst);
  bind_value(s, b + 6, to_string(r.reason));
  bind_value(s, b + 7, r.t);
}

void bind_row(sqlite3_stmt* s, int b, const EntityRow& r) {
  bind_value(s, b + 2, static_cast<int64_t>(r.id));
  const std::string_view kind = kind_name(r.kind);  // a literal: lives as long as the program
  sqlite3_bind_text(s, b + 3, kind.data(), static_cast<int>(kind.size()), SQLITE_STATIC);
  bind_value(s, b + 4, r.name);
  bind_or_null_if_negative(s, b + 5, r.port);
  bind_end(s, b + 6, r.place.from);
  bind_end(s, b + 8, r.place.to);
  bind_or_null_if_empty(s, b + 10, direction_name(r.place.direction));
  bind_or_null_if_negative(s, b + 11, int64_t{r.place.vl});
}

void bind_row(sqlite3_stmt* s, int b, const SampleRow& r) {
  bind_value(s, b + 2, r.t);
  bind_value(s, b + 3, static_cast<int64_t>(r.entity));
  bind_value(s, b + 4, r.metric);
  bind_value(s, b + 5, r.value);
}

void bind_row(sqlite3_stmt* s, int b, const TotalRow& r) {
  bind_value(s, b + 2, static_cast<int64_t>(r.entity));
  bind_value(s, b + 3, r.metric);
  bind_value(s, b + 4, r.value);
}

void bind_row(sqlite3_stmt* s, int b, const EventRow& r) {
  bind_value(s, b + 2, r.t);
  bind_value(s, b + 3, to_string(r.kind));
  bind_value(s, b + 4, static_cast<int64_t>(r.entity));
  bind_or_null_if_negative(s, b + 5, r.flow);
  bind_value(s, b + 6, r.value);
}

void bind_row(sqlite3_stmt* s, int b, const SubflowSummary& r) {
  // Times of a subflow that received nothing are meaningless: NULL.
  auto time_or_null = [&](int i, Picos t) {
    bind_value(s, i, r.frames > 0 ? std::optional<int64_t>(t) : std::nullopt);
  };
  bind_value(s, b + 2, int64_t{raw(r.flow)});
  bind_value(s, b + 3, int64_t{raw(r.dst)});
  bind_value(s, b + 4, static_cast<int64_t>(r.frames));
  bind_value(s, b + 5, static_cast<int64_t>(r.bytes));
  time_or_null(b + 6, r.first_delivered);
  time_or_null(b + 7, r.last_delivered);
  bind_value(s, b + 8, r.latency_sum);
  time_or_null(b + 9, r.latency_min);
  time_or_null(b + 10, r.latency_max);
}

// A job's figures: negative times and rates mean "none".
void bind_row(sqlite3_stmt* s, int b, const JobRecord& r) {
  const bool finished = r.end >= 0;
  bind_value(s, b + 2, int64_t{r.job});
  bind_value(s, b + 3, r.name);
  bind_value(s, b + 4, r.collective);
  bind_value(s, b + 5, r.algorithm);
  bind_value(s, b + 6, static_cast<int64_t>(r.ports.size()));
  bind_or_null_if_negative(s, b + 7, r.bytes);
  bind_value(s, b + 8, int64_t{r.iterations});
  bind_value(s, b + 9, int64_t{r.steps});
  bind_value(s, b + 10, static_cast<int64_t>(r.operations));
  bind_value(s, b + 11, static_cast<int64_t>(r.completed));
  bind_value(s, b + 12, r.start);
  bind_or_null_if_negative(s, b + 13, r.end);
  bind_value(s, b + 14, finished ? std::optional<int64_t>(r.end - r.start) : std::nullopt);
  if (r.algbw_gbps < 0)
    sqlite3_bind_null(s, b + 15);
  else
    bind_value(s, b + 15, r.algbw_gbps);
  if (r.busbw_gbps < 0)
    sqlite3_bind_null(s, b + 16);
  else
    bind_value(s, b + 16, r.busbw_gbps);
}

void bind_row(sqlite3_stmt* s, int b, const JobRankRow& r) {
  bind_value(s, b + 2, int64_t{r.job});
  bind_value(s, b + 3, int64_t{r.rank});
  bind_value(s, b + 4, r.port);
  bind_or_null_if_negative(s, b + 5, r.end);
}

// traffic::JobOpKind's order; SqliteRecorder refuses any other kind.
const char* job_op_kind_name(uint8_t kind) {
  static constexpr const char* kNames[] = {"send", "recv", "calc"};
  return kind < 3 ? kNames[kind] : "?";
}

void bind_row(sqlite3_stmt* s, int b, const JobOperationRecord& r) {
  bind_value(s, b + 2, int64_t{r.job});
  bind_value(s, b + 3, int64_t{r.rank});
  bind_value(s, b + 4, int64_t{r.op});
  bind_value(s, b + 5, job_op_kind_name(r.kind));
  bind_or_null_if_negative(s, b + 6, r.peer);
  bind_or_null_if_negative(s, b + 7, r.group);
  bind_value(s, b + 8, static_cast<int64_t>(r.bytes));
  bind_value(s, b + 9, int64_t{r.step});
  bind_value(s, b + 10, int64_t{r.tag});
  bind_or_null_if_negative(s, b + 11, r.start);
  bind_or_null_if_negative(s, b + 12, r.end);
}

}  // namespace

BatchInserter::BatchInserter(sqlite3* db, std::string path, int64_t run_id)
    : db_(db),
      path_(std::move(path)),
      advance_reached_(prepare(db, path_, "UPDATE runs SET sim_time_ps = ?1 WHERE run_id = ?2")),
      entities_(prepare_table(db, path_, run_id, "entities",
                              "run_id, entity_id, kind, name, port_id, from_kind, from_id, to_kind, to_id, "
                              "direction, vl",
                              11)),
      ports_(prepare_table(db, path_, run_id, "ports", "run_id, port_id, leaf_id, kind, rack, chassis, cie", 7)),
      flows_(prepare_table(db, path_, run_id, "flows",
                           "run_id, flow_id, name, kind, src_port, priority, offered_gbps, frame_bytes, "
                           "frame_size, start_ps, stop_ps",
                           11)),
      flow_dests_(prepare_table(db, path_, run_id, "flow_dests", "run_id, flow_id, dst_port", 3)),
      frames_(prepare_table(db, path_, run_id, "frames",
                            "run_id, frame_id, flow_id, src_port, bytes, priority, t_created_ps, t_injected_ps", 8)),
      deliveries_(prepare_table(
          db, path_, run_id, "deliveries",
          "run_id, frame_id, flow_id, dst_port, t_delivered_ps, surrogate_levels, bytes, t_created_ps", 8)),
      drops_(
          prepare_table(db, path_, run_id, "drops", "run_id, frame_id, flow_id, port_id, dst_port, reason, t_ps", 7)),
      samples_(prepare_table(db, path_, run_id, "samples", "run_id, t_ps, entity_id, metric, value", 5)),
      totals_(prepare_table(db, path_, run_id, "totals", "run_id, entity_id, metric, value", 4)),
      events_(prepare_table(db, path_, run_id, "events", "run_id, t_ps, kind, entity_id, flow_id, value", 6)),
      summaries_(prepare_table(db, path_, run_id, "subflow_summary",
                               "run_id, flow_id, dst_port, frames, bytes, first_delivered_ps, last_delivered_ps, "
                               "latency_sum_ps, latency_min_ps, latency_max_ps",
                               10)),
      jobs_(prepare_table(db, path_, run_id, "jobs",
                          "run_id, job_id, name, collective, algorithm, ranks, bytes, iterations, steps, operations, "
                          "completed_operations, start_ps, end_ps, time_ps, algbw_gbps, busbw_gbps",
                          16)),
      job_ranks_(prepare_table(db, path_, run_id, "job_ranks", "run_id, job_id, rank, port_id, end_ps", 5)),
      job_operations_(prepare_table(db, path_, run_id, "job_operations",
                                    "run_id, job_id, rank, op, kind, peer, multicast_group, bytes, step, tag, "
                                    "start_ps, end_ps",
                                    12)) {
  sqlite3_bind_int64(advance_reached_.get(), 2, run_id);
}

void BatchInserter::write(const RecordBatch& batch) {
  in_write_transaction(db_, path_, "writing a batch", [&] {
    // Metadata first, so that a run's first batch describes the fabric.
    insert_all(batch.entities, entities_);
    insert_all(batch.ports, ports_);
    insert_all(batch.flows, flows_);
    insert_all(batch.flow_dests, flow_dests_);
    insert_all(batch.frames, frames_);
    insert_all(batch.deliveries, deliveries_);
    insert_all(batch.drops, drops_);
    insert_all(batch.samples, samples_);
    insert_all(batch.totals, totals_);
    insert_all(batch.events, events_);
    insert_all(batch.summaries, summaries_);
    insert_all(batch.jobs, jobs_);
    insert_all(batch.job_ranks, job_ranks_);
    insert_all(batch.job_operations, job_operations_);
    if (batch.reached >= 0) {
      sqlite3_bind_int64(advance_reached_.get(), 1, batch.reached);
      step(advance_reached_.get(), "runs");
    }
  });
}

template <typename Row>
void BatchInserter::insert_all(const std::vector<Row>& rows, TableStatements& t) {
  size_t i = 0;
  for (; i + kRowsPerStatement <= rows.size(); i += kRowsPerStatement) {
    for (int k = 0; k < kRowsPerStatement; ++k) bind_row(t.many.get(), k * t.columns, rows[i + k]);
    step(t.many.get(), t.table);
  }
  for (; i < rows.size(); ++i) {
    bind_row(t.one.get(), 0, rows[i]);
    step(t.one.get(), t.table);
  }
}

// Builds the error text only on failure: this runs millions of times.
void BatchInserter::step(sqlite3_stmt* s, const char* table) {
  const int rc = sqlite3_step(s);
  if (rc != SQLITE_DONE) {
    const SqliteFailure failure = sqlite_failure(db_, rc);
    sqlite3_reset(s);
    throw_db_error(path_, std::string("inserting into ") + table, failure);
  }
  sqlite3_reset(s);
}

}  // namespace fabric::db
