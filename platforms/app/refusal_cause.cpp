#include "platforms/app/refusal_cause.h"

#include "config/config.h"
#include "config/split.h"
#include "platforms/app/parameters.h"
#include "platforms/app/run_resolution.h"

namespace fabric {

namespace {

std::string key_of(const std::string& assignment) { return config::trim(assignment.substr(0, assignment.find('='))); }

// The error resolving `cl` gives, or nullopt when it resolves.
std::optional<config::ConfigError> refusal_of(const CommandLine& cl, const config::ParamRegistry& registry) {
  config::Config config(registry);
  try {
    resolve(cl, config);
  } catch (const config::ConfigError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace

config::ConfigError with_its_cause(const CommandLine& cl, const config::ConfigError& error) {
  const config::ParamRegistry registry = build_registry();
  config::KeyNames names(registry);
  for (const std::string& assignment : cl.sets)
    if (names.current_name(key_of(assignment)) == names.current_name(error.key)) return error;  // its own key
  for (size_t i = 0; i < cl.sets.size(); ++i) {
    CommandLine without = cl;
    without.sets.erase(without.sets.begin() + static_cast<long>(i));
    const std::optional<config::ConfigError> refusal = refusal_of(without, registry);
    if (refusal && refusal->key == error.key) continue;
    const std::string set_key = key_of(cl.sets[i]);
    return config::ConfigError(error.key, error.value,
                               error.allowed + "; the cause is --set " + cl.sets[i] + ": change " + error.key +
                                   " with it, or give " + set_key + " another value",
                               error.origin);
  }
  return error;
}

}  // namespace fabric
