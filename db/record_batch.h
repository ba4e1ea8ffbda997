#pragma once
// What the simulation thread collects between two hand-offs to the writer
// thread: plain structs appended to vectors, so recording costs a copy.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/recording/recorder.h"

namespace fabric::db {

struct PortRow {
  int64_t port_id;
  int64_t leaf_id;
  std::string kind;
  int rack;
  int chassis;
  int cie;
};

struct FlowRow {
  int64_t flow_id;
  std::string name;
  std::string kind;
  int64_t src_port;
  int priority;
  double offered_gbps;
  std::optional<int64_t> frame_bytes;
  std::string frame_size;
  Picos start_ps;
  std::optional<Picos> stop_ps;
};

struct FlowDestRow {
  int64_t flow_id;
  int64_t dst_port;
};

// An entity of the run (a port's, or one the model declared).
struct EntityRow {
  EntityId id;
  EntityKind kind;
  std::string name;
  int64_t port;  // -1: none
  EntityPlace place;
};

// A rank of a job (job_ranks), from its JobRecord's ports and rank_ends.
struct JobRankRow {
  uint32_t job;
  int32_t rank;
  int64_t port;
  Picos end;  // -1: not all its operations completed
};

// Samples, totals and events as the model records them.
using SampleRow = SampleRecord;
using TotalRow = TotalRecord;
using EventRow = EventRecord;

// The model's rows (ModelRecords), and the run's description around them.
struct RecordBatch : ModelRecords {
  std::vector<EntityRow> entities;
  std::vector<PortRow> ports;
  std::vector<FlowRow> flows;
  std::vector<FlowDestRow> flow_dests;
  std::vector<SubflowSummary> summaries;
  std::vector<JobRecord> jobs;  // their ports and rank_ends are in job_ranks
  std::vector<JobRankRow> job_ranks;
  std::vector<JobOperationRecord> job_operations;
  // The simulated time the run's rows are complete to once this batch is
  // in (runs.sim_time_ps, advanced in the batch's transaction); -1: unchanged.
  Picos reached = -1;

  size_t size() const {
    return ModelRecords::size() + entities.size() + ports.size() + flows.size() + flow_dests.size() + summaries.size() +
           jobs.size() + job_ranks.size() + job_operations.size();
  }
  bool empty() const { return size() == 0; }
  // Keeps the capacity, so a recycled batch fills without reallocating.
  void clear() {
    ModelRecords::clear();
    entities.clear();
    ports.clear();
    flows.clear();
    flow_dests.clear();
    summaries.clear();
    jobs.clear();
    job_ranks.clear();
    job_operations.clear();
    reached = -1;
  }
};

}  // namespace fabric::db
