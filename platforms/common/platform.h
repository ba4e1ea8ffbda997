#pragma once
// The platform layer. Each system the tool models (the switch fabric, the
// 802.3x backplane switch, ...) is a Platform: it declares its keys,
// resolves a run of itself from the configuration (PlatformRun) and builds
// its top module (PlatformTop). The run loop, the database and the run
// summary drive every platform's top alike; the flows, the simulated time,
// the seed and the recording keys are the same for all.
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "config/config.h"
#include "model/core/event_scheduler.h"
#include "model/invariants/copy_ledger.h"
#include "model/recording/port_catalog.h"
#include "model/recording/recorder.h"
#include "platforms/common/vocabulary.h"
#include "traffic/flow_spec.h"

namespace fabric {

class PlatformTop {
 public:
  virtual ~PlatformTop() = default;
  // The platform's event scheduler: drive the simulation with its run_until().
  virtual EventScheduler& scheduler() = 0;
  virtual const EventScheduler& scheduler() const = 0;
  // Serve the platform's partitions on this many threads (1: the SystemC thread).
  virtual void set_threads(int threads) = 0;
  // Messages that have entered any link so far: progress, for stall detection.
  virtual uint64_t messages_moved() const = 0;
  // Frames held anywhere that should move: what a stall leaves stuck.
  virtual uint64_t backlog() const = 0;
  // Whether something awaits an acknowledgement that a timer may send again
  // (a stall is then declared only after that timer's wait).
  virtual bool awaiting_acks() const = 0;
  virtual void describe_backlog(std::ostream& out, int max_lines) const = 0;
  // Buffer occupancy now, into the recorder's samples.
  virtual void sample_occupancy(Picos t) = 0;
  virtual uint64_t frames_sent() const = 0;
  virtual uint64_t frames_delivered() const = 0;
  virtual uint64_t drops() const = 0;
  // Invariant checks made so far (model/invariants/): a broken one stops
  // the run as it happens, so all of these held.
  virtual uint64_t invariants_checked() const = 0;
  // End of run at `end`: what the modules still hold and their totals,
  // into the recorder.
  virtual void finish(Picos end) = 0;
  // Every copy injected, delivered, dropped and still in the system at the
  // end (model/invariants/copy_ledger.h), and whether the run drained, as
  // finish() left them; none where the platform keeps no ledger.
  struct CopyAccount {
    CopyTally tally;
    bool drained = false;
  };
  virtual std::optional<CopyAccount> copy_account() const { return std::nullopt; }
  // The platform's own lines of the run summary.
  virtual void summarize(std::ostream& out, Picos simulated) const = 0;
  // A workload that ends (one-shot messages): everything it was to do is
  // done, and the run may end before sim.time.
  virtual bool done() const { return false; }
};

// A run of a platform, its keys read and checked.
class PlatformRun {
 public:
  virtual ~PlatformRun() = default;
  // The run's ports, into its description in the database.
  virtual void describe_ports(PortCatalog& ports) const = 0;
  virtual std::unique_ptr<PlatformTop> build(const std::vector<traffic::FlowSpec>& flows, uint64_t seed,
                                             Recorder& recorder) const = 0;
};

// What the keys every platform reads resolved to, for a platform's own checks.
struct SharedRunKeys {
  uint64_t seed = 1;
  Picos sim_time = 0;
  Picos sample_interval = 0;
  Picos stall_timeout = 0;
  int64_t max_samples = 0;
};

struct PlatformResolution {
  std::unique_ptr<PlatformRun> run;
  std::vector<traffic::FlowSpec> flows;
  // While something awaits an acknowledgement, how long a timer may leave
  // the platform waiting before it sends again (see RunLoopOptions).
  Picos recovery_wait = 0;
  // The longest a working platform may go without a message entering a
  // link: its largest message's time on the wire and a switch's latency.
  // The stall timeout counts from its end.
  Picos quiet_time = 0;
  // The occupancy samples the run writes (check_sampling), for the
  // estimate of its database's size.
  int64_t occupancy_samples = 0;
};

class Platform {
 public:
  virtual ~Platform() = default;
  virtual std::string name() const = 0;
  virtual std::string title() const = 0;  // one line, for --list-params and --help
  // Its word for what its workload sends, in the summary (vocabulary.h).
  virtual Vocabulary vocabulary() const = 0;
  // Its own keys (the caller marks them as the platform's).
  virtual void declare_params(config::ParamRegistry& registry) const = 0;
  // Reads and checks its keys and the flows. Throws config::ConfigError
  // naming the key at fault.
  virtual PlatformResolution resolve(const config::Config& config, const SharedRunKeys& keys) const = 0;
};

}  // namespace fabric
