#include "platforms/app/sweep_points.h"

#include <cstdio>
#include <ostream>

#include "model/config/sweep_spec.h"
#include "platforms/app/run_resolution.h"

namespace fabric {

namespace {

std::string json_string(const std::string& text) {
  std::string s = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': s += "\\\""; break;
      case '\\': s += "\\\\"; break;
      case '\n': s += "\\n"; break;
      case '\t': s += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char u[8];
          std::snprintf(u, sizeof u, "\\u%04x", c);
          s += u;
        } else {
          s += c;
        }
    }
  }
  return s + "\"";
}

}  // namespace

int list_sweep_points(const CommandLine& cl, const config::ParamRegistry& registry, std::ostream& out,
                      std::ostream& err) {
  config::Config base(registry);
  ResolvedRun run;
  config::SweepSpec spec;
  try {
    run = resolve(cl, base);
    std::vector<config::SweepLine> lines = base.sweep_lines();
    for (const std::string& option : cl.sweeps) lines.push_back(config::parse_sweep_option(option));
    spec = config::SweepSpec::parse(lines, registry);
  } catch (const config::ConfigError& e) {
    err << "fabricsim: " << base.locate(e).what() << "\n";
    return 2;
  }
  const std::vector<config::SweepPoint> points = spec.points();
  std::vector<std::vector<std::string>> warnings(points.size());  // each point's, for the runner to show
  for (size_t i = 0; i < points.size(); ++i) {  // each point, as its run will resolve it
    CommandLine point = cl;
    for (const auto& [key, value] : points[i].values) point.swept.push_back(key + "=" + value);
    config::Config config(registry);
    try {
      const ResolvedRun resolved = resolve(point, config);
      for (const config::CheckResult& w : resolved.warnings) warnings[i].push_back(w.detail);
      if (cl.strict && !resolved.warnings.empty()) {
        err << "fabricsim: sweep point " << i + 1 << " of " << points.size() << " (" << points[i].key()
            << "): --strict: " << resolved.warnings.front().detail << "\n";
        return 2;
      }
    } catch (const config::ConfigError& e) {
      err << "fabricsim: sweep point " << i + 1 << " of " << points.size() << " (" << points[i].key()
          << "): " << config.locate(e).what() << "\n";
      return 2;
    }
  }
  out << "{\"study\": " << json_string(run.study) << ", \"sweep\": " << json_string(spec.describe())
      << ", \"points\": " << points.size() << "}\n";
  for (size_t i = 0; i < points.size(); ++i) {
    out << "{\"point\": " << i + 1 << ", \"key\": " << json_string(points[i].key()) << ", \"sets\": [";
    for (size_t k = 0; k < points[i].values.size(); ++k)
      out << (k ? ", " : "") << json_string(points[i].values[k].first + "=" + points[i].values[k].second);
    out << "], \"warnings\": [";
    for (size_t w = 0; w < warnings[i].size(); ++w) out << (w ? ", " : "") << json_string(warnings[i][w]);
    out << "]}\n";
  }
  return 0;
}

}  // namespace fabric
