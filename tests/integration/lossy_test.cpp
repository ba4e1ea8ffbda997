// Lossy classes end to end (mechanism 4): the header policies of E3 and the
// VOQ drop policies of E4, read back from the database.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// Frames received per destination of flow f1 in [from, to).
std::map<int, int64_t> f1_frames(Db& db, int64_t from_ps, int64_t to_ps) {
  std::map<int, int64_t> out;
  for (const auto& row :
       db.rows("SELECT dst_port, count(*) FROM deliveries WHERE flow_id = "
               "(SELECT flow_id FROM flows WHERE name = 'f1') AND t_delivered_ps >= " +
               std::to_string(from_ps) + " AND t_delivered_ps < " + std::to_string(to_ps) + " GROUP BY dst_port"))
    out[std::stoi(row[0])] = std::stoll(row[1]);
  return out;
}

std::string run_study(const TempDir& dir, const std::string& study, const std::string& time) {
  const std::string db = dir.file(study + ".db");
  const ProcResult r = run_fabricsim(Args().opt("--study", study).opt("--time", time).opt("--db", db), 120);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  return db;
}

TEST(Lossy, FixedHeaderOrderRanksTheSubflowsExactlyByOrder) {
  TempDir dir;
  Db db(run_study(dir, "E3a", "1500us"));
  const std::map<int, int64_t> rx = f1_frames(db, 500 * kUs, 1500 * kUs);
  const std::vector<int> header_order = {1, 5, 10, 15, 20, 25, 30, 35};  // flow.f1.dst: d1 ... d8
  ASSERT_EQ(rx.size(), 8u);
  for (size_t i = 1; i < header_order.size(); ++i)
    EXPECT_GT(rx.at(header_order[i - 1]), rx.at(header_order[i])) << "d" << i << " against d" << i + 1;
  EXPECT_GT(rx.at(1), 2 * rx.at(35)) << "very unequal";  // 2.8 times on seed 1 (69 against 22 Gb/s over seeds 1-5)
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'header_pool' AND dst_port = 35"),
            db.integer("SELECT count(*) FROM drops WHERE reason = 'header_pool' AND dst_port = 1"));
}

// With the order drawn per frame every copy has the same chance of a header,
// so the subflows differ only by sampling noise: about 4,000 frames each in
// the interval, a binomial spread of about 1.5 %. 5 % of the mean is a
// bound that fair admission meets with a margin and the fixed order (a
// spread of over 100 %) cannot. RED (E3c) still asks in MCBC order, and
// between Hlow and Hhi an earlier copy sees a pool one or two headers
// emptier, and the more so the longer copies hold headers: with the 650 ns
// control hold-off d1 is 20 % above d8 (48.5 against 40.3 Gb/s on seed 1
// with requests and ACKs held, 47.9 against 39.1 with grants held too;
// 6.8 % at 100 ns); its bound is 25 %, a quarter of the fixed order's.
TEST(Lossy, RandomHeaderOrderAndRedShareNearlyEqually) {
  TempDir dir;
  for (const std::string study : {"E3b", "E3c"}) {
    Db db(run_study(dir, study, "1500us"));
    const std::map<int, int64_t> rx = f1_frames(db, 500 * kUs, 1500 * kUs);
    ASSERT_EQ(rx.size(), 8u) << study;
    int64_t low = INT64_MAX, high = 0, sum = 0;
    for (const auto& [port, n] : rx) {
      low = std::min(low, n);
      high = std::max(high, n);
      sum += n;
    }
    EXPECT_LT(static_cast<double>(high - low), (study == "E3b" ? 0.05 : 0.25) * sum / 8.0) << study;
    const std::string reason = study == "E3c" ? "header_red" : "header_pool";
    EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = '" + reason + "'"), 1000) << study;
  }
}

TEST(Lossy, DropFromHeadWithSyncKeepsTheUncongestedSubflowsAtFullRate) {
  TempDir dir;
  Db db(run_study(dir, "E4e", "4ms"));
  // Phases: 7 contenders at port 1 during 1-2 ms, 3 during 2-3 ms, 1 during 3-4 ms.
  struct Phase {
    int64_t from, to;
    double share;  // of port 1's 100 Gb/s for each of its 1 + n senders
  };
  for (const Phase& ph : {Phase{1200 * kUs, 2000 * kUs, 1.0 / 8}, Phase{2200 * kUs, 3000 * kUs, 1.0 / 4},
                          Phase{3200 * kUs, 4000 * kUs, 1.0 / 2}}) {
    SCOPED_TRACE("phase from " + std::to_string(ph.from / kUs) + " us");
    const std::map<int, double> rx = rx_gbps(db, ph.from, ph.to);
    for (int port : {2, 3, 4, 5, 10, 15, 20}) EXPECT_GE(rx.at(port), 0.90 * 99) << "uncongested port " << port;
    const double f1_to_1 = db.real("SELECT sum(bytes + 20) * 8.0 / " + std::to_string(ph.to - ph.from) +
                                   " * 1000 FROM deliveries WHERE flow_id = 0 AND dst_port = 1 AND t_delivered_ps >= " +
                                   std::to_string(ph.from) + " AND t_delivered_ps < " + std::to_string(ph.to));
    EXPECT_LT(f1_to_1, 1.1 * ph.share * 100) << "the congested subflow is capped at its share";
    EXPECT_GT(f1_to_1, 0.8 * ph.share * 100);
  }
  EXPECT_GT(db.integer("SELECT count(*) FROM drops WHERE reason = 'voq_head' AND dst_port = 1"), 1000);
  EXPECT_EQ(db.integer("SELECT count(*) FROM drops WHERE reason = 'voq_head' AND dst_port <> 1"), 0);
}

TEST(Lossy, WithoutVoqDropEverySubflowIsCappedAtTheCongestedShare) {
  TempDir dir;
  Db db(run_study(dir, "E4a", "2ms"));
  const std::map<int, double> rx = rx_gbps(db, 1200 * kUs, 2000 * kUs);
  for (int port : {2, 3, 4, 5, 10, 15, 20}) EXPECT_LT(rx.at(port), 0.25 * 99) << "port " << port;
}

}  // namespace
}  // namespace fabricsim_it
