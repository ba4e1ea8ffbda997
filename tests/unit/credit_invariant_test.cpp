// Credits within the buffer they count (issue 50: every platform's credit
// counters, the InfiniBand fat tree's included, are a sending TxPort's): a
// receiver that returns a credit twice stops the run, naming the port.
#include <gtest/gtest.h>

#include <string>

#include "model/core/event_scheduler.h"
#include "model/invariants/invariant_broken.h"
#include "model/link/tx_port.h"
#include "model/protocol/payload_pool.h"

namespace fabric {
namespace {

class NothingToSend : public TxSource {
 public:
  Pull next_data(int, Picos) override { return {}; }
};

TEST(CreditInvariant, ACreditReturnedTwiceStopsTheRun) {
  EventScheduler scheduler("scheduler", EventQueueShape{12, 8, 4});
  PayloadPool pool;
  NothingToSend source;
  TxPortParams params;
  params.credits = 2;
  TxPort port("uplink", source, 0, pool, params, scheduler.queue());
  forget_broken_invariant();
  try {
    port.add_credits(1);  // a slot the receiver never had
    FAIL() << "3 credits for a buffer of 2";
  } catch (const InvariantBroken& e) {
    EXPECT_EQ(e.invariant(), invariant::kCredits);
    EXPECT_EQ(e.entity(), "uplink");
    EXPECT_NE(std::string(e.what()).find("3 credits after 1 came back, for 2 slots"), std::string::npos) << e.what();
  }
  forget_broken_invariant();
}

}  // namespace
}  // namespace fabric
