#include "model/invariants/invariant_broken.h"

#include <cstdio>
#include <mutex>

namespace fabric {

namespace {
std::string message(const std::string& invariant, const std::string& entity, Picos t, const std::string& numbers) {
  char at[48];
  std::snprintf(at, sizeof at, "%.6f us", t / 1e6);
  return "invariant '" + invariant + "' broken at " + entity + ", t = " + at + ": " + numbers;
}
}  // namespace

InvariantBroken::InvariantBroken(std::string invariant, std::string entity, Picos t, const std::string& numbers)
    : std::logic_error(message(invariant, entity, t, numbers)),
      invariant_(std::move(invariant)),
      entity_(std::move(entity)),
      t_(t) {}

namespace {
std::mutex first_mutex;
std::optional<InvariantBroken> first;
}  // namespace

void break_invariant(const char* invariant, const std::string& entity, Picos t, const std::string& numbers) {
  InvariantBroken broken(invariant, entity, t, numbers);
  {
    const std::lock_guard<std::mutex> lock(first_mutex);
    if (!first) first = broken;
  }
  throw broken;
}

std::optional<InvariantBroken> first_broken_invariant() {
  const std::lock_guard<std::mutex> lock(first_mutex);
  return first;
}

void forget_broken_invariant() {
  const std::lock_guard<std::mutex> lock(first_mutex);
  first.reset();
}

}  // namespace fabric
