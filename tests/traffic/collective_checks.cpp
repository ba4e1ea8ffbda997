#include "tests/traffic/collective_checks.h"

#include <algorithm>
#include <deque>
#include <map>
#include <queue>
#include <tuple>

namespace fabric::traffic::testing {

CollectiveSpec spec_of(Collective c, const std::string& algorithm, int n, uint64_t bytes) {
  CollectiveSpec spec;
  spec.collective = c;
  spec.algorithm = algorithm;
  spec.ranks = n;
  spec.bytes = bytes;
  return spec;
}

namespace {

std::string where(int rank, uint32_t op) { return "rank " + std::to_string(rank) + " op " + std::to_string(op); }

bool rank_in_range(const JobSchedule& s, int32_t rank) { return rank >= 0 && rank < s.size(); }

}  // namespace

MessageMatching match_messages(const JobSchedule& s) {
  MessageMatching m;
  m.recvs_of_send.resize(s.ranks.size());
  m.send_of_recv.resize(s.ranks.size());
  using Key = std::tuple<int, int, uint32_t>;  // (sender, receiver, tag)
  std::map<Key, std::deque<uint32_t>> recvs;   // in op order
  for (int r = 0; r < s.size(); ++r) {
    const auto& ops = s.ranks[static_cast<size_t>(r)].ops;
    m.recvs_of_send[static_cast<size_t>(r)].resize(ops.size());
    m.send_of_recv[static_cast<size_t>(r)].resize(ops.size());
    for (uint32_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind != JobOpKind::recv) continue;
      if (!rank_in_range(s, ops[i].peer) || ops[i].peer == r)
        m.problems.push_back(where(r, i) + ": a recv from rank " + std::to_string(ops[i].peer));
      else
        recvs[{ops[i].peer, r, ops[i].tag}].push_back(i);
    }
  }
  for (int r = 0; r < s.size(); ++r) {
    const auto& ops = s.ranks[static_cast<size_t>(r)].ops;
    for (uint32_t i = 0; i < ops.size(); ++i) {
      const JobOp& send = ops[i];
      if (send.kind != JobOpKind::send) continue;
      std::vector<int32_t> receivers;
      if (send.group >= 0 && send.peer == -1 && send.group < static_cast<int32_t>(s.groups.size())) {
        receivers = s.groups[static_cast<size_t>(send.group)];
        if (receivers.empty()) m.problems.push_back(where(r, i) + ": an empty group");
      } else if (send.group == -1 && rank_in_range(s, send.peer) && send.peer != r) {
        receivers = {send.peer};
      } else {
        m.problems.push_back(where(r, i) + ": a send to peer " + std::to_string(send.peer) + " group " +
                             std::to_string(send.group));
      }
      for (int32_t to : receivers) {
        auto found = recvs.find({r, to, send.tag});
        if (to == r || !rank_in_range(s, to) || found == recvs.end() || found->second.empty()) {
          m.problems.push_back(where(r, i) + ": no recv at rank " + std::to_string(to) + " tag " +
                               std::to_string(send.tag));
          continue;
        }
        const uint32_t recv = found->second.front();
        found->second.pop_front();
        m.recvs_of_send[static_cast<size_t>(r)][i].push_back({to, recv});
        m.send_of_recv[static_cast<size_t>(to)][recv] = {r, i};
        const uint64_t recv_bytes = s.ranks[static_cast<size_t>(to)].ops[recv].bytes;
        if (recv_bytes != send.bytes)
          m.problems.push_back(where(r, i) + " sends " + std::to_string(send.bytes) + " bytes, " + where(to, recv) +
                               " receives " + std::to_string(recv_bytes));
      }
    }
  }
  for (const auto& [key, left] : recvs)
    for (uint32_t recv : left) m.problems.push_back(where(std::get<1>(key), recv) + ": a recv no send matches");
  return m;
}

std::vector<std::string> schedule_problems(const JobSchedule& s) {
  std::vector<std::string> problems = match_messages(s).problems;
  uint32_t largest_step = 0;
  bool any_op = false;
  for (int r = 0; r < s.size(); ++r) {
    const auto& ops = s.ranks[static_cast<size_t>(r)].ops;
    // Kahn's algorithm over requires and irequires: a cycle leaves ops unordered.
    std::vector<uint32_t> unmet(ops.size(), 0);
    std::vector<std::vector<uint32_t>> dependents(ops.size());
    for (uint32_t i = 0; i < ops.size(); ++i) {
      any_op = true;
      largest_step = std::max(largest_step, ops[i].step);
      for (const auto* list : {&ops[i].after, &ops[i].after_start}) {
        for (uint32_t d : *list) {
          if (d >= ops.size() || d == i) {
            problems.push_back(where(r, i) + ": depends on op " + std::to_string(d));
            continue;
          }
          ++unmet[i];
          dependents[d].push_back(i);
        }
      }
    }
    std::vector<uint32_t> ready;
    for (uint32_t i = 0; i < ops.size(); ++i)
      if (unmet[i] == 0) ready.push_back(i);
    size_t ordered = 0;
    while (!ready.empty()) {
      const uint32_t i = ready.back();
      ready.pop_back();
      ++ordered;
      for (uint32_t d : dependents[i])
        if (--unmet[d] == 0) ready.push_back(d);
    }
    if (ordered != ops.size()) problems.push_back("rank " + std::to_string(r) + ": a dependency cycle");
  }
  const uint32_t steps = any_op ? largest_step + 1 : 0;
  if (s.steps != steps) problems.push_back("steps " + std::to_string(s.steps) + ", ops say " + std::to_string(steps));
  return problems;
}

