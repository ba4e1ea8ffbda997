#include "model/link/scripted_errors.h"

#include <algorithm>

#include "config/text_scanner.h"

namespace fabric {
namespace {

const std::string kAllowed = "LINK:SEQ,... with SEQ 0 .. " + std::to_string(config::kUint64Max) + "; empty: none";

bool is_link_name(const std::string& name) {
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

}  // namespace

ScriptedErrors parse_scripted_errors(const std::string& key, const std::string& text) {
  return config::parse_or_fail(key, text, kAllowed, [&] {
    ScriptedErrors scripted;
    for (const std::string& item : config::scan_items(text, ',')) {
      const config::TextPair link_and_seq = config::scan_pair(item, ':');
      if (!is_link_name(link_and_seq.left)) {
        throw config::SyntaxError("'" + config::shorten_for_message(link_and_seq.left, 40) +
                                  "' is no link name (letters, digits, '_')");
      }
      scripted[link_and_seq.left].insert(config::scan_unsigned(link_and_seq.right));
    }
    return scripted;
  });
}

config::TextSyntax scripted_errors_syntax() { return config::syntax_of<parse_scripted_errors>(kAllowed); }

}  // namespace fabric
