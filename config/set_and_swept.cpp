#include "config/set_and_swept.h"

namespace fabric::config {

namespace {

bool set_on_the_command_line(const KeyNames::Given& given) {
  return given.where == "--set" || given.where == "--set-swept";
}

}  // namespace

void refuse_keys_set_and_swept(const Config& config, const SweepSpec& sweep) {
  for (size_t d = 0; d < sweep.dimension_sizes().size(); ++d) {
    const std::vector<std::string>& keys = sweep.dimension_keys(d);
    for (size_t k = 0; k < keys.size(); ++k) {
      const std::string& key = keys[k];
      const KeyNames::Given* set = config.key_names().given(key);
      const KeyNames::Given* swept = sweep.given(key);
      if (!set || !swept || !set_on_the_command_line(*set)) continue;
      std::string values;
      for (const auto& point : sweep.dimension_values(d)) values += (values.empty() ? "" : ",") + point[k];
      const std::string by_file = swept->where == "--sweep" ? "" : "; to drop the study's sweep, --sweep inherit=false";
      const std::string old_name = set->name == swept->name ? "" : " (another name of '" + swept->name + "')";
      throw ConfigError(swept->name, values,
                        "a key given one way: " + set->where + " " + set->name + "=" + config.resolved(key).value +
                            old_name +
                            " sets it for every point too (a search's --set with its --vary); set it or "
                            "sweep it, not both" +
                            by_file)
          .located_at(swept->where);
    }
  }
}

}  // namespace fabric::config
