#include "config/key_names.h"

#include <algorithm>

#include "config/config.h"

namespace fabric::config {

std::string KeyNames::current(const std::string& written, const std::string& value, const std::string& where) {
  const std::string key = current_name(written);
  if (key != written) note(written, key, where);
  const auto [it, fresh] = given_.emplace(key, Given{written, where});
  if (!fresh && it->second.name != written) {
    const std::string& old_name = key == written ? it->second.name : written;
    const std::string& where_before = it->second.where.empty() ? "on the command line" : it->second.where;
    throw ConfigError(written, value,
                      "one name per key: '" + it->second.name + "' is given too (" + where_before + "), and '" +
                          old_name + "' is the old name of '" + key + "': give the key once, as '" + key + "'");
  }
  if (!fresh) it->second.where = where;  // the later value wins: its place is the one to name
  return key;
}

std::string KeyNames::current_name(const std::string& written) {
  const std::string* now = registry_.find(written) ? nullptr : registry_.renamed_to(written);
  return now ? *now : written;
}

const KeyNames::Given* KeyNames::given(const std::string& key) const {
  const auto it = given_.find(key);
  return it == given_.end() ? nullptr : &it->second;
}

void KeyNames::note(const std::string& old_name, const std::string& new_name, const std::string& where) {
  const std::string text = "key '" + old_name + "' is now '" + new_name +
                           "'; the old name is accepted until the next release" +
                           (where.empty() ? std::string() : " (" + where + ")");
  if (std::find(notes_.begin(), notes_.end(), text) == notes_.end()) notes_.push_back(text);
}

}  // namespace fabric::config
