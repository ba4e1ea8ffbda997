#include "model/multicast/tree_text.h"

#include <limits>

#include "config/text_scanner.h"

namespace fabric {
namespace {

constexpr uint64_t kMaxPort = std::numeric_limits<uint32_t>::max();  // PortId's range
const std::string kAllowed =
    "PORT:TARGET,...;PORT:TARGET,... with ports 0 .. " + std::to_string(kMaxPort) + ", each PORT once";

PortId scan_port(const std::string& text) {
  return PortId(static_cast<uint32_t>(config::scan_unsigned(text, kMaxPort)));
}

}  // namespace

TreeFanout parse_tree_fanout(const std::string& key, const std::string& text) {
  return config::parse_or_fail(key, text, kAllowed, [&] {
    TreeFanout fanout;
    const std::vector<std::string> items = config::scan_items(text, ';');
    if (items.empty()) throw config::SyntaxError("no PORT:TARGET,... item");
    for (const std::string& item : items) {
      const config::TextPair port_and_targets = config::scan_pair(item, ':');
      const uint32_t port = raw(scan_port(port_and_targets.left));
      if (fanout.count(port)) throw config::SyntaxError("port " + std::to_string(port) + " is listed twice");
      std::vector<PortId>& targets = fanout[port];
      for (const std::string& target : config::scan_items(port_and_targets.right, ',')) {
        targets.push_back(scan_port(target));
      }
    }
    return fanout;
  });
}

config::TextSyntax tree_fanout_syntax() { return config::syntax_of<parse_tree_fanout>(kAllowed); }

}  // namespace fabric
