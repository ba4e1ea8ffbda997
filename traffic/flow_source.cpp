#include "traffic/flow_source.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "traffic/random.h"

namespace fabric::traffic {

uint64_t flow_seed(uint64_t run_seed, FlowId flow) { return mix_seed(run_seed, 0x10000 + raw(flow)); }

namespace {
constexpr uint64_t kArrivalSalt = 0x617272697661;  // "arriva": the phase and gaps' own stream

// Gb/s = bits per ns, so bits * 1000 / rate is picoseconds.
double wire_ps(double bytes, double rate_gbps) { return (bytes + kWireOverheadBytes) * 8.0 * 1000.0 / rate_gbps; }

// t + gap, or kNever where that is beyond the int64 range: a time never wraps.
Picos later(Picos t, double gap) {
  Picos sum = 0;
  if (!(gap < 9.2e18) || __builtin_add_overflow(t, static_cast<Picos>(gap), &sum)) return kNever;
  return sum;
}
}  // namespace

FlowSource::FlowSource(const FlowSpec& spec, uint64_t seed)
    : spec_(spec), rng_(seed), arrival_(spec.arrival, mix_seed(seed, kArrivalSalt)) {
  if (spec_.dests.empty()) throw std::logic_error("FlowSource: flow " + spec_.name + " has no destination");
  on_ = spec_.schedule;
  if (on_.empty()) on_.push_back({spec_.start, spec_.stop < 0 ? kNever : spec_.stop});
  if (spec_.phase == StartPhase::random && spec_.max_frames != 1 && spec_.rate_gbps > 0)
    phase_ = arrival_.draw_phase(wire_ps(spec_.size.mean(), spec_.rate_gbps));
  next_ = later(on_.front().first, double(phase_));
  skip_off_time();
}

void FlowSource::skip_off_time() {
  while (interval_ < on_.size()) {
    if (next_ >= on_[interval_].second) {
      ++interval_;
    } else if (next_ < on_[interval_].first) {
      next_ = later(on_[interval_].first, double(phase_));  // may pass a short interval's end: checked again
      carry_ps_ = 0;
    } else {
      return;
    }
  }
}

Picos FlowSource::next_time() const {
  if (!(spec_.rate_gbps > 0)) return kNever;
  if (spec_.max_frames != 0 && sequence_ >= spec_.max_frames) return kNever;
  if (interval_ >= on_.size()) return kNever;
  return next_;
}

GeneratedFrame FlowSource::pop(Picos now_or_later) {
  const Picos created = next_time();
  if (created == kNever) throw std::logic_error("FlowSource::pop: flow " + spec_.name + " has finished");
  if (now_or_later < created)
    throw std::logic_error("FlowSource::pop: flow " + spec_.name + " asked at " + std::to_string(now_or_later) +
                           " ps for a frame created at " + std::to_string(created) + " ps");

  GeneratedFrame frame;
  frame.created = created;
  // A multicast frame goes to the whole group: no draw.
  frame.dst = spec_.dests.size() == 1 || spec_.multicast ? spec_.dests[0]
                                                         : spec_.dests[uniform_below(rng_, spec_.dests.size())];
  frame.bytes = spec_.size.draw(rng_);
  frame.sequence = sequence_++;
  frame.flow = spec_.id;

  const double exact_ps = arrival_.gap_ps(wire_ps(frame.bytes, spec_.rate_gbps)) + carry_ps_;
  const double step = std::floor(exact_ps + 0.5);
  carry_ps_ = exact_ps - step;
  next_ = later(created, step);
  skip_off_time();
  return frame;
}

void FlowSource::defer_to(Picos t) {
  if (next_ < t) next_ = t;
  skip_off_time();
}

}  // namespace fabric::traffic
