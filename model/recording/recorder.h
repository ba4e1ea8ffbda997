#pragma once
// What the model publishes about a run. The model knows only this interface;
// db/ implements it with SQLite. Calls come from the simulation thread and
// must be cheap (implementations buffer and write elsewhere).
#include <string>
#include <string_view>
#include <vector>

#include "model/core/drop_reason.h"
#include "model/core/ids.h"
#include "model/recording/entity.h"
#include "model/recording/entity_table.h"
#include "model/recording/metrics.h"

namespace fabric {

// pause_headers: beside a 'pause' (STOP) that the header pool called for.
// hold: a lossless frame without room waits at a user port (never dropped).
// xoff, xon: an 802.3x controller's decision on its memory's occupancy
// (value: the occupancy in bytes), before the PAUSE frames it sends.
// reservation: a ring packet's reservation complete, it is multicast (value:
// the tickets it took); retract: a ring sender retracts a reservation.
// invariant_broken: the run stopped on a broken invariant (the message on
// stderr names it, the entity, the time and the numbers).
enum class EventKind {
  pause,
  go,
  pause_headers,
  hold,
  cnm,
  rate_change,
  link_replay,
  retransmission,
  sync_suspend,
  sync_resume,
  stall,
  xoff,
  xon,
  reservation,
  retract,
  invariant_broken
};
const char* to_string(EventKind kind);

struct FrameRecord {
  FrameId frame;
  FlowId flow;
  PortId src;
  uint32_t bytes;
  uint8_t priority;
  Picos created;
  Picos injected;  // -1: never sent
};

struct DeliveryRecord {
  FrameId frame;
  FlowId flow;
  PortId dst;
  Picos delivered;
  int surrogate_levels;
  uint32_t bytes;  // the frame's, so queries of throughput and latency need no join
  Picos created;   // the frame's creation at the source
};

struct DropRecord {
  FrameId frame;
  FlowId flow;
  PortId port;  // where it was dropped
  int64_t dst;  // destination port of the dropped copy, -1 for a whole frame
  DropReason reason;
  Picos t;
};

// A sample, a total and an event as whole records, for whoever holds them
// before they are written (a buffer, a batch). The metric is its name: they
// are rare next to frames.
struct SampleRecord {
  Picos t;
  EntityId entity;
  std::string metric;
  double value;
};

struct TotalRecord {
  EntityId entity;
  std::string metric;
  double value;
};

struct EventRecord {
  Picos t;
  EventKind kind;
  EntityId entity;
  int64_t flow;
  double value;
};

// The rows the model records while it runs, as whoever holds them before
// they are written keeps them: a partition's buffer (PartitionedRecorder),
// the database's batch (db::RecordBatch).
struct ModelRecords {
  std::vector<FrameRecord> frames;
  std::vector<DeliveryRecord> deliveries;
  std::vector<DropRecord> drops;
  std::vector<SampleRecord> samples;
  std::vector<TotalRecord> totals;
  std::vector<EventRecord> events;

