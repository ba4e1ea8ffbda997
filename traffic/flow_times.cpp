#include "traffic/flow_times.h"

#include "config/split.h"
#include "config/text_scanner.h"

namespace fabric::traffic {
namespace {

const std::string kTimeRange = "0 .. " + std::to_string(kLatestConfiguredTime) + " ps";
const std::string kStopAllowed = "empty (never) or a duration such as 2ms, " + kTimeRange;
const std::string kScheduleAllowed =
    "on-intervals FROM-TO in time order, not overlapping, e.g. 1ms-2ms,3ms-4ms; FROM < TO, " + kTimeRange;

// A time of the run: a duration in 0 .. kLatestConfiguredTime. A SyntaxError
// names what is wrong.
Picos scan_time(const std::string& text) {
  Picos time = 0;
  try {
    time = config::parse_duration("", text);
  } catch (const config::ConfigError&) {
    throw config::SyntaxError("'" + config::shorten_for_message(text, 40) + "' is no duration such as 2ms");
  }
  if (time < 0 || time > kLatestConfiguredTime) {
    throw config::SyntaxError("'" + config::shorten_for_message(text, 40) + "' is outside " + kTimeRange);
  }
  return time;
}

// The dash between FROM and TO: the first one that is no exponent's sign ("1e-3ms").
size_t interval_dash(const std::string& item) {
  for (size_t at = item.find('-'); at != std::string::npos; at = item.find('-', at + 1)) {
    const bool exponent_sign = at > 0 && (item[at - 1] == 'e' || item[at - 1] == 'E');
    if (!exponent_sign) return at;
  }
  throw config::SyntaxError("'" + config::shorten_for_message(item, 40) + "' is not FROM-TO");
}

// FROM-TO, FROM < TO.
std::pair<Picos, Picos> scan_interval(const std::string& item) {
  const size_t dash = interval_dash(item);
  const Picos from = scan_time(item.substr(0, dash)), to = scan_time(item.substr(dash + 1));
  if (to <= from) throw config::SyntaxError("'" + config::shorten_for_message(item, 40) + "' ends before it begins");
  return {from, to};
}

void check_in_order(const std::string& item, Picos from, Picos previous_to) {
  if (from < previous_to)
    throw config::SyntaxError("'" + config::shorten_for_message(item, 40) +
                              "' begins before the interval ahead of it ends");
}

const std::string kPhasesAllowed =
    "phases FROM-TO:VALUE in time order, not overlapping, e.g. 2ms-4ms:3,6ms-8ms:3; FROM < TO, " + kTimeRange;

}  // namespace

std::optional<Picos> parse_stop_time(const std::string& key, const std::string& text) {
  if (config::trim(text).empty()) return std::nullopt;
  return config::parse_or_fail(key, text, kStopAllowed, [&] { return scan_time(text); });
}

config::TextSyntax stop_time_syntax() { return config::syntax_of<parse_stop_time>(kStopAllowed); }

Schedule parse_schedule(const std::string& key, const std::string& text) {
  return config::parse_or_fail(key, text, kScheduleAllowed, [&] {
    Schedule schedule;
    for (const std::string& item : config::scan_items(text, ',')) {
      const auto [from, to] = scan_interval(item);
      check_in_order(item, from, schedule.empty() ? 0 : schedule.back().second);
      schedule.emplace_back(from, to);
    }
    if (schedule.empty()) throw config::SyntaxError("no interval");
    return schedule;
  });
}

config::TextSyntax schedule_syntax() { return config::syntax_of<parse_schedule>(kScheduleAllowed); }

std::vector<Phase> parse_phases(const std::string& key, const std::string& text) {
  if (config::trim(text).empty()) return {};
  return config::parse_or_fail(key, text, kPhasesAllowed, [&] {
    std::vector<Phase> phases;
    for (const std::string& item : config::scan_items(text, ',')) {
      const size_t colon = item.find(':');
      if (colon == std::string::npos)
        throw config::SyntaxError("'" + config::shorten_for_message(item, 40) + "' is not FROM-TO:VALUE");
      const auto [from, to] = scan_interval(item.substr(0, colon));
      check_in_order(item, from, phases.empty() ? 0 : phases.back().to);
      const std::string value = config::trim(item.substr(colon + 1));
      if (value.empty()) throw config::SyntaxError("'" + config::shorten_for_message(item, 40) + "' has no value");
      phases.push_back({from, to, value});
    }
    return phases;
  });
}

config::TextSyntax phases_syntax() { return config::syntax_of<parse_phases>(kPhasesAllowed); }

}  // namespace fabric::traffic
