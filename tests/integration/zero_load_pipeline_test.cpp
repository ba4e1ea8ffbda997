// The leaf's zero-load pipeline (docs/model.md, "The leaf's pipeline"): the
// E11 study's local latencies equal those computed by hand from the stage
// latencies, for each way the ingress can forward, and the remote ones keep
// their published order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// The spec's and the keys' defaults, in ps.
constexpr double kByte = 80;       // 100 Gb/s
constexpr double kCable = 10'000;  // 2 m at 5 ns/m
constexpr double kPreamble = 8 * kByte;
constexpr double kCycle = 2203;  // leaf.clock_mhz 454, one cycle in whole ps (SystemC time resolution)
constexpr int kLookup = 3;       // leaf.lookup_latency, cycles
constexpr int kCrossbar = 8;     // leaf.crossbar_latency, cycles
constexpr int kPacket = 256, kXbarBytesPerCycle = 36;

enum class Ingress { cut_through, store_and_forward, whole_frame_delivered };

// A local copy of one frame, stage by stage: the header looked up, the
// request and grant across the crossbar, each packet across it once in the
// ingress buffer (and after the previous one), the egress storing the whole
// frame, then the CNA link.
double local_latency_ps(int bytes, Ingress ingress) {
  const double last_byte = kCable + kPreamble + bytes * kByte;
  const double header = ingress == Ingress::whole_frame_delivered ? kCable + (bytes + 20) * kByte : kCable + kPreamble;
  const double grant = header + (kLookup + 2 * kCrossbar) * kCycle;
  double input_free = grant, output_free = 0;
  for (int i = 0; i * kPacket < bytes; ++i) {
    const int end = std::min((i + 1) * kPacket, bytes);
    const double in = ingress == Ingress::cut_through ? kCable + kPreamble + end * kByte : last_byte;
    const double cycles = std::ceil(double(end - i * kPacket) / kXbarBytesPerCycle);
    const double cut = std::max(input_free, in);
    input_free = cut + cycles * kCycle;
    output_free = std::max(cut + kCrossbar * kCycle, output_free) + cycles * kCycle;
  }
  return output_free + (bytes + 20) * kByte + kCable;
}

std::map<std::string, double> e11_latencies(const std::string& set) {
  TempDir dir;
  Args args = Args().opt("--study", "E11").opt("--db", dir.file("e11.db"));
  if (!set.empty()) args.set(set);
  const ProcResult r = run_fabricsim(args, 120);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  Db db(dir.file("e11.db"));
  std::map<std::string, double> lat;
  for (const auto& row : db.rows("SELECT l.name, v.latency_ps FROM v_latency v JOIN flows l USING (run_id, flow_id)"))
    lat[row[0]] = std::stod(row[1]);
  return lat;
}

void expect_local_by_hand(const std::map<std::string, double>& lat, Ingress ingress) {
  for (const int size : {512, 1522, 9022}) {
    const std::string name = "local_" + std::to_string(size);
    ASSERT_EQ(lat.count(name), 1u) << name;
    // Within a few ps: the model rounds each stage to whole picoseconds.
    EXPECT_NEAR(lat.at(name), local_latency_ps(size, ingress), 40) << name;
  }
}

TEST(ZeroLoadPipeline, CutThroughLocalLatenciesAreTheStagesSum) {
  const auto lat = e11_latencies("leaf.ingress.forwarding=cut_through");
  expect_local_by_hand(lat, Ingress::cut_through);
  // Remote: the ~1100 ns round trip comes first, so a frame is whole before
  // its grant; the difference between sizes is the crossbar and the egress.
  for (const int size : {512, 1522, 9022}) {
    const std::string s = std::to_string(size);
    EXPECT_GT(lat.at("remote_" + s) - lat.at("local_" + s), 1'100'000) << s;
  }
  EXPECT_LT(lat.at("remote_512"), lat.at("remote_1522"));
  EXPECT_LT(lat.at("remote_1522"), lat.at("remote_9022"));
}

// The default, as the chip: the ingress stores the whole frame.
TEST(ZeroLoadPipeline, StoreAndForwardIngressWaitsForTheWholeFrame) {
  const auto lat = e11_latencies("");
  expect_local_by_hand(lat, Ingress::store_and_forward);
  EXPECT_EQ(lat, e11_latencies("leaf.ingress.forwarding=store_and_forward"));
  // Remote frames are whole long before their grant: the ingress's choice
  // does not move them.
  const auto cut = e11_latencies("leaf.ingress.forwarding=cut_through");
  for (const int size : {512, 1522, 9022}) {
    const std::string s = "remote_" + std::to_string(size);
    EXPECT_EQ(lat.at(s), cut.at(s)) << s;
  }
}

TEST(ZeroLoadPipeline, WithoutConcurrentHeaderTheRequestWaitsForTheWholeFrame) {
  expect_local_by_hand(e11_latencies("leaf.concurrent_header=false"), Ingress::whole_frame_delivered);
}

}  // namespace
}  // namespace fabricsim_it
