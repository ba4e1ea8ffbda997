#pragma once
// ibft.* keys, each declared once (config/param.h): the InfiniBand fat tree
// of platforms.md, E13, its switches and links, the multicast scheme and the
// one-shot workload; the platform's parameters read from them, and its
// check of the credit loop.
#include <cstdint>
#include <string>

#include "config/param.h"
#include "model/ibft/ib_switch.h"
#include "model/ibft/subnet_manager.h"
#include "model/link/link.h"
#include "traffic/one_shot_groups.h"

namespace fabric {

enum class IbftScheme { cyclic, opensm, unicast };
const char* to_string(IbftScheme scheme);

struct IbftKeys {
  config::Param<config::Integer> m{"ibft.m", "8", "ports", "IBFT(m, n): ports per switch, even", 2, 62};
  config::Param<config::Integer> n{"ibft.n", "3", "levels", "IBFT(m, n): switch levels (the tree is n + 1 high)",
                                   1,        16};
  config::Param<config::Choice> scheme{
      "ibft.scheme",
      "cyclic",
      "cyclic: one multicast tree per source from the fat tree's own paths; opensm: one spanning tree per group shared "
      "by its senders; unicast: one packet per destination in PID order",
      {"cyclic", "opensm", "unicast"}};
  config::Param<config::Choice> opensm_root{
      "ibft.opensm_root",
      "first",
      "OpenSM's root among the switches tied at the smallest maximum hop count to a group (ibft.scheme = opensm only): "
      "first: the first in fixed order (top level first, then by label), so every group of a fat tree gets the same "
      "root: OpenSM's own rule (osm_mcast_mgr.c keeps the first switch of its table at the smallest maximum hop "
      "count); spread: the tied switch at the group's multicast LID modulo their number, so groups spread their roots "
      "over them",
      {"first", "spread"}};
  config::Param<config::Text> sources{
      "ibft.sources", "100%", "nodes",
      "the nodes that send one message at the start, drawn at random (seeded): a number or a percentage of the nodes",
      traffic::node_count_syntax()};
  config::Param<config::Text> group{"ibft.group", "40%", "nodes",
                                    "each source's group, drawn at random (seeded) from the other nodes: a number of "
                                    "receivers or a percentage of the nodes (100%: every other node)",
                                    traffic::node_count_syntax()};
  config::Param<config::Bytes> message_bytes{"ibft.message_bytes", "4KB", "B", "each source's message", 32, 131072};
  config::Param<config::Bytes> mtu{
      "ibft.mtu", "0",   "B", "segment messages into packets of at most this many bytes; 0: a message is one packet",
      0,          131072};
  config::Param<config::Choice> forwarding{"ibft.forwarding",
                                           "cut_through",
                                           "cut_through: a switch routes a packet from its first byte (virtual "
                                           "cut-through); store_and_forward: once its last byte is in",
                                           {"cut_through", "store_and_forward"}};
  config::Param<config::Duration> routing{
      "ibft.routing",
      "100ns",
      "ps",
      "a switch's time from input to output: look-up, replication, arbitration and start-up",
      1,
      1e9};
  config::Param<config::Rate> link_gbps{"ibft.link_gbps",
                                        "2",
                                        "Gb/s",
                                        "data rate of every link: 2 Gb/s is 2.5 Gb/s 1X after 8b/10b, 4 ns per byte",
                                        0.001,
                                        400};
  config::Param<config::Duration> link_delay{
      "ibft.link_delay", "20ns", "ps", "flight time between any two devices", 0, 1e9};
  config::Param<config::Bytes> credit_bytes{
      "ibft.credit_bytes",
      "0",
      "B",
      "wire bytes of a flow-control update sent alone (credits otherwise ride on packets); 0: it takes "
      "only the flight time (the document gives none)",
      0,
      64};
};

struct IbftConfig {
  int m = 0;
  int n = 0;
  int nodes = 0;  // 2 (m/2)^n
  IbftScheme scheme = IbftScheme::cyclic;
  OpenSmRoot opensm_root = OpenSmRoot::first;  // opensm only
  int sources = 0;                             // nodes that send
  int group = 0;                               // receivers of each source's message
  uint32_t message_bytes = 0;
  uint32_t mtu = 0;  // 0: a message is one packet
  IbSwitchParams sw;
  LinkParams link;
  Picos start = 0;
};

// Throws ConfigError naming the key at fault: odd m, n < 1, a tree beyond
// InfiniBand's LIDs, a group larger than the other nodes, a message size out
// of range.
IbftConfig read_ibft_params(const IbftKeys& keys);
// A switch holds one packet per input: the link idles unless a packet's
// time on the wire covers the credit's round trip on it (a warning
// otherwise, noted in `config`).
void check_ibft_credit_loop(const IbftKeys& keys, const IbftConfig& b, const config::Config& config);

}  // namespace fabric
