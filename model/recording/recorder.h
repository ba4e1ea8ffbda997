#pragma once
// What the model publishes about a run. The model knows only this interface;
// db/ implements it with SQLite. Calls come from the simulation thread and
// must be cheap (implementations buffer and write elsewhere).
#include <string>
#include <vector>

#include "model/core/ids.h"
#include "model/recording/entity.h"
#include "model/recording/entity_table.h"

namespace fabric {

// shared_memory: a frame that does not fit in a shared-memory switch (backplane).
enum class DropReason { payload, header_pool, header_red, header_memory, voq_tail, voq_head, link, shared_memory, host_queue, other };
const char* to_string(DropReason reason);

// pause_headers: beside a 'pause' (STOP) that the header pool called for.
// hold: a lossless frame without room waits at a user port (never dropped).
// xoff, xon: an 802.3x controller's decision on its memory's occupancy
// (value: the occupancy in bytes), before the PAUSE frames it sends.
// reservation: a ring packet's reservation complete, it is multicast (value:
// the tickets it took); retract: a ring sender retracts a reservation.
// invariant_broken: the run stopped on a broken invariant (the message on
// stderr names it, the entity, the time and the numbers).
enum class EventKind {
  pause, go, pause_headers, hold, cnm, rate_change, link_replay, retransmission, sync_suspend, sync_resume, stall,
  xoff, xon, reservation, retract, invariant_broken
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
  PortId port;      // where it was dropped
  int64_t dst;      // destination port of the dropped copy, -1 for a whole frame
  DropReason reason;
  Picos t;
};

// A sample, a total and an event as whole records, for whoever holds them
// before they are written (a buffer, a batch). The metric is a string: they
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

// Samples and totals name a metric of model/recording/metric_catalog.cpp
// of their kind (series, total) and an entity of a kind the metric allows.
class Recorder {
 public:
  virtual ~Recorder() = default;
  // The entity named `name` (see EntityTable::declare). Declared while the
  // model is built or after it has run, never from a partition's worker:
  // ids follow the order of declaration.
  virtual EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1) = 0;
  virtual void frame(const FrameRecord& r) = 0;
  virtual void delivery(const DeliveryRecord& r) = 0;
  virtual void drop(const DropRecord& r) = 0;
  // A time series' value at t (metric kind 'series').
  virtual void sample(Picos t, EntityId entity, const std::string& metric, double value) = 0;
  // An end-of-run figure (metric kind 'total').
  virtual void total(EntityId entity, const std::string& metric, double value) = 0;
  virtual void event(Picos t, EventKind kind, EntityId entity, int64_t flow, double value) = 0;
  virtual void subflow_summary(const SubflowSummary& s) = 0;
};

// Discards everything but the entities' names; for unit tests of modules
// that need a recorder.
class NullRecorder final : public Recorder {
 public:
  EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1) override {
    return entities_.declare(kind, name, port);
  }
  void frame(const FrameRecord&) override {}
  void delivery(const DeliveryRecord&) override {}
  void drop(const DropRecord&) override {}
  void sample(Picos, EntityId, const std::string&, double) override {}
  void total(EntityId, const std::string&, double) override {}
  void event(Picos, EventKind, EntityId, int64_t, double) override {}
  void subflow_summary(const SubflowSummary&) override {}

 private:
  EntityTable entities_;
};

}  // namespace fabric
