#include "model/backplane/transmit_stages.h"

#include <stdexcept>

namespace fabric {

void TransmitStages::write(const StationFrame& frame) {
  if (!nic_.try_take(frame.bytes)) throw std::logic_error("end station: a frame written into a full NIC buffer");
  nic_queue_.push_back(frame);
  advance();
}

void TransmitStages::sent() {
  mac_.give_back(mac_queue_.front().bytes);
  mac_queue_.pop_front();
  advance();
}

void TransmitStages::advance() {
  while (!nic_queue_.empty() && mac_.try_take(nic_queue_.front().bytes)) {
    nic_.give_back(nic_queue_.front().bytes);
    mac_queue_.push_back(nic_queue_.front());
    nic_queue_.pop_front();
  }
}

}  // namespace fabric
