#pragma once
// One rule for a renamed key's old name, wherever fabricsim takes a key
// (--set, --set-swept, study and INI files, --sweep and a [sweep] section,
// --explain): the old name stands for the new one, with a note on stderr
// naming the new one; the old and the new name of one key both given, from
// any sources, is refused naming both. No SystemC.
#include <map>
#include <string>
#include <vector>

namespace fabric::config {

class ParamRegistry;

class KeyNames {
 public:
  explicit KeyNames(const ParamRegistry& registry) : registry_(registry) {}

  // The name a key was given by, and where ("--set", "file:line", "--sweep").
  struct Given {
    std::string name;
    std::string where;
  };

  // The key `written` stands for: itself, or the new name of an old one (a
  // note is kept). Throws ConfigError naming both names when the key was
  // given by its other name before.
  std::string current(const std::string& written, const std::string& value, const std::string& where);
  // The key `written` names, without keeping it as given (--explain).
  std::string current_name(const std::string& written);
  // By its current name; nullptr when not given.
  const Given* given(const std::string& key) const;
  // The notes of the old names used, each once, in order.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void note(const std::string& old_name, const std::string& new_name, const std::string& where);

  const ParamRegistry& registry_;
  std::map<std::string, Given> given_;  // by current name
  std::vector<std::string> notes_;
};

}  // namespace fabric::config
