#pragma once
// The backplane's switch (platforms.md, E12): a thin SystemC shell around
// the shared-memory switch (SharedMemorySwitch) and its 802.3x controller
// (XoffController). A frame is forwarded by its destination address (a
// station's address is its port) once fully received, held in the shared
// memory until its last byte has left its output, and discarded whole when
// it does not fit. With 802.3x on, XOFF and XON go to every station ahead of
// queued data (control messages precede data at a TxPort), and XOFF again
// when one would run out while the memory is still at or above High.
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "model/backplane/backplane_switch_observer.h"
#include "model/backplane/shared_memory_switch.h"
#include "model/backplane/xoff_controller.h"
#include "model/core/event_queue.h"
#include "model/invariants/pause_obedience.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"

namespace fabric {

// From the backplane.* keys, which hold the defaults.
struct BackplaneSwitchParams {
  int ports = 0;
  int stations = 0;  // ports 0 .. stations-1 have a station attached
  uint32_t memory_bytes = 0;
  bool pause = false;
  XoffController::Params xoff;  // with pause
  uint16_t xoff_quanta = 0;
  uint32_t pause_frame_bytes = 0;
  Picos forwarding_latency = 0;  // beyond store and forward
  // With pause: the latest a frame a station started before an XOFF reached
  // it arrives after the XOFF was decided (backplane_pause_window).
  Picos pause_obeyed_within = 0;
};

class BackplaneSwitch final : public sc_core::sc_module, public TxSource, public RxSink, public EventQueue::Client {
 public:
  BackplaneSwitch(sc_core::sc_module_name name, const BackplaneSwitchParams& params, PayloadPool& pool,
                  EventQueue& events);
  // Who hears of each discard, XOFF and XON (a BackplaneSwitchProbe), or null.
  void set_observer(BackplaneSwitchObserver* observer) { observer_ = observer; }

  TxPort& tx(int port) { return *tx_[static_cast<size_t>(port)]; }
  RxPort& rx(int port) { return *rx_[static_cast<size_t>(port)]; }

  const SharedMemorySwitch& memory() const { return switch_; }
  uint64_t xoffs() const { return controller_ ? controller_->xoffs() : 0; }
  uint64_t xons() const { return controller_ ? controller_->xons() : 0; }
  uint64_t frames_held() const;
  // Frames checked against the PAUSE their station was sent (PauseObedience).
  uint64_t invariants_checked() const { return invariants_checked_; }

 private:
  Pull next_data(int out, Picos not_after) override;
  void transmission_done(int out) override;
  void receive(int in, Payload& payload) override;
  void on_wake(void* item) override;  // an XOFF about to run out
  void act(XoffController::Action action, Picos now);
  void send_pause(uint16_t quanta);
  void check_obeyed(int in, const EthernetFrame& f, Picos now);  // the station's PAUSE (PauseObedience)

  BackplaneSwitchParams params_;
  PayloadPool& pool_;
  BackplaneSwitchObserver* observer_ = nullptr;
  EventQueue& events_;
  SharedMemorySwitch switch_;
  std::optional<XoffController> controller_;
  std::vector<std::unique_ptr<TxPort>> tx_;
  std::vector<std::unique_ptr<RxPort>> rx_;
  std::vector<bool> on_wire_;              // by output: its head frame is being sent
  std::vector<PauseObedience> obedience_;  // by station, with pause
  uint64_t invariants_checked_ = 0;
};

}  // namespace fabric
