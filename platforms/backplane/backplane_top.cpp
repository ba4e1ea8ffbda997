#include "platforms/backplane/backplane_top.h"

#include <algorithm>
#include <string>

#include "model/link/link_probe.h"
#include "platforms/common/ledger_flows.h"
#include "traffic/flow_source.h"
#include "traffic/message_source.h"

namespace fabric {

namespace {

// A flow's application messages (the traffic layer's) as a station writes them.
class MessageFrames final : public ApplicationFrames {
 public:
  MessageFrames(const traffic::FlowSpec& flow, uint64_t seed) : source_(flow, seed) {}
  Frame next() const override { return {source_.next().bytes, source_.next().dst}; }
  void take() override { source_.take(); }

 private:
  traffic::MessageSource source_;
};

}  // namespace

BackplaneTop::BackplaneTop(sc_core::sc_module_name name, const BackplaneConfig& config,
                           const std::vector<traffic::FlowSpec>& flows, uint64_t seed, Recorder& recorder)
    : sc_module(name),
      config_(config),
      ledger_(recorder),
      recorder_(ledger_),
      entity_(recorder.declare(EntityKind::system, "backplane")),
      scheduler_("scheduler"),
      flows_(flows) {
  EventQueue& events = scheduler_.queue();
  switch_ = std::make_unique<BackplaneSwitch>("switch", config_.sw, pool_, events);
  switch_probe_ = std::make_unique<BackplaneSwitchProbe>(*switch_, recorder_);  // declares "switch"
  switch_->set_observer(switch_probe_.get());
  for (int p = 0; p < config_.sw.stations; ++p) {
    const std::string n = std::to_string(p);
    stations_.push_back(std::make_unique<EndStation>(("station" + n).c_str(), PortId(static_cast<uint32_t>(p)),
                                                     config_.station, pool_, events));
    stations_.back()->set_observer(&station_probes_.emplace_back(*stations_.back(), recorder_));  // station<N>
    EndStation& st = *stations_.back();
    const Unit station{UnitKind::station, p}, memory_switch{UnitKind::switch_, 0};
    links_.push_back(std::make_unique<Link>(("station" + n + "_to_switch").c_str(), config_.link));
    link_places_.push_back(link_place(station, memory_switch, Direction::to_switch));
    st.tx.out.bind(links_.back()->in);
    links_.back()->out.bind(switch_->rx(p).in);
    links_.push_back(std::make_unique<Link>(("switch_to_station" + n).c_str(), config_.link));
    link_places_.push_back(link_place(memory_switch, station, Direction::to_station));
    switch_->tx(p).out.bind(links_.back()->in);
    links_.back()->out.bind(st.rx.in);
  }
  for (const traffic::FlowSpec& f : flows_) {
    ledger_.ledger().add_flow(ledger_flow(f));
    stations_[raw(f.src)]->attach(
        {f.id, f.start, f.stop, f.max_frames, std::make_unique<MessageFrames>(f, traffic::flow_seed(seed, f.id))});
  }
}

uint64_t BackplaneTop::messages_moved() const {
  uint64_t n = 0;
  for (const auto& l : links_) n += l->messages();
  return n;
}

uint64_t BackplaneTop::backlog() const {
  uint64_t n = switch_->frames_held();
  for (const auto& s : stations_) n += s->held();
  return n;
}

void BackplaneTop::describe_backlog(std::ostream& out, int max_lines) const {
  out << "  switch: " << switch_->frames_held() << " frames, " << switch_->memory().occupancy() << " B held\n";
  for (const auto& s : stations_) {
    if (s->held() == 0 || --max_lines <= 0) continue;
    out << "  " << s->name() << ": " << s->held() << " frames in its buffers" << (s->paused_now() ? " (paused)" : "")
        << "\n";
  }
}

uint64_t BackplaneTop::frames_sent() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->frames_sent();
  return n;
}

uint64_t BackplaneTop::frames_delivered() const {
  uint64_t n = 0;
  for (const auto& s : stations_) n += s->frames_received();
  return n;
}

BackplaneTop::Figures BackplaneTop::figures(Picos end) const {
  Figures f;
  LatencyHistogram all;
  uint64_t bytes = 0;
  uint64_t most_pauses = 0;
  for (const auto& s : stations_) {
    all.merge(s->measured_latency());
    bytes += s->measured_bytes();
    most_pauses = std::max(most_pauses, s->pause_frames());
  }
  const Picos measured = end - config_.warmup;
  if (measured > 0) f.throughput_gbps = bytes * 8.0 / static_cast<double>(measured) * 1000.0;
  f.latency_mean_ps = all.mean();
  f.latency_p99_ps = all.quantile(0.99);
  f.latency_max_ps = all.max();
  f.frames_measured = all.count();
  if (end > 0) {
    const double seconds = end / 1e12;
    f.pause_per_second = most_pauses / seconds;
    const double pause_bits = (config_.sw.pause_frame_bytes + config_.link.overhead_bytes) * 8.0;
    f.pause_share = most_pauses * pause_bits / (config_.link.rate_gbps * 1e9 * seconds);
  }
  return f;
}

void BackplaneTop::finish(Picos end) {
  drained_at_end_ = backlog() == 0 &&
                    std::all_of(links_.begin(), links_.end(), [&](const auto& l) { return l->quiet_from() <= end; });
  ledger_.ledger().finish(end, drained_at_end_);
  ledger_.record_totals(entity_, false);
  for (size_t i = 0; i < stations_.size(); ++i) {
    stations_[i]->finish();       // frames never sent
    station_probes_[i].finish();  // subflow totals, PAUSE frames
  }
  switch_probe_->finish();
  for (size_t i = 0; i < links_.size(); ++i) record_link_totals(recorder_, *links_[i], link_places_[i], end);
  const Figures f = figures(end);
  recorder_.total(entity_, metric::throughput_gbps, f.throughput_gbps);
  recorder_.total(entity_, metric::latency_mean_ps, f.latency_mean_ps);
  recorder_.total(entity_, metric::latency_p99_ps, static_cast<double>(f.latency_p99_ps));
  recorder_.total(entity_, metric::latency_max_ps, static_cast<double>(f.latency_max_ps));
  recorder_.total(entity_, metric::pause_per_second, f.pause_per_second);
  recorder_.total(entity_, metric::pause_share, f.pause_share);
}

}  // namespace fabric
