#pragma once
// errors.scripted: the messages to corrupt, by link, given as
// "LINK:SEQ,LINK:SEQ,..." (LINK as leaf0_spine3_up; SEQ the link sequence
// number, or the message's index on a link without retry). Whether each
// LINK exists is for the fabric to say (read_link_error_params).
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "config/config.h"

namespace fabric {

using ScriptedErrors = std::map<std::string, std::set<uint64_t>>;  // sequence numbers by link name

// Empty text: none. Throws ConfigError naming `key` on anything else that is
// not LINK:SEQ items: an empty item, a LINK that is no name, a SEQ that is no
// integer or does not fit in 64 bits.
ScriptedErrors parse_scripted_errors(const std::string& key, const std::string& text);
config::TextSyntax scripted_errors_syntax();

}  // namespace fabric
