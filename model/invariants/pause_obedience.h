#pragma once
// A paused priority sends nothing after the PAUSE arrives, but for what was
// already on its way: checked where the frames come in, at the port that
// sent the STOP, so that it holds whatever the sender does. A frame the
// sender started before the PAUSE reached it is admitted at the latest
// `window` after the STOP was decided: the PAUSE's wait behind a message on
// the wire, its own time on the wire, the cable both ways, the frame's
// first bytes and the lookup (pause_window_ps, leaf/pause_headroom.h). A
// frame admitted later, with no GO sent since, was sent while paused.
#include <array>
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class PauseObedience {
 public:
  explicit PauseObedience(Picos window) : window_(window) { stop_sent_.fill(kNone); }

  void on_pause_sent(int priority, bool stop, Picos t) {
    if (!stop) {
      stop_sent_[priority] = kNone;
    } else if (stop_sent_[priority] == kNone) {
      stop_sent_[priority] = t;
    }
  }
  // Whether a frame of `priority` admitted at `t` may have been sent.
  bool allows(int priority, Picos t) const {
    return stop_sent_[priority] == kNone || t <= stop_sent_[priority] + window_;
  }
  Picos stop_sent(int priority) const { return stop_sent_[priority]; }
  Picos window() const { return window_; }

 private:
  static constexpr Picos kNone = -1;
  Picos window_;
  std::array<Picos, kPriorities> stop_sent_;
};

}  // namespace fabric
