#pragma once
// Records what a link's units report (LinkObserver): a replay as a
// 'link_replay' event of the link's entity, a drop for a bad CRC as a drop
// of reason `link`. One per link end with a link layer (retry, errors); the
// platform's top owns it and hands it to the units.
#include <optional>
#include <string>

#include "model/link/link.h"
#include "model/link/link_observer.h"
#include "model/recording/recorder.h"

namespace fabric {

class LinkProbe final : public LinkObserver {
 public:
  // With `retry`, declares the link's entity `link` with its place `ends`
  // (the replays' entity); a drop names its port, not the link.
  LinkProbe(Recorder& recorder, const std::string& link, const EntityPlace& ends, bool retry);

  void on_replay(Picos now, uint64_t count) override;
  void on_drop(FrameId frame, FlowId flow, PortId port, int64_t dst, Picos now) override;

 private:
  Recorder& recorder_;
  std::optional<EntityId> link_entity_;
};

// A link's totals at the end of a run, read from the link's counters and
// recorded under the link's entity (its name, with `ends`: from its sender
// to its receiver): messages, bytes on the wire and utilization. The Link
// itself holds no recorder.
void record_link_totals(Recorder& recorder, const Link& link, const EntityPlace& ends, Picos end);

}  // namespace fabric
