#include "traffic/flow_source.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "traffic/random.h"

namespace fabric::traffic {

uint64_t flow_seed(uint64_t run_seed, FlowId flow) { return mix_seed(run_seed, 0x10000 + raw(flow)); }

FlowSource::FlowSource(const FlowSpec& spec, uint64_t seed) : spec_(spec), rng_(seed), next_(spec.start) {
  if (spec_.dests.empty()) throw std::logic_error("FlowSource: flow " + spec_.name + " has no destination");
  on_ = spec_.schedule;
  if (on_.empty()) on_.push_back({spec_.start, spec_.stop < 0 ? kNever : spec_.stop});
  next_ = on_.front().first;
}

void FlowSource::skip_off_time() {
  while (interval_ < on_.size() && next_ >= on_[interval_].second) ++interval_;
  if (interval_ < on_.size() && next_ < on_[interval_].first) {
    next_ = on_[interval_].first;
    carry_ps_ = 0;
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

  // Gb/s = bits per ns, so bits * 1000 / rate is picoseconds.
  const double exact_ps = double(frame.bytes + kWireOverheadBytes) * 8.0 * 1000.0 / spec_.rate_gbps + carry_ps_;
  const double step = std::floor(exact_ps + 0.5);
  carry_ps_ = exact_ps - step;
  next_ = created + static_cast<Picos>(step);
  skip_off_time();
  return frame;
}

void FlowSource::defer_to(Picos t) {
  if (next_ < t) next_ = t;
  skip_off_time();
}

}  // namespace fabric::traffic
