#pragma once
// When a flow sends, as configuration text: a stop time (traffic.stop,
// flow.NAME.stop) and a schedule of on-intervals (flow.NAME.schedule). What
// needs other keys (a stop after the start, a schedule instead of start and
// stop) is checked where the flow is read.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/config/config.h"
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

}  // namespace fabric::traffic
