#include "platforms/app/sweep_points.h"

#include <cstdio>
#include <optional>
#include <ostream>

#include "config/set_and_swept.h"
#include "config/sweep_spec.h"
#include "platforms/app/run_resolution.h"
#include "platforms/app/sweep_validation.h"

namespace fabric {

namespace {

std::string json_string(const std::string& text) {
  std::string s = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        s += "\\\"";
        break;
      case '\\':
        s += "\\\\";
        break;
      case '\n':
        s += "\\n";
        break;
      case '\t':
        s += "\\t";
        break;
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
    config::refuse_keys_set_and_swept(base, spec);
  } catch (const config::ConfigError& e) {
    err << "fabricsim: " << base.locate(e).what() << "\n";
    return 2;
  }
  for (const auto* notes : {&base.renamed_keys_used(), &spec.renamed_keys_used()})
    for (const std::string& note : *notes) err << "fabricsim: note: " << note << "\n";
  // Counted before any point is made: a sweep too large for memory is refused at once.
  const std::optional<uint64_t> size = spec.size();
  if (!size || *size > run.max_sweep_points) {
    const config::ParamSpec& limit = *registry.find("sweep.max_points");
    err << "fabricsim: the sweep has " << (size ? std::to_string(*size) : "more than 18446744073709551615")
        << " points (" << spec.size_formula()
        << ": its keys' numbers of values multiplied); at most sweep.max_points = " << run.max_sweep_points
        << " run in one sweep: sweep fewer values, or raise sweep.max_points (--set sweep.max_points=N, at most "
        << static_cast<uint64_t>(limit.max) << ")\n";
    return 2;
  }
  SweepValidation validation(cl, registry, spec);
  if (validation.validate(err) != 0) return 2;
  out << "{\"study\": " << json_string(run.study) << ", \"sweep\": " << json_string(spec.describe())
      << ", \"points\": " << *size << "}\n";
  for (uint64_t i = 0; i < *size; ++i) {
    const config::SweepPoint point = spec.point(validation.grid().at(i));
    out << "{\"point\": " << i + 1 << ", \"key\": " << json_string(point.key()) << ", \"sets\": [";
    for (size_t k = 0; k < point.values.size(); ++k)
      out << (k ? ", " : "") << json_string(point.values[k].first + "=" + point.values[k].second);
    out << "], \"warnings\": [";
    const std::vector<std::string> warnings = validation.warnings(i);
    for (size_t w = 0; w < warnings.size(); ++w) out << (w ? ", " : "") << json_string(warnings[w]);
    out << "]}\n";
  }
  return 0;
}

}  // namespace fabric
