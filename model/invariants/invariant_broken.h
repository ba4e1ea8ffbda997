#pragma once
// A physical or protocol invariant the model must never break (a link above
// its rate, a copy faster than its flight, a lossless drop, ...), found
// broken while the run goes. It stops the run: fabricsim marks the run
// failed, keeps what was recorded, and exits with status 3.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "model/core/ids.h"

namespace fabric {

class InvariantBroken : public std::logic_error {
 public:
  // `numbers`: the values that break it, in words ("1522 B delivered 8.1 us
  // after creation, the data path's bound is 12.1 us").
  InvariantBroken(std::string invariant, std::string entity, Picos t, const std::string& numbers);
  const std::string& invariant() const { return invariant_; }
  const std::string& entity() const { return entity_; }
  Picos time() const { return t_; }

 private:
  std::string invariant_;
  std::string entity_;
  Picos t_;
};

// Records the first invariant broken in this process and throws it. The
// record lets the run report it whichever way the exception leaves the
// kernel (SystemC wraps what a process throws in a report of its own).
[[noreturn]] void break_invariant(const char* invariant, const std::string& entity, Picos t,
                                  const std::string& numbers);
std::optional<InvariantBroken> first_broken_invariant();
void forget_broken_invariant();  // for tests that break one on purpose, then run again

// The invariants' names, as the message and the documentation give them.
namespace invariant {
constexpr const char* kLineRate = "line rate";
constexpr const char* kDataPath = "zero-load data path";
constexpr const char* kOwnGrant = "sent on credit granted for it";
constexpr const char* kSurplusCredit = "no copy on surplus credit";
constexpr const char* kLosslessDrop = "lossless class drops nothing";
constexpr const char* kPauseObeyed = "paused priority sends nothing";
constexpr const char* kConservation = "every copy accounted for";
constexpr const char* kInOrder = "delivered once and in order";
constexpr const char* kCredits = "credits within the buffer they count";
constexpr const char* kReserved = "a ring packet finds its buffer reserved at every member";
constexpr const char* kJobDependencies = "a job's message starts after its dependencies";
constexpr const char* kWakeComing = "a multicast copy waiting in the cache has a wake coming";
}  // namespace invariant

}  // namespace fabric
