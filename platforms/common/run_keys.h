#pragma once
// The keys every platform reads (sim.*, record.*, platform), each declared
// once (config/param.h).
#include <string>
#include <vector>

#include "config/param.h"
#include "model/core/ids.h"

namespace fabric {

config::ParamSpec threads_spec();
config::ParamSpec max_db_bytes_spec();
config::ParamSpec platform_spec(std::string platforms_text, std::vector<std::string> platform_names);

struct RunKeys {
  // `platforms_text` and `platform_names`: the platforms the key chooses from.
  RunKeys(std::string platforms_text, std::vector<std::string> platform_names)
      : platform{platform_spec(std::move(platforms_text), std::move(platform_names))} {}

  config::Param<config::Duration> time{
      "sim.time", "1ms", "ps", "simulated time of the run (--time)", 1, double(kLatestConfiguredTime)};
  config::Param<config::Integer> seed{
      "sim.seed", "1", "", "random seed (--seed); same seed and configuration, same database", 0, 9.2e18};
  config::Param<config::Integer> threads{threads_spec()};
  config::Param<config::Duration> progress_slice{
      "sim.progress_slice", "10us", "ps", "simulated time between progress, interrupt and stall checks", 1e3, 1e12};
  config::Param<config::Duration> stall_timeout{
      "sim.stall_timeout",
      "100us",
      "ps",
      "report a stall when nothing moves for this long (plus leaf.e2e.timeout while end-to-end retransmission is on) "
      "while traffic is pending",
      1e6,
      1e15};
  config::Param<config::Duration> sample_interval{
      "record.sample_interval",
      "10us",
      "ps",
      "every this often, buffer occupancy goes into samples (fabric: each user port's 'ingress_bytes' and "
      "'egress_bytes'; backplane: the switch's 'memory_bytes'); 0: never",
      0,
      1e12};
  config::Param<config::Integer> max_samples{
      "record.max_samples",
      "200000000",
      "samples",
      "guard: at most this many occupancy samples per run (sim.time / record.sample_interval x 2 x ports; ~40 B each "
      "on disk); raise it knowingly",
      1,
      1e12};
  config::Param<config::Bytes> max_db_bytes{max_db_bytes_spec()};
  config::Param<config::Duration> lock_wait{
      "record.lock_wait",
      "60s",
      "ps",
      "before its run starts, how long fabricsim waits for another process's write lock on the database before it "
      "gives up (exit 2); once the run has started it waits for ever rather than lose what it simulated",
      0,
      1e16};
  config::Param<config::Choice> platform;
};

}  // namespace fabric
