#pragma once
#include <string>

#include "model/cna/e2e_transport.h"
#include "model/config/config.h"
#include "model/qcn/reaction_point.h"

namespace fabric {

struct CnaParams {
  bool strict_priority = true;  // else round robin over priorities
  int queue_frames = 64;        // per priority; a full queue holds back its flows
  // QCN reaction points; line_gbps and the increases are set from the CNA
  // link's rate by the platform (scale_to_line).
  ReactionPoint::Params rp;
  E2eTransportParams e2e;
  Picos reaction_time = 2'400'000;
  double r_ai_gbps_at_10g = 0.005, r_hai_gbps_at_10g = 0.05;
  void scale_to_line(double line_gbps) {
    rp.line_gbps = line_gbps;
    rp.r_ai_gbps = r_ai_gbps_at_10g * line_gbps / 10;
    rp.r_hai_gbps = r_hai_gbps_at_10g * line_gbps / 10;
  }
};

void declare_cna_params(config::ParamRegistry& registry);
CnaParams read_cna_params(const config::Config& config);

}  // namespace fabric
