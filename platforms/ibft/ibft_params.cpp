#include "platforms/ibft/ibft_params.h"

#include <stdexcept>

#include "model/core/sim_time.h"
#include "model/ibft/subnet_manager.h"
#include "model/link/link_sizing.h"
#include "platforms/common/quantity_text.h"
#include "traffic/one_shot_groups.h"

namespace fabric {

const char* to_string(IbftScheme scheme) {
  switch (scheme) {
    case IbftScheme::cyclic:
      return "cyclic";
    case IbftScheme::opensm:
      return "opensm";
    case IbftScheme::unicast:
      return "unicast";
  }
  return "?";
}

IbftConfig read_ibft_params(const IbftKeys& k) {
  IbftConfig b;
  b.m = static_cast<int>(k.m.value());
  if (b.m % 2 != 0) k.m.fail("an even number of ports, 2 .. 62");
  b.n = static_cast<int>(k.n.value());
  try {
    const IbftTopology tree(b.m, b.n);
    const SubnetManager fits(tree);  // its LIDs fit InfiniBand's limits
    b.nodes = tree.nodes();
  } catch (const std::invalid_argument& e) {
    k.n.fail(std::string("a tree InfiniBand can address with ibft.m = ") + std::to_string(b.m) + " (" + e.what() + ")");
  }
  const std::string scheme = k.scheme.value();
  b.scheme = scheme == "opensm" ? IbftScheme::opensm : scheme == "unicast" ? IbftScheme::unicast : IbftScheme::cyclic;
  if (b.scheme == IbftScheme::opensm)  // read only there: set for another scheme, the key is refused as unused
    b.opensm_root = k.opensm_root.value() == "spread" ? OpenSmRoot::spread : OpenSmRoot::first;
  b.sources = traffic::parse_node_count(k.sources.key(), k.sources.value(), b.nodes, b.nodes);
  b.group = traffic::parse_node_count(k.group.key(), k.group.value(), b.nodes, b.nodes - 1);
  b.message_bytes = static_cast<uint32_t>(k.message_bytes.value());
  b.mtu = static_cast<uint32_t>(k.mtu.value());
  if (b.mtu != 0 && b.mtu < 32) k.mtu.fail("0 (no segmentation) or 32 .. 131072 B");
  const bool cut_through = k.forwarding.value() == "cut_through";
  b.sw.ports = b.m;
  b.sw.routing = k.routing.value();
  b.sw.shared_trees = b.scheme == IbftScheme::opensm;
  b.sw.credit_bytes = static_cast<uint32_t>(k.credit_bytes.value());
  b.link.rate_gbps = k.link_gbps.value();
  b.link.propagation = from_ps(k.link_delay.value());
  b.link.overhead_bytes = 0;               // no Ethernet preamble or gap
  b.link.concurrent_header = cut_through;  // delivered at the first byte: the switch routes from the header
  b.link.lead_bytes = 0;
  return b;
}

void check_ibft_credit_loop(const IbftKeys& k, const IbftConfig& b, const config::Config& c) {
  const uint32_t packet = b.mtu != 0 && b.mtu < b.message_bytes ? b.mtu : b.message_bytes;
  const double packet_ps = serialization_ps(packet, b.link.rate_gbps);
  const double loop_ps =
      2.0 * double(to_ps(b.link.propagation)) + serialization_ps(b.sw.credit_bytes, b.link.rate_gbps);
  c.note_check({"a packet's time on the wire >= the credit round trip of a link",
                {k.link_delay.key(), k.message_bytes.key(), k.mtu.key(), k.link_gbps.key(), k.credit_bytes.key()},
                packet_ps >= loop_ps,
                "a " + std::to_string(packet) + " B packet takes " + time_text(packet_ps) + " at " +
                    gbps_text(b.link.rate_gbps) + " < the credit round trip " + time_text(loop_ps) + " (2 x " +
                    k.link_delay.key() + " " + time_text(double(k.link_delay.value())) +
                    " and the credit update): with one packet of buffer per input a link carries at most " +
                    gbps_text(b.link.rate_gbps * packet_ps / loop_ps)});
}

}  // namespace fabric
