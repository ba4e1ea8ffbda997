#pragma once
// A Recorder in front of another for partitions served in parallel: while
// a worker thread serves a partition's queue, what the partition records
// waits in that partition's buffer; flush() (on the SystemC thread at the
// end of each time window) hands the buffers on partition by partition, in
// the scheduler's order of queues. Each table then gets its rows in the
// order one thread serving the queues in turn would have given them, so the
// database does not depend on the number of threads. Outside a window, or
// while not active (one thread), records go straight through.
#include <string>
#include <string_view>
#include <vector>

#include "model/core/event_queue.h"
#include "model/recording/recorder.h"

namespace fabric {

class PartitionedRecorder final : public Recorder {
 public:
  explicit PartitionedRecorder(Recorder& out) : out_(out) {}
  // Buffer per partition from now on (several threads serve them).
  void activate(int partitions) { buffers_.resize(static_cast<size_t>(partitions)); }
  void flush();

  // Straight through; refused (std::logic_error) from a partition's worker.
  EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1, const EntityPlace& place = {}) override;
  void frame(const FrameRecord& r) override;
  void delivery(const DeliveryRecord& r) override;
  void drop(const DropRecord& r) override;
  void sample_named(Picos t, EntityId entity, std::string_view metric, double value) override;
  void total_named(EntityId entity, std::string_view metric, double value) override;
  void event(Picos t, EventKind kind, EntityId entity, int64_t flow, double value) override;
  void subflow_summary(const SubflowSummary& s) override { out_.subflow_summary(s); }
  void job(const JobRecord& j) override { out_.job(j); }
  void job_operation(const JobOperationRecord& op) override { out_.job_operation(op); }

 private:
  using Buffer = ModelRecords;
  // The buffer of the partition this thread serves, or null: straight through.
  Buffer* buffer() {
    const EventQueue* q = EventQueue::serving();
    return q && !buffers_.empty() ? &buffers_[static_cast<size_t>(q->index())] : nullptr;
  }

  Recorder& out_;
  std::vector<Buffer> buffers_;
};

}  // namespace fabric
