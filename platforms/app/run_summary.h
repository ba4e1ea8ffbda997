#pragma once
// The short summary fabricsim prints after a run, computed from the model's
// own counters (the database holds the details).
#include <ostream>
#include <string>
#include <vector>

#include "platforms/app/run_loop.h"
#include "platforms/fabric/fabric_top.h"
#include "traffic/flow_spec.h"

namespace fabric {

struct SummaryContext {
  std::string study;
  std::string db_path;
  int64_t run_id;
  std::string status;
};

void print_summary(std::ostream& out, const SummaryContext& ctx, const RunResult& result, const FabricTop& top,
                   const std::vector<traffic::FlowSpec>& flows);

}  // namespace fabric
