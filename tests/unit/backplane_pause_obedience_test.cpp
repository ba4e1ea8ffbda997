// The backplane's PAUSE obeyed (issue 50: every platform checks its own
// rules): a station that keeps sending after the switch's XOFF reached it
// stops the run; frames already on their way, and frames after the XOFF's
// pause time ran out, do not.
#include <gtest/gtest.h>

#include <string>

#include "model/backplane/backplane_switch.h"
#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"
#include "model/invariants/invariant_broken.h"
#include "model/invariants/pause_obedience.h"
#include "model/link/link.h"
#include "model/protocol/ethernet_frame.h"
#include "model/protocol/payload_pool.h"

namespace fabric {
namespace {

TEST(PauseObedience, AnXoffThatRunsOutByItselfFreesTheSender) {
  PauseObedience o(1000);
  o.on_pause_sent(0, true, 5000, 20000);
  EXPECT_TRUE(o.allows(0, 6000));          // on its way when the XOFF came
  EXPECT_FALSE(o.allows(0, 7000));         // sent while paused
  EXPECT_TRUE(o.allows(0, 25001));         // the pause time ran out
  o.on_pause_sent(0, true, 20000, 20000);  // a refresh before it ran out
  EXPECT_FALSE(o.allows(0, 25001));
  EXPECT_EQ(o.stop_sent(0), 5000);
}

class Sink : public FabricReceiver, public sc_core::sc_module {
 public:
  explicit Sink(sc_core::sc_module_name name) : sc_module(name), in("in") { in.bind(*this); }
  tlm::tlm_sync_enum nb_transport_fw(Payload& m, tlm::tlm_phase&, sc_core::sc_time&) override {
    m.release();
    return tlm::TLM_COMPLETED;
  }
  FabricTargetSocket in;
};

// The stations' ends of the links into the switch (the test hands the
// switch its frames directly).
class Driver : public FabricSender, public sc_core::sc_module {
 public:
  explicit Driver(sc_core::sc_module_name name) : sc_module(name), out("out") { out.bind(*this); }
  FabricInitiatorSocket out;
};

// A broken station as a test double: it hands the switch frames whatever
// PAUSE it was sent. The switch's ports send into links to sinks.
class DeafStations {
 public:
  DeafStations() : scheduler_("scheduler", EventQueueShape{12, 8, 4}) {
    BackplaneSwitchParams p;
    p.ports = 4;
    p.stations = 2;
    p.memory_bytes = 64 * 1024;
    p.pause = true;
    p.xoff = {4096, 2048, 50'000'000};
    p.xoff_quanta = 0xFFFF;
    p.pause_frame_bytes = 64;
    p.pause_obeyed_within = 3'000'000;
    switch_ = std::make_unique<BackplaneSwitch>("switch", p, pool_, scheduler_.queue());
    for (int s = 0; s < p.stations; ++s) {
      links_.push_back(std::make_unique<Link>(("link" + std::to_string(s)).c_str(),
                                              LinkParams{1, sc_core::sc_time(150, sc_core::SC_NS), 20, false, 0}));
      sinks_.push_back(std::make_unique<Sink>(("sink" + std::to_string(s)).c_str()));
      switch_->tx(s).out.bind(links_.back()->in);
      links_.back()->out.bind(sinks_.back()->in);
      rx_links_.push_back(std::make_unique<Link>(("rx_link" + std::to_string(s)).c_str(),
                                                 LinkParams{1, sc_core::sc_time(150, sc_core::SC_NS), 20, false, 0}));
      rx_links_.back()->out.bind(switch_->rx(s).in);
      drivers_.push_back(std::make_unique<Driver>(("driver" + std::to_string(s)).c_str()));
      drivers_.back()->out.bind(rx_links_.back()->in);
    }
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_PS));
  }
  ~DeafStations() { ModelClock::release(); }
  // Station 1 sends a 1500 B frame to station 0 arriving at `t`; the invariant it broke, or empty.
  std::string send(Picos t) {
    ModelClock::set(t);
    Payload& m = acquire_frame(pool_, {FrameId(++seq_), FlowId(1), PortId(1), 1500, 0, 0}, 0);
    forget_broken_invariant();
    try {
      static_cast<RxSink&>(*switch_).receive(1, m);
    } catch (const InvariantBroken& e) {
      EXPECT_EQ(e.entity(), "station1");
      forget_broken_invariant();
      return e.invariant();
    }
    return {};
  }
  uint64_t xoffs() const { return switch_->xoffs(); }

 private:
  PayloadPool pool_;
  EventScheduler scheduler_;
  std::unique_ptr<BackplaneSwitch> switch_;
  std::vector<std::unique_ptr<Link>> links_, rx_links_;
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<std::unique_ptr<Driver>> drivers_;
  uint64_t seq_ = 0;
};

TEST(BackplanePauseObedience, AStationThatSendsAfterTheXoffReachedItStopsTheRun) {
  DeafStations s;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.send(1000), "");  // 4.5 KB held: above XOFF's 4 KB
  ASSERT_EQ(s.xoffs(), 1u);
  EXPECT_EQ(s.send(1000 + 2'900'000), "") << "on its way when the XOFF came";
  EXPECT_EQ(s.send(1000 + 3'100'000), invariant::kPauseObeyed);
  EXPECT_EQ(s.send(1000 + 50'000'001), "") << "the XOFF's pause time ran out";
}

}  // namespace
}  // namespace fabric
