#pragma once
// Hierarchical multicast replication trees (mechanism 8), as plain C++: the
// local fanout set of the source port and of each surrogate port a
// multicast group passes through. The MCBC tables of the leaves are filled
// from it. Limits: local fanout at most 8 per port, at most 4 surrogate
// levels below the source, and no leaf is entered twice (each egress leaf
// receives a frame once; its surrogate serves the leaf's own ports).
//
// Builders: build_generic_tree (any destination set), build_affinity_tree,
// and explicit_tree (for trees given in configuration). Neither ever returns an illegal tree: a
// builder that cannot meet the limits throws TreeError saying why.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/core/geometry.h"
#include "model/core/ids.h"

namespace fabric {

using TreeFanout = std::map<uint32_t, std::vector<PortId>>;  // local fanout set by replicating port

struct ReplicationTree {
  PortId source{};
  // Local fanout set of each replicating port: the source and the surrogates.
  TreeFanout fanout;
  // Surrogate level of each surrogate port used (1 = fed by the source).
  std::map<uint32_t, int> level;
};

// Which of a group's leaves with equally many destinations the generic
// builder places first, that is nearest the source: in leaf id order (every
// group then makes its lowest leaves its first-level surrogates), or in an
// order drawn from the group itself (source and destinations), which spreads
// the first-level duty of many groups over their leaves.
enum class LeafOrder { leaf_id, spread };

struct TreeLimits {
  size_t max_fanout = 8;
  int max_levels = 4;
  size_t max_source_fanout = 8;  // the source port's copies (E9: 5 first-level surrogates)
  LeafOrder leaf_order = LeafOrder::leaf_id;
};

class TreeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Destinations reachable through n surrogate levels when the source makes
// `source_local` local copies and each surrogate `surrogate_local` (the
// spec's D(n) with 4 and 5 and fanout 8).
uint64_t tree_reach(int levels, size_t source_local = 4, size_t surrogate_local = 5, size_t max_fanout = 8);

// A tree to `destinations` (user ports, not the source): copies to ports of
// the source's leaf come from the source; every other leaf is entered once,
// directly when it holds a single destination and nothing hangs below it,
// else through its surrogate, breadth first so that the tree stays shallow.
ReplicationTree build_generic_tree(PortId source, const std::vector<PortId>& destinations, const Geometry& g,
                                   const TreeLimits& limits = {});

// The affinity tree (broadcast within and across racks): the source serves
// its own leaf and feeds one rack surrogate per rack; a rack surrogate feeds
// a triplet surrogate per group of three of its rack's CIEs; a triplet
// surrogate a CIE surrogate per CIE of its triplet; a CIE surrogate the
// egress-switch surrogates of its CIE's other leaves. Every surrogate serves
// its own leaf's destinations. For a group smaller than the whole fabric,
// branches without destinations are cut and single-port leaves get direct
// copies, as in the generic tree. Needs the 4 levels.
ReplicationTree build_affinity_tree(PortId source, const std::vector<PortId>& destinations, const Geometry& g,
                                    const TreeLimits& limits = {});

// A tree given in configuration (see tree_text.h): the local fanout set of
// the source and of each surrogate port used. Throws TreeError (through
// check_tree) on an illegal tree.
ReplicationTree explicit_tree(PortId source, TreeFanout fanout, const std::vector<PortId>& destinations,
                              const Geometry& g, const TreeLimits& limits = {});

// Checks a tree against the limits and the destinations: every destination
// reached exactly once, no loop, no leaf entered twice, fanout and depth
// within limits, and only surrogate ports replicate. Throws TreeError.
// Returns the surrogate level of every surrogate port on the tree.
std::map<uint32_t, int> check_tree(const ReplicationTree& tree, const std::vector<PortId>& destinations,
                                   const Geometry& g, const TreeLimits& limits = {});

}  // namespace fabric
