#include "platforms/ring/ring_top.h"

#include <algorithm>
#include <string>

#include "model/ring/ring_frame.h"

namespace fabric {

std::vector<ring::RingGroup> ring_groups(const RingConfig& config) {
  std::vector<ring::RingGroup> groups;
  for (int g = 0; g < config.group_count; ++g) {
    ring::RingGroup r;
    r.id = g;
    for (int i = 0; i < config.group_size; ++i) r.members.push_back(g * config.group_size + i);
    // Whoever may send to it at some time of the run (a schedule of
    // patterns may let every member send); one who sends nothing blocks no
    // delivery (it holds no reservation).
    const bool ever_all = config.pattern == RingPattern::all_to_all || !config.pattern_schedule.empty();
    r.senders = ever_all ? r.members : std::vector<int>{r.members.front()};
    groups.push_back(r);
  }
  return groups;
}

double RingSenderLoad::gbps_at(Picos t) const {
  const RingPattern p = config_.pattern_at(t);
  if (p == RingPattern::one_to_all && !first_) return 0;
  return config_.load_at(t) / config_.senders(p);
}

Picos RingSenderLoad::next_change(Picos t) const {
  return std::min(traffic::next_boundary(config_.load_schedule, t), traffic::next_boundary(config_.pattern_schedule, t));
}

RingTop::RingTop(sc_core::sc_module_name name, const RingConfig& config, uint64_t seed, Recorder& recorder)
    : sc_module(name), config_(config), recorder_(recorder), scheduler_("scheduler") {
  EventQueue& events = scheduler_.queue();
  const std::vector<ring::RingGroup> groups = ring_groups(config_);
  RingStationParams params = config_.station;
  // Permits start at the packet inter-arrival time of a sender's share of
  // the load, and follow the arrivals from there.
  params.permit_interval = static_cast<Picos>(ring::kPayloadBytes * 8000.0 * config_.senders(config_.pattern) /
                                              config_.load_gbps);
  for (int s = 0; s < config_.stations; ++s)
    stations_.push_back(std::make_unique<RingStation>(("station" + std::to_string(s)).c_str(), s, config_.stations,
                                                      groups, params, frames_, pool_, recorder_, events));
  for (int s = 0; s < config_.stations; ++s) {
    segments_.push_back(std::make_unique<Link>(("segment" + std::to_string(s)).c_str(), config_.segment));
    stations_[static_cast<size_t>(s)]->tx.out.bind(segments_.back()->in);
    segments_.back()->out.bind(stations_[static_cast<size_t>((s + 1) % config_.stations)]->rx.in);
  }
  busy_at_last_sample_.assign(segments_.size(), 0);
  for (const ring::RingGroup& g : groups) {
    for (int s : g.senders) {
      loads_.push_back(std::make_unique<RingSenderLoad>(config_, s == g.members.front()));
      stations_[static_cast<size_t>(s)]->attach_host(std::make_unique<traffic::PacketArrivals>(
          *loads_.back(), config_.arrival, seed * 1000003 + static_cast<uint64_t>(s), ring::kPayloadBytes));
    }
  }
}

uint64_t RingTop::messages_moved() const {
  uint64_t n = 0;
  for (const auto& l : segments_) n += l->messages();
  return n;
}

uint64_t RingTop::backlog() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->protocol().spq() + s->transit_waiting();
  return n;
}

void RingTop::describe_backlog(std::ostream& out, int max_lines) const {
  for (const auto& s : stations_) {
    if (s->protocol().spq() == 0 || max_lines-- <= 0) continue;
    out << "  " << s->name() << ": " << s->protocol().spq() << " packets in reservation, "
        << s->protocol().undelivered() << " awaiting delivery, " << s->protocol().buffers().free()
        << " buffers free\n";
  }
}

void RingTop::sample_occupancy(Picos t) {
  const Picos interval = t - last_sample_;
  for (size_t i = 0; i < segments_.size(); ++i) {
    const Picos busy = segments_[i]->busy_time(t);
    if (interval > 0)
      recorder_.sample(t, "segment" + std::to_string(i), "utilisation",
                       static_cast<double>(busy - busy_at_last_sample_[i]) / static_cast<double>(interval));
    busy_at_last_sample_[i] = busy;
  }
  last_sample_ = t;
  double spq = 0, q = 0;
  int senders = 0;
  for (const auto& s : stations_) {
    if (!s->sends()) continue;
    ++senders;
    spq += static_cast<double>(s->protocol().spq());
    q += s->limit();
  }
  if (senders == 0) return;
  recorder_.sample(t, "ring", "spq_mean", spq / senders);
  recorder_.sample(t, "ring", "q_mean", q / senders);
}

uint64_t RingTop::frames_sent() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->protocol().packets_sent();
  return n;
}

uint64_t RingTop::frames_delivered() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->deliveries();
  return n;
}

uint64_t RingTop::packets_offered() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->packets_offered();
  return n;
}

uint64_t RingTop::attempts() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->attempts();
  return n;
}

uint64_t RingTop::retracts() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->protocol().retracts_sent();
  return n;
}

double RingTop::throughput_gbps(Picos simulated) const {
  if (simulated <= 0) return 0;
  const double packets = static_cast<double>(frames_delivered()) / config_.group_size;
  return packets * ring::kPayloadBytes * 8000.0 / static_cast<double>(simulated);
}

void RingTop::finish(Picos end) {
  recorder_.sample(end, "ring", "packets_offered", static_cast<double>(packets_offered()));
  recorder_.sample(end, "ring", "packets_sent", static_cast<double>(frames_sent()));
  recorder_.sample(end, "ring", "deliveries", static_cast<double>(frames_delivered()));
  recorder_.sample(end, "ring", "attempts", static_cast<double>(attempts()));
  recorder_.sample(end, "ring", "retracts", static_cast<double>(retracts()));
  recorder_.sample(end, "ring", "throughput_gbps", throughput_gbps(end));
  for (size_t s = 0; s < stations_.size(); ++s) {
    recorder_.sample(end, stations_[s]->basename(), "max_buffers_used", stations_[s]->max_buffers_used());
    recorder_.sample(end, stations_[s]->basename(), "segment_utilisation",
                     end > 0 ? static_cast<double>(segments_[s]->busy_time(end)) / static_cast<double>(end) : 0);
  }
}

}  // namespace fabric
