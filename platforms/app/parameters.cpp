#include "platforms/app/parameters.h"

#include "platforms/app/platform_catalog.h"
#include "platforms/app/sweep_keys.h"
#include "traffic/traffic_params.h"

namespace fabric {

namespace {

std::string platform_list() {
  std::string s;
  for (const Platform* p : all_platforms()) s += (s.empty() ? "" : "; ") + p->name() + " (" + p->title() + ")";
  return s;
}

}  // namespace

RunKeys run_keys() { return RunKeys(platform_list(), platform_names()); }

config::ParamRegistry build_registry() {
  config::ParamRegistry r;
  {
    config::ParamScope declaring(r);
    run_keys();
    SweepKeys sweep;
    traffic::TrafficKeys traffic;
  }
  for (const Platform* p : all_platforms()) {
    config::ParamRegistry::OwnedKeys owned(r, p->name());
    p->declare_params(r);
  }
  // Names made plain (issue 40): the old ones work for one release, with a note.
  r.rename("leaf.coalesce_control", "leaf.control.merge_queued");
  return r;
}

}  // namespace fabric
