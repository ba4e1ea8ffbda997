#pragma once
// What every unit of a leaf knows of the leaf: its id, how its port indices
// map to fabric port ids, its clock, and the ends of its links.
//
// Port index k < users is user port k (facing its CNA); index users is the
// surrogate port (no link: its egress loops frames back to its ingress).
// Link index k < users faces the CNA of user port k; users + s faces spine s.
#include <memory>
#include <string>
#include <vector>

#include "model/core/geometry.h"
#include "model/link/rx_port.h"
#include "model/link/tx_port.h"
#include "model/multicast/cycle.h"
#include "model/recording/entity.h"

namespace fabric {

struct LeafLayout {
  std::string name;  // the leaf module's name, for reports of broken invariants
  LeafId id;
  const Geometry& geometry;
  int users;      // user ports
  int surrogate;  // the surrogate port's index: after the user ports
  int ports;      // user ports and the surrogate
  int spines;
  Picos cycle_ps;  // one cycle of the leaf clock

  PortId port(int k) const { return k == surrogate ? geometry.surrogate_port(id) : geometry.user_port(id, k); }
  bool is_local(LeafId leaf) const { return leaf == id; }
  Cycle cycle_of(Picos t) const { return static_cast<Cycle>(t / cycle_ps); }
  // Port k in recorded samples and events.
  EntityId port_entity(int k) const { return fabric::port_entity(port(k)); }
};

// The leaf's ends of its links, built by the Leaf shell (which is the sink
// and source of every one of them) and used by the units that send on them.
struct LeafLinks {
  int users = 0;
  std::vector<std::unique_ptr<RxPort>> rx;
  std::vector<std::unique_ptr<TxPort>> tx;

  TxPort& user_tx(int k) { return *tx[k]; }
  TxPort& uplink_tx(int s) { return *tx[users + s]; }
  const TxPort& user_tx(int k) const { return *tx[k]; }
};

}  // namespace fabric
