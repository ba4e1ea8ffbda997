// InputShare: packet-size-aware weighted round robin between a port's
// unicast packets and multicast copies.
#include <gtest/gtest.h>

#include "model/leaf/input_share.h"

namespace fabric {
namespace {

// Both classes always have a packet; returns the multicast share of bytes.
double multicast_share(uint32_t weight, uint32_t unicast_bytes, uint32_t multicast_bytes) {
  InputShare share(weight);
  double bytes[2] = {0, 0};
  for (int i = 0; i < 100000; ++i) {
    const InputShare::Class c = share.pick();
    const uint32_t b = c == InputShare::multicast ? multicast_bytes : unicast_bytes;
    share.served(c, b, true);
    bytes[c] += b;
  }
  return bytes[InputShare::multicast] / (bytes[0] + bytes[1]);
}

TEST(InputShare, MulticastTakesItsWeightOfTheBytes) {
  EXPECT_NEAR(multicast_share(50, 256, 256), 0.50, 0.005);
  EXPECT_NEAR(multicast_share(25, 256, 256), 0.25, 0.005);
  EXPECT_NEAR(multicast_share(99, 256, 256), 0.99, 0.005);
  EXPECT_NEAR(multicast_share(1, 256, 256), 0.01, 0.005);
}

TEST(InputShare, SharesBytesNotPackets) {
  // Small multicast packets against full unicast ones: still a quarter of the bytes.
  EXPECT_NEAR(multicast_share(25, 256, 64), 0.25, 0.005);
}

TEST(InputShare, IdlenessEarnsNoCredit) {
  InputShare share(50);
  for (int i = 0; i < 1000; ++i) share.served(InputShare::unicast, 256, false);  // multicast idle
  int multicast_in_a_row = 0;
  while (share.pick() == InputShare::multicast) {
    share.served(InputShare::multicast, 256, true);
    ++multicast_in_a_row;
  }
  EXPECT_LE(multicast_in_a_row, 1);
}

}  // namespace
}  // namespace fabric
