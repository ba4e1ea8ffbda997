#include "platforms/app/database_size.h"

#include <sys/statvfs.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "config/config.h"
#include "config/param.h"

namespace fabric {
namespace {

// Bytes a row takes in the file, pages and record headers included,
// calibrated with SQLite's dbstat on real runs: a delivered copy 33.7-33.9 B
// at 20-200 us (perm640, E9) and 37.9 B at 10 ms (E9: its two times take
// 6 B each past 2.1 ms), a frame as much; a sample 32-36 B and its entry in
// the index samples_by_series about as much (E2a, E9, perm640). Checked
// against whole files (estimate / actual): E9 10 ms 488 / 519 MB, perm640
// 100 us 40.5 / 40.3 MB, E2a 1500 us 4.7 / 2.8 MB (its lossless source
// creates frames at the 58 Gb/s its cache lets through, not the 99 offered).
constexpr double kBytesPerFrame = 38;
constexpr double kBytesPerCopy = 38;
constexpr double kBytesPerSample = 68;

// How long the flow is on within [0, sim_time).
Picos active_time(const traffic::FlowSpec& f, Picos sim_time) {
  const auto within = [sim_time](Picos from, Picos to) {
    return std::max<Picos>(0, std::min(to, sim_time) - std::max<Picos>(from, 0));
  };
  if (f.schedule.empty()) return within(f.start, f.stop < 0 ? sim_time : f.stop);
  Picos on = 0;
  for (const auto& [from, to] : f.schedule) on += within(from, to);
  return on;
}

// The flow's mean frame on the wire, in bytes. A message flow's frames are
// at most its frame size and no larger than its messages.
double mean_wire_bytes(const traffic::FlowSpec& f) {
  double frame = f.size.mean();
  if (f.message) frame = std::min(frame, f.message->mean());
  return frame + traffic::kWireOverheadBytes;
}

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, bytes >= 1e9 ? "%.1f GB" : "%.1f MB", bytes >= 1e9 ? bytes / 1e9 : bytes / 1e6);
  return text;
}

std::string millions(double n) {
  char text[32];
  std::snprintf(text, sizeof text, n >= 1e6 ? "%.1f M" : "%.0f", n >= 1e6 ? n / 1e6 : n);
  return text;
}

// A whole number of GB (2^30 B) at least `bytes`, as the key takes it.
std::string key_value_above(double bytes) {
  return std::to_string(static_cast<int64_t>(std::ceil(bytes / double(1 << 30)))) + "GB";
}

// The longest --time whose estimate fits in `limit`, rounded down to a round figure.
std::string time_that_fits(Picos sim_time, double bytes, double limit) {
  const double fits = static_cast<double>(sim_time) * limit / bytes;
  double round = 1;  // ps
  while (round * 10 <= fits) round *= 10;
  return config::duration_text(static_cast<Picos>(std::floor(fits / round) * round));
}

}  // namespace

double DatabaseGrowth::bytes() const {
  return bytes_recording_summary() + (records_frames ? frames * kBytesPerFrame + copies * kBytesPerCopy : 0);
}

double DatabaseGrowth::bytes_recording_summary() const { return samples * kBytesPerSample; }

DatabaseGrowth estimate_database_growth(const std::vector<traffic::FlowSpec>& flows, Picos sim_time,
                                        int64_t occupancy_samples, bool record_frames) {
  DatabaseGrowth g;
  g.records_frames = record_frames;
  g.samples = static_cast<double>(occupancy_samples);
  for (const traffic::FlowSpec& f : flows) {
    // rate (Gb/s) x time (ps) = 1e-3 bits
    double frames = f.rate_gbps * static_cast<double>(active_time(f, sim_time)) * 1e-3 / (8 * mean_wire_bytes(f));
    if (f.max_frames > 0) frames = std::min(frames, static_cast<double>(f.max_frames));
    g.frames += frames;
    g.copies += frames * static_cast<double>(f.multicast ? f.dests.size() : 1);
  }
  return g;
}

std::optional<double> free_bytes_for(const std::string& db_path) {
  const std::filesystem::path path(db_path);
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  struct statvfs disk {};
  if (statvfs(dir.c_str(), &disk) != 0) return std::nullopt;
  return static_cast<double>(disk.f_bavail) * static_cast<double>(disk.f_frsize);
}

std::optional<std::string> database_size_problem(const DatabaseGrowth& growth, Picos sim_time, int64_t max_db_bytes,
                                                 std::optional<double> free_bytes, const std::string& db_path) {
  const double bytes = growth.bytes();
  const double key_limit = static_cast<double>(max_db_bytes);
  const bool over_key = bytes > key_limit;
  const bool over_disk = free_bytes && bytes > *free_bytes;
  if (!over_key && !over_disk) return std::nullopt;
  // The smaller limit is the one named; raising the key helps only when the disk has room.
  const bool disk_binds = over_disk && (!over_key || *free_bytes < key_limit);
  const std::string db = "'" + config::shorten_for_message(db_path) + "'";
  std::string rows = growth.records_frames
                         ? millions(growth.frames) + " frames and " + millions(growth.copies) + " delivered copies, "
                         : "";
  rows += millions(growth.samples) + " occupancy samples over sim.time = " + config::duration_text(sim_time);
  std::string text = disk_binds
                         ? "--db has value " + db + ": this run would add about " + gigabytes(bytes) + " to it (" +
                               rows + "), more than the " + gigabytes(*free_bytes) + " free on its disk"
                         : "record.max_db_bytes has value '" + config::Bytes::text(max_db_bytes) +
                               "': this run would add about " + gigabytes(bytes) + " to " + db + " (" + rows + ")";
  text += "; allowed: a run estimated to fit; record less (";
  if (growth.records_frames) text += "--record summary: about " + gigabytes(growth.bytes_recording_summary()) + "; ";
  text += "a shorter --time: " + time_that_fits(sim_time, bytes, disk_binds ? *free_bytes : key_limit) + " fits)";
  text += over_disk ? ", or a --db on a disk with room"
                    : ", or raise the guard (--set record.max_db_bytes=" + key_value_above(bytes * 1.25) + ")";
  return text;
}

}  // namespace fabric
