#include "traffic/message_source.h"

#include "traffic/random.h"

namespace fabric::traffic {

MessageSource::MessageSource(const FlowSpec& flow, uint64_t seed)
    : flow_(&flow), rng_(mix_seed(seed, 0x6d657373616765ULL + raw(flow.id))) {
  draw();
}

void MessageSource::draw() {
  const bool first = frames_.done();
  if (first) {
    dst_ = flow_->dests[flow_->dests.size() == 1 ? 0 : uniform_below(rng_, flow_->dests.size())];
    ++messages_;
    if (flow_->message) {
      // A message of 0 bytes is still one frame (of the minimum size).
      const uint64_t bytes = flow_->message->draw(rng_);
      frames_ = MessageFrames(bytes > 0 ? bytes : 1, kMaxPayloadBytes, kHeaderFcsBytes, kMinFrameBytes);
    }
  }
  if (flow_->message) {
    next_ = {frames_.next(), dst_, first};
  } else {
    next_ = {flow_->size.draw(rng_), dst_, true};
  }
}

}  // namespace fabric::traffic
