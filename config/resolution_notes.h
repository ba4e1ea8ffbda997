#pragma once
// What resolving a run's configuration found beyond the values given: the
// keys derived from the physics (with the numbers behind each) and the
// checks of physical constraints, each with the keys it reads and whether
// it holds. A check that does not hold is a warning (an error with
// --strict). No SystemC inside.
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fabric::config {

struct DerivedValue {
  std::string value;       // in the key's syntax
  std::string numbers;     // the formula with this run's numbers
  std::string spec_value;  // the spec's value, "" when the spec gives none
  // Whether this run's physics moved it away from the spec's value.
  bool departs() const { return !spec_value.empty() && spec_value != value; }
};

struct CheckResult {
  std::string name;               // what must hold: "link.retry.timeout >= the link ACK round trip"
  std::vector<std::string> keys;  // the keys it reads, the one to change first
  bool holds = true;
  std::string detail;  // the values and the numbers behind the check, and what breaks if it fails
};

class ResolutionNotes {
 public:
  void derived(const std::string& key, std::string value, std::string numbers, std::string spec_value = "") {
    derived_[key] = {std::move(value), std::move(numbers), std::move(spec_value)};
  }
  void check(CheckResult result) { checks_.push_back(std::move(result)); }

  const std::map<std::string, DerivedValue>& derived_values() const { return derived_; }
  const std::vector<CheckResult>& checks() const { return checks_; }
  std::vector<CheckResult> warnings() const {
    std::vector<CheckResult> failed;
    for (const CheckResult& c : checks_)
      if (!c.holds) failed.push_back(c);
    return failed;
  }
  // The derived keys this run moved away from the spec's values, in key order.
  std::vector<std::pair<std::string, DerivedValue>> departures() const {
    std::vector<std::pair<std::string, DerivedValue>> moved;
    for (const auto& [key, d] : derived_)
      if (d.departs()) moved.emplace_back(key, d);
    return moved;
  }
  // The checks that read `key`.
  std::vector<CheckResult> checks_of(const std::string& key) const {
    std::vector<CheckResult> of;
    for (const CheckResult& c : checks_)
      for (const std::string& k : c.keys)
        if (k == key) {
          of.push_back(c);
          break;
        }
    return of;
  }

 private:
  std::map<std::string, DerivedValue> derived_;
  std::vector<CheckResult> checks_;
};

}  // namespace fabric::config
