#pragma once
// A leaf's QCN congestion points on the lossless priorities (mechanism 6),
// each created the first time it samples. An ingress CP samples the frames
// admitted at a user port against that priority's ingress pool and sends
// its CNM straight to the attached CNA: one sample per frame, so a multicast
// frame draws at most one CNM. An egress CP samples the copies completed in
// a port's egress buffer (the packets held for that VL) and sends its CNM
// back through the fabric to the source port's CNA. CNMs are 64 B frames;
// each is told to the leaf's observer (recorded as an event 'cnm', entity
// port<N>.in or port<N>.out, the culprit flow, value = the quantized
// feedback).
#include <array>
#include <memory>
#include <vector>

#include "model/leaf/control_path.h"
#include "model/leaf/leaf_layout.h"
#include "model/leaf/leaf_observer.h"
#include "model/leaf/leaf_params.h"
#include "model/qcn/congestion_point.h"

namespace fabric {

class IngressUnit;
class EgressUnit;

class LeafCongestionPoints {
 public:
  struct Wiring {
    IngressUnit& ingress;
    EgressUnit& egress;
    ControlPath& control;
  };
  LeafCongestionPoints(const LeafLayout& layout, const LeafParams& params, uint64_t seed, LeafLinks& links,
                       const Wiring& wiring);
  // Who hears of each CNM (a LeafProbe), or null.
  void set_observer(LeafObserver* observer) { observer_ = observer; }

  // Frame f was admitted at user port k.
  void sample_ingress(int k, const EthernetFrame& f);
  // A copy was completed in port k's egress buffer; p is its last packet.
  void sample_egress(int k, const FabricPacket& p);

 private:
  CongestionPoint& point(bool ingress, int k, uint8_t priority);
  // A CNM for the culprit's CNA at port `source`, from the CP of port
  // cp_port (an egress CP) or of `source` itself (an ingress CP).
  void send_cnm(PortId source, FlowId culprit, uint8_t priority, uint8_t fb, bool from_ingress, int cp_port = 0);

  const LeafLayout& layout_;
  const LeafParams& params_;
  uint64_t seed_;
  LeafObserver* observer_ = nullptr;
  LeafLinks& links_;
  Wiring wiring_;
  std::vector<std::array<std::unique_ptr<CongestionPoint>, kPriorities>> in_, out_;  // by port
};

}  // namespace fabric
