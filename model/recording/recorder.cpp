#include "model/recording/recorder.h"

namespace fabric {

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::pause:
      return "pause";
    case EventKind::go:
      return "go";
    case EventKind::pause_headers:
      return "pause_headers";
    case EventKind::hold:
      return "hold";
    case EventKind::cnm:
      return "cnm";
    case EventKind::rate_change:
      return "rate_change";
    case EventKind::link_replay:
      return "link_replay";
    case EventKind::retransmission:
      return "retransmission";
    case EventKind::sync_suspend:
      return "sync_suspend";
    case EventKind::sync_resume:
      return "sync_resume";
    case EventKind::stall:
      return "stall";
    case EventKind::xoff:
      return "xoff";
    case EventKind::xon:
      return "xon";
    case EventKind::reservation:
      return "reservation";
    case EventKind::retract:
      return "retract";
    case EventKind::invariant_broken:
      return "invariant_broken";
  }
  return "other";
}

}  // namespace fabric
