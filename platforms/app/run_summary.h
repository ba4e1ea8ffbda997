#pragma once
// The short summary fabricsim prints after a run, computed from the model's
// own counters (the database holds the details).
#include <ostream>
#include <string>

#include "platforms/app/run_loop.h"
#include "platforms/common/platform.h"

namespace fabric {

struct SummaryContext {
  std::string study;
  std::string db_path;
  int64_t run_id;
  std::string status;
  bool invariant_broken = false;  // the run stopped on one (model/invariants/)
  Vocabulary words;               // the platform's word for what it sends
};

// The lines every platform has, then the platform's own (PlatformTop::summarize).
void print_summary(std::ostream& out, const SummaryContext& ctx, const RunResult& result, const PlatformTop& top);

}  // namespace fabric