  size_t size() const {
    return frames.size() + deliveries.size() + drops.size() + samples.size() + totals.size() + events.size();
  }
  // Keeps the capacity, so the vectors fill again without reallocating.
  void clear() {
    frames.clear();
    deliveries.clear();
    drops.clear();
    samples.clear();
    totals.clear();
    events.clear();
  }
};

// Per subflow (flow, destination) totals, written at the end of a run in every
// log level, so that `summary` runs still answer throughput and latency.
struct SubflowSummary {
  FlowId flow;
  PortId dst;
  uint64_t frames;
  uint64_t bytes;
  Picos first_delivered;
  Picos last_delivered;
  Picos latency_sum;
  Picos latency_min;
  Picos latency_max;
};

// A closed-loop job (traffic/jobs/), recorded when the run ends: what it
// ran, where, and how long it took. NCCL-tests' figures: algbw = bytes x
// iterations / (end - start), busbw = algbw x the collective's bus factor.
struct JobRecord {
  uint32_t job = 0;              // jobs.job_id: 0, 1, ... in name order
  std::string name;              // job.NAME
  std::string collective;        // allreduce, allgather, ... or goal (a schedule from a file)
  std::string algorithm;         // ring, tree, ... (goal: the file's name)
  std::vector<PortId> ports;     // rank r's user port
  std::vector<Picos> rank_ends;  // rank r's last op's end; -1: not all its ops completed
  int64_t bytes = -1;            // the collective's size as NCCL-tests defines it; -1: none (goal)
  int iterations = 1;
  uint32_t steps = 0;
  uint64_t operations = 0;
  uint64_t completed = 0;  // operations completed by the run's end
  Picos start = 0;
  Picos end = -1;          // the last op's end; -1 when not every op completed
  double algbw_gbps = -1;  // -1: none (not finished, or no size)
  double busbw_gbps = -1;
};

// One operation of a job's schedule at one rank, with its times.
struct JobOperationRecord {
  uint32_t job = 0;
  int32_t rank = 0;
  uint32_t op = 0;     // its index among its rank's ops
  uint8_t kind = 0;    // 0 send, 1 recv, 2 calc (traffic::JobOpKind)
  int32_t peer = -1;   // send: destination rank, recv: source rank; -1: multicast send, or calc
  int32_t group = -1;  // multicast send: its group (one flow each); -1 otherwise
  uint64_t bytes = 0;
  uint32_t step = 0;
  uint32_t tag = 0;
  Picos start = -1;  // -1: never started
  Picos end = -1;    // -1: never completed
};

// Samples and totals name a metric of model/recording/metric_catalog.h of
// their kind (series, total) and an entity of a kind the metric allows. The
// model names them by typed descriptor (metrics.h), checked when it
// compiles; by name only where names come from outside the model (a buffer
// handing its records on, the tests of the database), checked at run time
// by the database.
class Recorder {
 public:
  virtual ~Recorder() = default;
  // The entity named `name`, with its place: a link's ends, or the unit it
  // is or belongs to (see EntityTable::declare). Declared while the
  // model is built or after it has run, never from a partition's worker:
  // ids follow the order of declaration.
  virtual EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1,
                           const EntityPlace& place = {}) = 0;
  virtual void frame(const FrameRecord& r) = 0;
  virtual void delivery(const DeliveryRecord& r) = 0;
  virtual void drop(const DropRecord& r) = 0;
  // A time series' value at t.
  void sample(Picos t, EntityId entity, SeriesMetric metric, double value) {
    sample_named(t, entity, metric.name(), value);
  }
  // An end-of-run figure.
  void total(EntityId entity, TotalMetric metric, double value) { total_named(entity, metric.name(), value); }
  void total(EntityId entity, const TotalFamilyMember& metric, double value) {
    total_named(entity, metric.name(), value);
  }
  // The same by name: the implementation that writes them refuses a name
  // the catalog lacks, or of the other kind (std::logic_error).
  virtual void sample_named(Picos t, EntityId entity, std::string_view metric, double value) = 0;
  virtual void total_named(EntityId entity, std::string_view metric, double value) = 0;
  virtual void event(Picos t, EventKind kind, EntityId entity, int64_t flow, double value) = 0;
  virtual void subflow_summary(const SubflowSummary& s) = 0;
  // A job and its operations, at the end of the run (never from a worker).
  virtual void job(const JobRecord& j) = 0;
  virtual void job_operation(const JobOperationRecord& op) = 0;
};

// Discards everything but the entities' names; for unit tests of modules
// that need a recorder.
class NullRecorder final : public Recorder {
 public:
  EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1,
                   const EntityPlace& place = {}) override {
    return entities_.declare(kind, name, port, place);
  }
  void frame(const FrameRecord&) override {}
  void delivery(const DeliveryRecord&) override {}
  void drop(const DropRecord&) override {}
  void sample_named(Picos, EntityId, std::string_view, double) override {}
  void total_named(EntityId, std::string_view, double) override {}
  void event(Picos, EventKind, EntityId, int64_t, double) override {}
  void subflow_summary(const SubflowSummary&) override {}
  void job(const JobRecord&) override {}
  void job_operation(const JobOperationRecord&) override {}

 private:
  EntityTable entities_;
};

}  // namespace fabric
