#include "traffic/jobs/rank_executor.h"

#include <algorithm>
#include <stdexcept>

namespace fabric::traffic {

RankExecutor::RankExecutor(const JobSchedule& schedule, const JobMessages& messages, int rank, Picos start,
                           Picos send_delay, std::string name)
    : ops_(schedule.ranks[static_cast<size_t>(rank)].ops),
      messages_(messages),
      rank_(rank),
      send_delay_(send_delay),
      job_start_(start),
      name_(std::move(name)) {
  const size_t n = ops_.size();
  std::vector<uint32_t> count(n + 1, 0);
  unmet_.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t d : ops_[i].after) ++count[d + 1];
    for (uint32_t d : ops_[i].after_start) ++count[d + 1];
    unmet_[i] = static_cast<uint32_t>(ops_[i].after.size() + ops_[i].after_start.size());
  }
  dependents_begin_.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) dependents_begin_[i + 1] = dependents_begin_[i] + count[i + 1];
  dependents_.resize(dependents_begin_[n]);
  std::vector<uint32_t> fill(dependents_begin_.begin(), dependents_begin_.end() - 1);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t d : ops_[i].after) dependents_[fill[d]++] = {i, false};
    for (uint32_t d : ops_[i].after_start) dependents_[fill[d]++] = {i, true};
  }
  ready_.assign(n, start);
  times_.assign(n, {});
  frames_done_.assign(n, 0);
  arrived_at_.assign(n, kNever);
  for (uint32_t i = 0; i < n; ++i)
    if (unmet_[i] == 0) posts_.emplace_back(i, start);
  drain_posts();
}

void RankExecutor::drain_posts() {
  while (!posts_.empty()) {
    const auto [op, t] = posts_.back();
    posts_.pop_back();
    post(op, t);
  }
}

void RankExecutor::post(uint32_t op, Picos t) {
  const JobOp& o = ops_[op];
  switch (o.kind) {
    case JobOpKind::calc:
      start(op, t);
      complete(op, t + o.duration);
      break;
    case JobOpKind::recv:
      start(op, t);
      if (arrived_at_[op] != kNever) complete(op, std::max(t, arrived_at_[op]));
      break;
    case JobOpKind::send:
      start(op, t + send_delay_);
      waiting_.emplace(t + send_delay_, op);
      break;
  }
}

void RankExecutor::start(uint32_t op, Picos t) {
  times_[op].start = t;
  for (uint32_t k = dependents_begin_[op]; k < dependents_begin_[op + 1]; ++k)
    if (dependents_[k].on_start) satisfy(dependents_[k].op, t);
}

void RankExecutor::complete(uint32_t op, Picos t) {
  times_[op].end = t;
  ++completed_;
  for (uint32_t k = dependents_begin_[op]; k < dependents_begin_[op + 1]; ++k)
    if (!dependents_[k].on_start) satisfy(dependents_[k].op, t);
}

void RankExecutor::satisfy(uint32_t op, Picos t) {
  ready_[op] = std::max(ready_[op], t);
  if (--unmet_[op] == 0) posts_.emplace_back(op, ready_[op]);
}

Picos RankExecutor::next_frame_time() const {
  if (!active_.empty()) return active_since_;
  return waiting_.empty() ? kNever : waiting_.top().first;
}

void RankExecutor::activate_due(Picos now) {
  while (!waiting_.empty() && waiting_.top().first <= now) {
    const auto [t, op] = waiting_.top();
    waiting_.pop();
    const JobOp& o = ops_[op];
    const int32_t destination = o.group >= 0 ? -1 - o.group : o.peer;
    auto& queue = channels_[destination];
    if (queue.empty()) active_.push_back(destination);
    queue.push_back(op);
    if (active_since_ == kNever || t < active_since_) active_since_ = t;
  }
}

RankExecutor::Frame RankExecutor::pop_frame(Picos now) {
  activate_due(now);
  if (active_.empty()) throw std::logic_error(name_ + ": a frame taken before one is due");
  if (turn_ >= active_.size()) turn_ = 0;
  const int32_t destination = active_[turn_];
  auto& queue = channels_[destination];
  const uint32_t op = queue.front();
  const uint32_t id = messages_.message_of(rank_, op);
  const JobMessage& m = messages_[id];
  if (frames_done_[op] == 0)  // the invariant, at a send's first frame
    check_send_dependencies({ops_, times_, arrived_at_, job_start_, send_delay_}, op, now, name_);
  const Frame f{id, message_frame_bytes(m.bytes, frames_done_[op]), m.dst, m.group};
  if (++frames_done_[op] < m.frames) {
    ++turn_;  // the next destination's turn
    return f;
  }
  queue.pop_front();
  if (queue.empty()) {
    channels_.erase(destination);
    active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(turn_));  // the next one moves into this turn
    if (active_.empty()) active_since_ = kNever;
  } else {
    ++turn_;
  }
  complete(op, now);
  drain_posts();
  return f;
}

bool RankExecutor::frame_arrived(uint32_t id, Picos now) {
  const uint32_t op = messages_.recv_op(rank_, id);
  if (op == kNoMessage) {
    ++stray_frames_;
    return false;
  }
  if (++frames_done_[op] < messages_[id].frames) return false;
  arrived_at_[op] = now;
  if (times_[op].start == kNever) return false;  // not posted yet: it completes when it is
  complete(op, std::max(now, times_[op].start));
  drain_posts();
  return true;
}

Picos RankExecutor::finished_at() const {
  if (!done()) return kNever;
  Picos last = job_start_;
  for (const JobOpTimes& t : times_) last = std::max(last, t.end);
  return last;
}

}  // namespace fabric::traffic
