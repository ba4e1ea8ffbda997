#pragma once
// The size a run adds to its database, estimated before it runs, and the
// refusal of a run that would not fit: above record.max_db_bytes or the
// free space of the database's disk (issue 52, N13). A run of the full
// system recorded frame by frame writes about 0.4 GB per simulated ms.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/core/ids.h"
#include "traffic/flow_spec.h"

namespace fabric {

// The rows a run writes in bulk, from the offered load: the frames the
// flows create over sim.time and the copies delivered (a multicast frame's
// to each port of its group), and the occupancy samples. Drops, the run's
// description and end-of-run totals (a few MB for the full system) are
// left out: drops depend on what the run does.
struct DatabaseGrowth {
  double frames = 0;
  double copies = 0;
  double samples = 0;
  bool records_frames = true;  // --record frames; summary writes samples only

  double bytes() const;
  double bytes_recording_summary() const;
};

DatabaseGrowth estimate_database_growth(const std::vector<traffic::FlowSpec>& flows, Picos sim_time,
                                        int64_t occupancy_samples, bool record_frames);

// Free bytes for an unprivileged writer on the disk that holds (or will
// hold) `db_path`; nullopt when its directory cannot be examined.
std::optional<double> free_bytes_for(const std::string& db_path);

// The one-line refusal of a run whose estimate exceeds `max_db_bytes`
// (record.max_db_bytes) or `free_bytes`, naming what is exceeded and the
// ways out; nullopt when it fits.
std::optional<std::string> database_size_problem(const DatabaseGrowth& growth, Picos sim_time, int64_t max_db_bytes,
                                                 std::optional<double> free_bytes, const std::string& db_path);

}  // namespace fabric
