#pragma once
// Who a touched line belongs to, by the code that touched it: the function
// (its qualified name) whose load or store the compiler reported. The model's
// classes map onto the owners issue 56 asks about; a line is counted for the
// owner of the first function that touched it in a turn (or a window).
#include <array>
#include <cstdint>
#include <string_view>

namespace fabric::line_census {

enum class Owner : uint8_t {
  kScheduler,  // timing wheel, event queues, workers, wake-ups
  kRecorder,   // recorder, ledger, totals, census of links
  kPools,      // payload and buffer pools, messages
  kCreditRetry,
  kVoq,
  kPortLink,  // TxPort/RxPort, link state, PAUSE at a port
  kLeaf,      // the leaf's other units: egress, crossbar, multicast, congestion points
  kSpine,
  kCna,    // CNAs and the traffic they send
  kOther,  // standard library and anything else
  kStack,
};
constexpr size_t kOwners = 11;
constexpr std::array<std::string_view, kOwners> kOwnerNames = {
    "scheduler and wheel", "recorder", "pools and messages", "credit and retry", "VOQs", "ports and links",
    "leaf (other units)",  "spine",    "CNA and traffic",    "other (std, ...)", "stack"};

// The owner of a function by its demangled qualified name.
Owner owner_of_function(std::string_view name);

// The owner of the code at `pc` (cached; dladdr and demangling on a miss).
Owner owner_of_code(const void* pc);

}  // namespace fabric::line_census
