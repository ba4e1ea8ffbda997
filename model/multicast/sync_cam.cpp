#include "model/multicast/sync_cam.h"

namespace fabric {

const char* to_string(SyncCam::Why why) {
  switch (why) {
    case SyncCam::Why::ahead:
      return "ahead";
    case SyncCam::Why::caught_up:
      return "caught up";
    case SyncCam::Why::timeout:
      return "timeout";
    case SyncCam::Why::evicted:
      return "evicted";
    case SyncCam::Why::released:
      return "released";
  }
  return "?";
}

std::string describe(const SyncCam::Change& c) {
  return std::string("{voq ") + std::to_string(c.voq) + (c.suspended ? " suspended" : " resumed") + " (" +
         to_string(c.why) + ") at " + std::to_string(c.at) + "}";
}

}  // namespace fabric
