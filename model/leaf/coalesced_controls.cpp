#include "model/leaf/coalesced_controls.h"

#include "config/text_scanner.h"
#include "model/protocol/fabric_protocol.h"

namespace fabric {
namespace {

const char* const kAllowed = "a comma list of request, grant, ack, each at most once; empty: none";

struct NamedKind {
  const char* name;
  ControlKind kind;
};
constexpr NamedKind kCoalescible[] = {
    {"request", ControlKind::request}, {"grant", ControlKind::grant}, {"ack", ControlKind::ack}};

uint32_t bit_of(const std::string& word) {
  for (const NamedKind& named : kCoalescible) {
    if (word == named.name) return 1u << static_cast<int>(named.kind);
  }
  throw config::SyntaxError("'" + config::shorten_for_message(word, 40) + "' is not request, grant or ack");
}

}  // namespace

uint32_t parse_coalesced_controls(const std::string& key, const std::string& text) {
  return config::parse_or_fail(key, text, kAllowed, [&] {
    uint32_t kinds = 0;
    for (const std::string& word : config::scan_items(text, ',')) {
      const uint32_t bit = bit_of(word);
      if (kinds & bit) throw config::SyntaxError("'" + word + "' is listed twice");
      kinds |= bit;
    }
    return kinds;
  });
}

config::TextSyntax coalesced_controls_syntax() { return config::syntax_of<parse_coalesced_controls>(kAllowed); }

}  // namespace fabric
