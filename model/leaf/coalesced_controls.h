#pragma once
// leaf.control.coalesce: which of a VOQ's control messages are coalesced, as
// a comma list of request, grant, ack (empty: none).
#include <cstdint>
#include <string>

#include "config/config.h"

namespace fabric {

// A bit per ControlKind listed (1 << kind). Throws ConfigError naming `key`
// on an empty item, a word that is no such kind, or a kind listed twice.
uint32_t parse_coalesced_controls(const std::string& key, const std::string& text);
config::TextSyntax coalesced_controls_syntax();

}  // namespace fabric
