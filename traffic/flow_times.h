#pragma once
// When a flow sends, as configuration text: a stop time (traffic.stop,
// flow.NAME.stop), a schedule of on-intervals (flow.NAME.schedule) and
// phases with values of their own (a load schedule). What
// needs other keys (a stop after the start, a schedule instead of start and
// stop) is checked where the flow is read.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "model/core/ids.h"

namespace fabric::traffic {

// "" (blank): never, nullopt; else a duration such as 2ms in 0 ..
// kLatestConfiguredTime. Throws ConfigError naming `key`.
std::optional<Picos> parse_stop_time(const std::string& key, const std::string& text);
config::TextSyntax stop_time_syntax();

// "FROM-TO,FROM-TO,...": one or more on-intervals [FROM, TO) of durations
// in 0 .. kLatestConfiguredTime, FROM < TO, in time order and not overlapping. Throws ConfigError
// naming `key`.
using Schedule = std::vector<std::pair<Picos, Picos>>;
Schedule parse_schedule(const std::string& key, const std::string& text);
config::TextSyntax schedule_syntax();

// "FROM-TO:VALUE,...": phases [FROM, TO) each with its own value (a burst
// to a higher load, alternating traffic patterns), in time order and not
// overlapping; the value is the caller's to read (into a Phased of its own
// type). Blank: none. Throws ConfigError naming `key`.
template <class Value>
struct Phased {
  Picos from = 0;
  Picos to = 0;
  Value value{};
};
using Phase = Phased<std::string>;
std::vector<Phase> parse_phases(const std::string& key, const std::string& text);
config::TextSyntax phases_syntax();

// The value in force at `t` (nullptr: no phase).
template <class Value>
const Value* value_at(const std::vector<Phased<Value>>& phases, Picos t) {
  for (const Phased<Value>& p : phases)
    if (p.from <= t && t < p.to) return &p.value;
  return nullptr;
}
// The first phase boundary after `t` (kNever: none).
template <class Value>
Picos next_boundary(const std::vector<Phased<Value>>& phases, Picos t) {
  for (const Phased<Value>& p : phases) {
    if (p.from > t) return p.from;
    if (p.to > t) return p.to;
  }
  return kNever;
}

}  // namespace fabric::traffic
