#pragma once
// Typed ids: a port id cannot be passed where a flow id is expected.
#include <cstdint>
#include <functional>
#include <limits>

#include "config/picos.h"

namespace fabric {

enum class PortId : uint32_t {};  // global fabric port: leaf*user_ports + i, surrogates after users
enum class LeafId : uint32_t {};
enum class SpineId : uint32_t {};
enum class FlowId : uint32_t {};
enum class FrameId : uint64_t {};  // (source port << 32) | per-source sequence
enum class Vl : uint8_t {};        // virtual lane: priority * 4 + level
enum class Mid : uint32_t {};      // multicast id: a group's index into the MCBC tables

template <typename Id>
constexpr auto raw(Id id) {
  return static_cast<std::underlying_type_t<Id>>(id);
}

constexpr int kPriorities = 8;
constexpr int kVlsPerPriority = 4;
constexpr int kVls = kPriorities * kVlsPerPriority;

constexpr Vl unicast_vl(int priority) { return Vl(priority * kVlsPerPriority); }
constexpr int priority_of(Vl vl) { return raw(vl) / kVlsPerPriority; }

// Time in the database and in configuration: integer picoseconds
// (config/picos.h: Picos).
constexpr Picos kNever = std::numeric_limits<Picos>::max();  // a time that never comes
// The latest time configuration may name (10^4 s): sim.time at most, and any
// start or stop, so that a time plus a gap or phase never overflows.
constexpr Picos kLatestConfiguredTime = 10'000'000'000'000'000;

}  // namespace fabric
