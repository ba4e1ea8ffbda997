#include "platforms/ibft/ibft_params.h"

#include <stdexcept>

#include "model/core/sim_time.h"
#include "model/ibft/subnet_manager.h"
#include "traffic/one_shot_groups.h"

namespace fabric {

using config::ParamSpec;
using config::ParamType;

const char* to_string(IbftScheme scheme) {
  switch (scheme) {
    case IbftScheme::cyclic: return "cyclic";
    case IbftScheme::opensm: return "opensm";
    case IbftScheme::unicast: return "unicast";
  }
  return "?";
}

void declare_ibft_params(config::ParamRegistry& r) {
  r.declare({"ibft.m", ParamType::integer, "8", "ports", "IBFT(m, n): ports per switch, even", 2, 62});
  r.declare({"ibft.n", ParamType::integer, "3", "levels", "IBFT(m, n): switch levels (the tree is n + 1 high)", 1,
             16});
  {
    ParamSpec s{"ibft.scheme", ParamType::choice, "cyclic", "",
                "cyclic: one multicast tree per source from the fat tree's own paths; opensm: one spanning tree "
                "per group shared by its senders; unicast: one packet per destination in PID order"};
    s.choices = {"cyclic", "opensm", "unicast"};
    r.declare(s);
  }
  r.declare(config::text_param("ibft.sources", "100%", "nodes",
                               "the nodes that send one message at the start, drawn at random (seeded): a number "
                               "or a percentage of the nodes",
                               traffic::node_count_syntax()));
  r.declare(config::text_param("ibft.group", "40%", "nodes",
                               "each source's group, drawn at random (seeded) from the other nodes: a number of "
                               "receivers or a percentage of the nodes (100%: every other node)",
                               traffic::node_count_syntax()));
  r.declare({"ibft.message_bytes", ParamType::bytes, "4KB", "B", "each source's message", 32, 131072});
  r.declare({"ibft.mtu", ParamType::bytes, "0", "B",
             "segment messages into packets of at most this many bytes; 0: a message is one packet", 0, 131072});
  {
    ParamSpec s{"ibft.forwarding", ParamType::choice, "cut_through", "",
                "cut_through: a switch routes a packet from its first byte (virtual cut-through); "
                "store_and_forward: once its last byte is in"};
    s.choices = {"cut_through", "store_and_forward"};
    r.declare(s);
  }
  r.declare({"ibft.routing", ParamType::duration, "100ns", "ps",
             "a switch's time from input to output: look-up, replication, arbitration and start-up", 1, 1e9});
  r.declare({"ibft.link_gbps", ParamType::rate, "2", "Gb/s",
             "data rate of every link: 2 Gb/s is 2.5 Gb/s 1X after 8b/10b, 4 ns per byte", 0.001, 400});
  r.declare({"ibft.link_delay", ParamType::duration, "20ns", "ps", "flight time between any two devices", 0, 1e9});
  r.declare({"ibft.credit_bytes", ParamType::bytes, "0", "B",
             "wire bytes of a flow-control update sent alone (credits otherwise ride on packets); 0: it takes "
             "only the flight time (the document gives none)",
             0, 64});
}

IbftConfig read_ibft_params(const config::Config& c) {
  IbftConfig b;
  b.m = static_cast<int>(c.get_int("ibft.m"));
  if (b.m % 2 != 0) c.fail("ibft.m", "an even number of ports, 2 .. 62");
  b.n = static_cast<int>(c.get_int("ibft.n"));
  try {
    const IbftTopology tree(b.m, b.n);
    const SubnetManager fits(tree);  // its LIDs fit InfiniBand's limits
    b.nodes = tree.nodes();
  } catch (const std::invalid_argument& e) {
    c.fail("ibft.n", std::string("a tree InfiniBand can address with ibft.m = ") + std::to_string(b.m) + " (" +
                         e.what() + ")");
  }
  const std::string scheme = c.get_choice("ibft.scheme");
  b.scheme = scheme == "opensm" ? IbftScheme::opensm : scheme == "unicast" ? IbftScheme::unicast : IbftScheme::cyclic;
  b.sources = traffic::parse_node_count("ibft.sources", c.get_text("ibft.sources"), b.nodes, b.nodes);
  b.group = traffic::parse_node_count("ibft.group", c.get_text("ibft.group"), b.nodes, b.nodes - 1);
  b.message_bytes = static_cast<uint32_t>(c.get_bytes("ibft.message_bytes"));
  b.mtu = static_cast<uint32_t>(c.get_bytes("ibft.mtu"));
  if (b.mtu != 0 && b.mtu < 32) c.fail("ibft.mtu", "0 (no segmentation) or 32 .. 131072 B");
  const bool cut_through = c.get_choice("ibft.forwarding") == "cut_through";
  b.sw.ports = b.m;
  b.sw.routing = c.get_duration("ibft.routing");
  b.sw.shared_trees = b.scheme == IbftScheme::opensm;
  b.sw.credit_bytes = static_cast<uint32_t>(c.get_bytes("ibft.credit_bytes"));
  b.link.rate_gbps = c.get_rate_gbps("ibft.link_gbps");
  b.link.propagation = from_ps(c.get_duration("ibft.link_delay"));
  b.link.overhead_bytes = 0;  // no Ethernet preamble or gap
  b.link.concurrent_header = cut_through;  // delivered at the first byte: the switch routes from the header
  b.link.lead_bytes = 0;
  return b;
}

}  // namespace fabric
