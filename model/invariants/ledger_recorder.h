#pragma once
// A Recorder in front of another that keeps the run's CopyLedger: every
// frame injected, delivery and drop goes on to `out` and into the ledger.
// It stands behind a PartitionedRecorder, so the ledger sees the records in
// the one order whatever the number of threads.
#include <string>
#include <string_view>

#include "model/invariants/copy_ledger.h"
#include "model/recording/recorder.h"

namespace fabric {

class LedgerRecorder final : public Recorder {
 public:
  explicit LedgerRecorder(Recorder& out) : out_(out) {}
  CopyLedger& ledger() { return ledger_; }
  const CopyLedger& ledger() const { return ledger_; }
  // The end of the run's account, as totals of `system` and, with
  // `per_port` (a platform whose ports are in the ports table), of each port
  // that sent: copies_injected, copies_delivered, copies_dropped and
  // copies_in_fabric.
  void record_totals(EntityId system, bool per_port) {
    const auto write = [&](EntityId entity, const CopyTally& t) {
      out_.total(entity, metric::copies_injected, static_cast<double>(t.expected));
      out_.total(entity, metric::copies_delivered, static_cast<double>(t.delivered));
      out_.total(entity, metric::copies_dropped, static_cast<double>(t.dropped));
      out_.total(entity, metric::copies_in_fabric, static_cast<double>(t.in_fabric()));
    };
    write(system, ledger_.total());
    if (per_port)
      for (const auto& [port, t] : ledger_.by_port()) write(port_entity(port), t);
  }

  EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1,
                   const EntityPlace& place = {}) override {
    return out_.declare(kind, name, port, place);
  }
  void frame(const FrameRecord& r) override {
    ledger_.injected(r);
    out_.frame(r);
  }
  void delivery(const DeliveryRecord& r) override {
    out_.delivery(r);
    ledger_.delivered(r);
  }
  void drop(const DropRecord& r) override {
    out_.drop(r);
    ledger_.dropped(r);
  }
  void sample_named(Picos t, EntityId entity, std::string_view metric, double value) override {
    out_.sample_named(t, entity, metric, value);
  }
  void total_named(EntityId entity, std::string_view metric, double value) override {
    out_.total_named(entity, metric, value);
  }
  void event(Picos t, EventKind kind, EntityId entity, int64_t flow, double value) override {
    out_.event(t, kind, entity, flow, value);
  }
  void subflow_summary(const SubflowSummary& s) override { out_.subflow_summary(s); }
  void job(const JobRecord& j) override { out_.job(j); }
  void job_operation(const JobOperationRecord& op) override { out_.job_operation(op); }

 private:
  Recorder& out_;
  CopyLedger ledger_;
};

}  // namespace fabric
