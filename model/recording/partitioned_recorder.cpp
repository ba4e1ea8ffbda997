#include "model/recording/partitioned_recorder.h"

#include <stdexcept>

namespace fabric {

EntityId PartitionedRecorder::declare(EntityKind kind, const std::string& name, int64_t port,
                                      const EntityPlace& place) {
  if (buffer() != nullptr)
    throw std::logic_error("entity '" + name +
                           "' declared while partitions run in parallel: its id would depend on the threads");
  return out_.declare(kind, name, port, place);
}

void PartitionedRecorder::frame(const FrameRecord& r) {
  if (Buffer* b = buffer()) {
    b->frames.push_back(r);
  } else {
    out_.frame(r);
  }
}

void PartitionedRecorder::delivery(const DeliveryRecord& r) {
  if (Buffer* b = buffer()) {
    b->deliveries.push_back(r);
  } else {
    out_.delivery(r);
  }
}

void PartitionedRecorder::drop(const DropRecord& r) {
  if (Buffer* b = buffer()) {
    b->drops.push_back(r);
  } else {
    out_.drop(r);
  }
}

void PartitionedRecorder::sample_named(Picos t, EntityId entity, std::string_view metric, double value) {
  if (Buffer* b = buffer()) {
    b->samples.push_back({t, entity, std::string(metric), value});
  } else {
    out_.sample_named(t, entity, metric, value);
  }
}

void PartitionedRecorder::total_named(EntityId entity, std::string_view metric, double value) {
  if (Buffer* b = buffer()) {
    b->totals.push_back({entity, std::string(metric), value});
  } else {
    out_.total_named(entity, metric, value);
  }
}

void PartitionedRecorder::event(Picos t, EventKind kind, EntityId entity, int64_t flow, double value) {
  if (Buffer* b = buffer()) {
    b->events.push_back({t, kind, entity, flow, value});
  } else {
    out_.event(t, kind, entity, flow, value);
  }
}

void PartitionedRecorder::flush() {
  for (Buffer& b : buffers_) {
    for (const FrameRecord& r : b.frames) out_.frame(r);
    for (const DeliveryRecord& r : b.deliveries) out_.delivery(r);
    for (const DropRecord& r : b.drops) out_.drop(r);
    for (const SampleRecord& s : b.samples) out_.sample_named(s.t, s.entity, s.metric, s.value);
    for (const TotalRecord& s : b.totals) out_.total_named(s.entity, s.metric, s.value);
    for (const EventRecord& e : b.events) out_.event(e.t, e.kind, e.entity, e.flow, e.value);
    b.clear();
  }
}

}  // namespace fabric
