#pragma once
// A paused priority sends nothing after the PAUSE arrives, but for what was
// already on its way: checked where the frames come in, at the port that
// sent the STOP, so that it holds whatever the sender does. A frame the
// sender started before the PAUSE reached it is admitted at the latest
// `window` after the STOP was decided: the PAUSE's wait behind a message on
// the wire, its own time on the wire, the cable both ways, the frame's
// first bytes and the lookup (pause_window_ps, leaf/pause_headroom.h). A
// frame admitted later, with no GO sent since, was sent while paused. An
// 802.3x PAUSE of some quanta also runs out by itself: a frame admitted
// after the STOP's pause time (from its last refresh) may have been sent.
#include <array>
#include <cstdint>

#include "model/core/ids.h"

namespace fabric {

class PauseObedience {
 public:
  explicit PauseObedience(Picos window) : window_(window) {
    stop_sent_.fill(kNone);
    runs_out_.fill(kNever);
  }

  // `lasts`: how long a STOP holds the sender without a refresh (kNever
  // for a STOP that holds until GO).
  void on_pause_sent(int priority, bool stop, Picos t, Picos lasts = kNever) {
    if (!stop) {
      stop_sent_[priority] = kNone;
      return;
    }
    if (stop_sent_[priority] == kNone) stop_sent_[priority] = t;
    runs_out_[priority] = lasts == kNever ? kNever : t + lasts;
  }
  // Whether a frame of `priority` admitted at `t` may have been sent.
  bool allows(int priority, Picos t) const {
    return stop_sent_[priority] == kNone || t <= stop_sent_[priority] + window_ || t > runs_out_[priority];
  }
  Picos stop_sent(int priority) const { return stop_sent_[priority]; }
  Picos window() const { return window_; }

 private:
  static constexpr Picos kNone = -1;
  Picos window_;
  std::array<Picos, kPriorities> stop_sent_;
  std::array<Picos, kPriorities> runs_out_;  // the last STOP's pause time ends
};

}  // namespace fabric
