// EventScheduler: serves entries in time order with the model clock at each
// entry's time, stops exactly at run_until's end, and runs ahead of the
// SystemC kernel only up to the kernel's next activity, so a SystemC process
// outside the model sees every entry before its own time served and none
// after; with partitions, serves every entry at its time window by window,
// and stops a model that crosses partitions sooner than the lookahead. Each
// test elaborates its own modules: gtest_discover_tests runs it
// in a process of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tuple>
#include <utility>
#include <vector>

#include "model/core/event_scheduler.h"
#include "model/core/sim_time.h"

namespace fabric {
namespace {

// Records (model time, label) of each wake; a wake may schedule a follower.
class Recorder final : public EventScheduler::Client {
 public:
  explicit Recorder(EventScheduler& scheduler) : scheduler_(scheduler) {}
  void on_wake(void* item) override {
    const auto label = reinterpret_cast<intptr_t>(item);
    served.push_back({now_ps(), label});
    if (label == 1) scheduler_.schedule(now_ps() + 5'000, *this, reinterpret_cast<void*>(intptr_t{11}));
  }
  std::vector<std::pair<Picos, intptr_t>> served;

 private:
  EventScheduler& scheduler_;
};

TEST(EventScheduler, ServesInTimeOrderAndStopsAtTheEnd) {
  EventScheduler scheduler("scheduler");
  Recorder r(scheduler);
  auto item = [](intptr_t label) { return reinterpret_cast<void*>(label); };
  scheduler.schedule(30'000, r, item(3));
  scheduler.schedule(10'000, r, item(1));  // schedules 11 at 15'000
  scheduler.schedule(20'000, r, item(2));
  scheduler.schedule(20'000, r, item(4));  // same time as 2, scheduled later: served after it
  scheduler.schedule(50'000, r, item(5));  // at the end: not served
  scheduler.run_until(50'000);
  const std::vector<std::pair<Picos, intptr_t>> expected = {
      {10'000, 1}, {15'000, 11}, {20'000, 2}, {20'000, 4}, {30'000, 3}};
  EXPECT_EQ(r.served, expected);
  EXPECT_EQ(to_ps(sc_core::sc_time_stamp()), 50'000);
  EXPECT_EQ(scheduler.pending(), 1u);
  scheduler.run_until(60'000);
  ASSERT_EQ(r.served.size(), 6u);
  EXPECT_EQ(r.served.back(), (std::pair<Picos, intptr_t>{50'000, 5}));
}

// A SystemC process outside the model, woken by the kernel at 25 ns.
class Observer : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Observer);
  Observer(sc_core::sc_module_name name, const Recorder& r) : sc_module(name), recorder_(r) {
    SC_METHOD(look);
    sensitive << tick_;
    dont_initialize();
  }
  void start() { tick_.notify(sc_core::sc_time(25, sc_core::SC_NS)); }
  Picos seen_at = -1;
  size_t served_then = 0;

 private:
  void look() {
    seen_at = now_ps();
    served_then = recorder_.served.size();
  }
  const Recorder& recorder_;
  sc_core::sc_event tick_;
};

TEST(EventScheduler, RunsAheadOnlyToTheKernelsNextActivity) {
  EventScheduler scheduler("scheduler");
  Recorder r(scheduler);
  Observer observer("observer", r);
  for (intptr_t k = 2; k <= 5; ++k) scheduler.schedule(k * 10'000, r, reinterpret_cast<void*>(k + 100));
  observer.start();
  scheduler.run_until(100'000);
  EXPECT_EQ(observer.seen_at, 25'000);  // outside the scheduler, now_ps() is the kernel's time
  EXPECT_EQ(observer.served_then, 1u);  // the entry at 20 ns, not those at 30, 40, 50 ns
  EXPECT_EQ(r.served.size(), 4u);
}

// Partitions: nodes in queues of their own pass tokens to each other at
// least the lookahead ahead, and each also wakes itself sooner (inside a
// window). Every wake must happen at exactly the time a plain priority
// queue of the same scenario gives it.
constexpr Picos kLookahead = 200'000;
constexpr int kNodes = 3;
constexpr intptr_t kChains = 8;  // token chains starting at each node
intptr_t first_token(int node, intptr_t chain) { return (intptr_t{node} * kChains + chain) << 32; }

struct Hop {
  Picos at;
  int node;
  intptr_t token;
  bool operator<(const Hop& o) const { return std::tie(at, node, token) < std::tie(o.at, o.node, o.token); }
  bool operator>(const Hop& o) const { return o < *this; }
  bool operator==(const Hop& o) const { return std::tie(at, node, token) == std::tie(o.at, o.node, o.token); }
};

// What a wake of `token` at `now` schedules: a token for the next node a
// lookahead or more ahead, which carries the chain on, and one for itself,
// inside the window or beyond, which ends there (its low bit set).
std::vector<Hop> followers(int node, intptr_t token, Picos now) {
  if (token & 1) return {};
  const intptr_t next = token + 2;
  const Picos jitter = static_cast<Picos>((next * 7919) % 200'000);
  return {{now + 1'000 + 2 * jitter, node, next | 1}, {now + kLookahead + jitter, (node + 1) % kNodes, next}};
}

class Node final : public EventScheduler::Client {
 public:
  Node(int id, std::vector<Node*>& nodes, std::vector<EventQueue*>& queues, std::vector<Hop>& log)
      : id_(id), nodes_(nodes), queues_(queues), log_(log) {}
  void on_wake(void* item) override {
    const auto token = reinterpret_cast<intptr_t>(item);
    log_.push_back({now_ps(), id_, token});
    for (const Hop& h : followers(id_, token, now_ps()))
      queues_[h.node]->schedule(h.at, *nodes_[h.node], reinterpret_cast<void*>(h.token));
  }

 private:
  int id_;
  std::vector<Node*>& nodes_;
  std::vector<EventQueue*>& queues_;
  std::vector<Hop>& log_;
};

std::vector<Hop> reference_run(Picos end) {
  std::priority_queue<Hop, std::vector<Hop>, std::greater<Hop>> pending;
  for (int n = 0; n < kNodes; ++n)
    for (intptr_t chain = 0; chain < kChains; ++chain) pending.push({1'000 * n + chain, n, first_token(n, chain)});
  std::vector<Hop> log;
  while (!pending.empty() && pending.top().at < end) {
    const Hop h = pending.top();
    pending.pop();
    log.push_back(h);
    for (const Hop& f : followers(h.node, h.token, h.at)) pending.push(f);
  }
  return log;
}

TEST(EventScheduler, PartitionsServeEveryEntryAtItsTime) {
  EventScheduler scheduler("scheduler", EventQueueShape{12, 8, 4});
  std::vector<EventQueue*> queues{&scheduler.queue()};
  for (int n = 1; n < kNodes; ++n) queues.push_back(&scheduler.add_queue(EventQueueShape{12, 8, 4}));
  scheduler.set_lookahead(kLookahead);
  std::vector<Hop> log;
  std::vector<Node*> nodes;
  std::vector<std::unique_ptr<Node>> owned;
  for (int n = 0; n < kNodes; ++n) {
    owned.push_back(std::make_unique<Node>(n, nodes, queues, log));
    nodes.push_back(owned.back().get());
  }
  for (int n = 0; n < kNodes; ++n)
    for (intptr_t chain = 0; chain < kChains; ++chain)
      queues[n]->schedule(1'000 * n + chain, *nodes[n], reinterpret_cast<void*>(first_token(n, chain)));
  constexpr Picos kEnd = 300'000'000;
  scheduler.run_until(kEnd / 2);  // stopping and going on changes nothing
  scheduler.run_until(kEnd);
  std::vector<Hop> expected = reference_run(kEnd);
  ASSERT_GT(expected.size(), 1000u);
  // Within a queue time never goes back; across queues the log interleaves
  // by window, so compare as sets.
  for (int n = 0; n < kNodes; ++n) {
    Picos last = 0;
    for (const Hop& h : log)
      if (h.node == n) {
        EXPECT_GE(h.at, last);
        last = h.at;
      }
  }
  std::sort(log.begin(), log.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_TRUE(log == expected) << log.size() << " wakes served, " << expected.size() << " expected";
  EXPECT_EQ(scheduler.queues(), static_cast<size_t>(kNodes));
}

// The same on three worker threads: each node logs into a log of its own
// (nodes of different partitions run at once), and every node sees what
// the one-thread reference gives it.
TEST(EventScheduler, PartitionsOnThreeThreadsServeEveryEntryAtItsTime) {
  EventScheduler scheduler("scheduler", EventQueueShape{12, 8, 4});
  std::vector<EventQueue*> queues{&scheduler.queue()};
  for (int n = 1; n < kNodes; ++n) queues.push_back(&scheduler.add_queue(EventQueueShape{12, 8, 4}));
  scheduler.set_lookahead(kLookahead);
  scheduler.set_threads(3);
  EXPECT_EQ(scheduler.threads(), 3);
  std::vector<std::vector<Hop>> logs(kNodes);
  std::vector<Node*> nodes;
  std::vector<std::unique_ptr<Node>> owned;
  for (int n = 0; n < kNodes; ++n) {
    owned.push_back(std::make_unique<Node>(n, nodes, queues, logs[static_cast<size_t>(n)]));
    nodes.push_back(owned.back().get());
  }
  for (int n = 0; n < kNodes; ++n)
    for (intptr_t chain = 0; chain < kChains; ++chain)
      queues[n]->schedule(1'000 * n + chain, *nodes[n], reinterpret_cast<void*>(first_token(n, chain)));
  constexpr Picos kEnd = 300'000'000;
  scheduler.run_until(kEnd);
  const std::vector<Hop> expected = reference_run(kEnd);
  for (int n = 0; n < kNodes; ++n) {
    std::vector<Hop> mine;
    for (const Hop& h : expected)
      if (h.node == n) mine.push_back(h);
    std::vector<Hop>& log = logs[static_cast<size_t>(n)];
    ASSERT_GT(log.size(), 300u);
    EXPECT_TRUE(std::is_sorted(log.begin(), log.end(), [](const Hop& a, const Hop& b) { return a.at < b.at; }));
    std::sort(log.begin(), log.end());
    EXPECT_TRUE(log == mine) << "node " << n << ": " << log.size() << " wakes served, " << mine.size() << " expected";
  }
}

// A node that sends to the other partition sooner than the lookahead: the
// scheduler must stop the simulation rather than deliver it late.
class Hasty final : public EventScheduler::Client {
 public:
  Hasty(EventQueue& other, EventScheduler::Client& target) : other_(other), target_(target) {}
  void on_wake(void*) override { other_.schedule(now_ps() + kLookahead / 2, target_); }

 private:
  EventQueue& other_;
  EventScheduler::Client& target_;
};

class Idle final : public EventScheduler::Client {
 public:
  void on_wake(void*) override {}
};

TEST(EventScheduler, CrossingPartitionsFasterThanTheLookaheadIsFatal) {
  EventScheduler scheduler("scheduler", EventQueueShape{12, 8, 4});
  EventQueue& second = scheduler.add_queue(EventQueueShape{12, 8, 4});
  scheduler.set_lookahead(kLookahead);
  Idle idle;
  Hasty hasty(second, idle);
  scheduler.queue().schedule(1'000, hasty);
  sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW);
  std::string message;
  try {
    scheduler.run_until(10'000'000);
  } catch (const sc_core::sc_report& r) {
    message = r.what();
  }
  EXPECT_NE(message.find("inside the window that ends at 201000 ps"), std::string::npos) << message;
}

// A wake that throws (a broken invariant does) on partitions served by two
// threads: once the exception is out, the calling thread serves no queue,
// so what it records next (the failure) goes straight to the database and
// not into a partition's buffer, which nobody would flush.
class Thrower final : public EventScheduler::Client {
 public:
  void on_wake(void*) override { throw std::runtime_error("broken"); }
};

TEST(EventScheduler, AWakeThatThrowsLeavesNoQueueBeingServed) {
  EventScheduler scheduler("scheduler", EventQueueShape{12, 8, 4});
  EventQueue& second = scheduler.add_queue(EventQueueShape{12, 8, 4});
  scheduler.set_lookahead(kLookahead);
  scheduler.set_threads(2);
  Idle idle;
  Thrower thrower;
  second.schedule(2'000, idle);
  scheduler.queue().schedule(1'000, thrower);
  std::string message;
  try {
    scheduler.run_until(10'000'000);
  } catch (const std::exception& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("broken"), std::string::npos) << message;
  EXPECT_EQ(EventQueue::serving(), nullptr);
}

}  // namespace
}  // namespace fabric
