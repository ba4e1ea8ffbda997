#include "config/sweep_check_states.h"

#include <algorithm>
#include <functional>
#include <set>

namespace fabric::config {
namespace {

std::string identity_of(const CheckResult& c) {
  std::string s = c.name;
  for (const std::string& k : c.keys) s += "\x1f" + k;
  return s;
}

size_t state_of(const CheckResult& c) { return std::hash<std::string>()((c.holds ? "1" : "0") + c.detail); }

// The check ids whose state differs between two points' sorted states.
std::vector<int> changed(const std::vector<std::pair<int, size_t>>& a, const std::vector<std::pair<int, size_t>>& b) {
  std::vector<int> out;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      out.push_back(a[i++].first);
    } else if (i == a.size() || b[j].first < a[i].first) {
      out.push_back(b[j++].first);
    } else {
      if (a[i].second != b[j].second) out.push_back(a[i].first);
      ++i;
      ++j;
    }
  }
  return out;
}

}  // namespace

int SweepCheckStates::id_of(const std::string& identity) {
  const auto [it, fresh] = ids_.emplace(identity, static_cast<int>(names_.size()));
  if (fresh) {
    names_.push_back(identity.substr(0, identity.find('\x1f')));
    ever_fails_.push_back(false);
    depends_on_.emplace_back();
  }
  return it->second;
}

void SweepCheckStates::record(uint64_t point, const std::vector<CheckResult>& checks) {
  std::vector<std::pair<int, size_t>> states;
  std::vector<std::pair<int, CheckResult>> failing;
  std::map<std::string, int> made;  // a check made twice at one point: its second is another check
  for (const CheckResult& c : checks) {
    const std::string identity = identity_of(c);
    const int id = id_of(identity + "#" + std::to_string(made[identity]++));
    states.emplace_back(id, state_of(c));
    if (!c.holds) {
      failing.emplace_back(id, c);
      ever_fails_[id] = true;
    }
  }
  std::sort(states.begin(), states.end());
  states_[point] = std::move(states);
  if (!failing.empty()) failing_[point] = std::move(failing);
}

std::vector<uint64_t> SweepCheckStates::settle_dependencies() {
  std::vector<std::set<size_t>> depends(names_.size());
  for (const auto& [point, states] : states_) {
    const SweepCoordinates at = grid_.at(point);
    for (size_t d = 0; d < at.size(); ++d) {
      if (at[d] == 0) continue;
      SweepCoordinates neighbour = at;
      neighbour[d] = 0;
      const auto other = states_.find(grid_.index(neighbour));
      if (other == states_.end()) continue;
      for (const int id : changed(states, other->second)) depends[id].insert(d);
    }
  }
  std::set<uint64_t> missing;
  for (size_t id = 0; id < names_.size(); ++id) {
    depends_on_[id].assign(depends[id].begin(), depends[id].end());
    for (const uint64_t p : grid_.combinations(depends_on_[id]))
      if (!states_.count(p)) missing.insert(p);
  }
  return {missing.begin(), missing.end()};
}

std::vector<CheckResult> SweepCheckStates::warnings(uint64_t point) const {
  std::vector<CheckResult> out;
  if (states_.count(point)) {
    if (const auto f = failing_.find(point); f != failing_.end())
      for (const auto& [id, check] : f->second) out.push_back(check);
    return out;
  }
  const SweepCoordinates at = grid_.at(point);
  for (size_t id = 0; id < names_.size(); ++id) {
    if (!ever_fails_[id]) continue;
    const auto f = failing_.find(grid_.index(grid_.projection(at, depends_on_[id])));
    if (f == failing_.end()) continue;
    for (const auto& [fid, check] : f->second)
      if (fid == static_cast<int>(id)) out.push_back(check);
  }
  return out;
}

std::vector<size_t> SweepCheckStates::dependencies(const std::string& check_name) const {
  for (size_t id = 0; id < names_.size(); ++id)
    if (names_[id] == check_name) return depends_on_[id];
  return {};
}

}  // namespace fabric::config
