#include "model/ring/ring_station_probe.h"

#include "model/ring/ring_station.h"

namespace fabric {

RingStationProbe::RingStationProbe(const RingStation& station, Recorder& recorder)
    : station_(station),
      recorder_(recorder),
      id_(station.station()),
      entity_(recorder.declare(EntityKind::station, station.basename(), id_, unit_place({UnitKind::station, id_}))) {}

void RingStationProbe::on_host_drop(uint64_t packet, Picos now) {
  recorder_.drop({ring_packet_id(id_, packet), FlowId(static_cast<uint32_t>(id_)), PortId(static_cast<uint32_t>(id_)),
                  -1, DropReason::host_queue, now});
}

void RingStationProbe::on_sent(uint64_t packet, Picos created, int attempts, Picos now) {
  recorder_.frame({ring_packet_id(id_, packet), FlowId(static_cast<uint32_t>(id_)), PortId(static_cast<uint32_t>(id_)),
                   ring::kPayloadBytes, 0, created, now});
  recorder_.event(now, EventKind::reservation, entity_, id_, attempts);
}

void RingStationProbe::on_retract(Picos now) { recorder_.event(now, EventKind::retract, entity_, id_, 1); }

void RingStationProbe::on_delivery(int source, uint64_t packet, Picos created, Picos at) {
  recorder_.delivery({ring_packet_id(source, packet), FlowId(static_cast<uint32_t>(source)),
                      PortId(static_cast<uint32_t>(id_)), at, 0, ring::kPayloadBytes, created});
}

void RingStationProbe::finish() {
  for (const SubflowSummary& s : station_.received_summaries()) recorder_.subflow_summary(s);
}

}  // namespace fabric