namespace {

class IdealReplay {
 public:
  IdealReplay(const JobSchedule& s, const IdealNetwork& network)
      : s_(s), network_(network), matching_(match_messages(s)), nic_free_(s.ranks.size(), 0) {
    for (const RankSchedule& rank : s.ranks) {
      const size_t n = rank.ops.size();
      run_.times.emplace_back(n);
      unmet_.emplace_back(n, 0);
      on_end_.emplace_back(n);
      on_start_.emplace_back(n);
      arrived_.emplace_back(n, kNever);
      for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t d : rank.ops[i].after) on_end_.back()[d].push_back(i);
        for (uint32_t d : rank.ops[i].after_start) on_start_.back()[d].push_back(i);
        unmet_.back()[i] = static_cast<uint32_t>(rank.ops[i].after.size() + rank.ops[i].after_start.size());
      }
    }
  }

  IdealRun run() {
    for (int r = 0; r < s_.size(); ++r)
      for (uint32_t i = 0; i < unmet_[static_cast<size_t>(r)].size(); ++i)
        if (unmet_[static_cast<size_t>(r)][i] == 0) post(r, i, 0);
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      OpTimes& times = run_.times[static_cast<size_t>(e.rank)][e.op];
      if (e.kind == Kind::start) {
        times.start = e.time;
        for (uint32_t d : on_start_[static_cast<size_t>(e.rank)][e.op]) satisfy(e.rank, d, e.time);
      } else if (e.kind == Kind::end) {
        times.end = e.time;
        run_.finish = std::max(run_.finish, e.time);
        for (uint32_t d : on_end_[static_cast<size_t>(e.rank)][e.op]) satisfy(e.rank, d, e.time);
      } else {  // the message of a recv arrived
        arrived_[static_cast<size_t>(e.rank)][e.op] = e.time;
        if (times.start != kNever) push(Kind::end, e.rank, e.op, std::max(times.start, e.time));
      }
    }
    for (const auto& rank : run_.times)
      for (const OpTimes& t : rank) run_.unfinished += t.end == kNever;
    return std::move(run_);
  }

 private:
  enum class Kind { start, end, arrive };
  struct Event {
    Picos time;
    uint64_t order;  // ties in the order they were pushed
    Kind kind;
    int rank;
    uint32_t op;
    bool operator>(const Event& o) const { return std::tie(time, order) > std::tie(o.time, o.order); }
  };

  void push(Kind kind, int rank, uint32_t op, Picos time) { events_.push({time, next_order_++, kind, rank, op}); }

  void satisfy(int rank, uint32_t op, Picos now) {
    if (--unmet_[static_cast<size_t>(rank)][op] == 0) post(rank, op, now);
  }

  // Every event before `now` has been handled, so the NIC's queue is in posting order.
  void post(int rank, uint32_t op, Picos now) {
    const JobOp& o = s_.ranks[static_cast<size_t>(rank)].ops[op];
    if (o.kind == JobOpKind::calc) {
      push(Kind::start, rank, op, now);
      push(Kind::end, rank, op, now + o.duration);
    } else if (o.kind == JobOpKind::recv) {
      // The start event marks it posted before its arrival can end it.
      run_.times[static_cast<size_t>(rank)][op].start = now;
      push(Kind::start, rank, op, now);
      const Picos arrived = arrived_[static_cast<size_t>(rank)][op];
      if (arrived != kNever) push(Kind::end, rank, op, std::max(now, arrived));
    } else {
      Picos& free = nic_free_[static_cast<size_t>(rank)];
      const Picos first_byte = std::max(now, free);
      free = first_byte + static_cast<Picos>(o.bytes) * network_.picos_per_byte;
      push(Kind::start, rank, op, first_byte);
      push(Kind::end, rank, op, free);
      for (const OpRef& recv : matching_.recvs_of_send[static_cast<size_t>(rank)][op])
        push(Kind::arrive, recv.rank, recv.op, free + network_.latency);
    }
  }

  const JobSchedule& s_;
  IdealNetwork network_;
  MessageMatching matching_;
  std::vector<Picos> nic_free_;
  std::vector<std::vector<uint32_t>> unmet_;
  std::vector<std::vector<std::vector<uint32_t>>> on_end_, on_start_;
  std::vector<std::vector<Picos>> arrived_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t next_order_ = 0;
  IdealRun run_;
};

}  // namespace

IdealRun replay_on_ideal_network(const JobSchedule& s, const IdealNetwork& network) {
  return IdealReplay(s, network).run();
}

}  // namespace fabric::traffic::testing
