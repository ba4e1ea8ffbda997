#pragma once
// A configured flow as the run's CopyLedger counts it (model/invariants/
// copy_ledger.h): its source, priority and whether it is multicast. A
// platform that replicates through a tree adds the deliveries through each
// port of it.
#include "model/invariants/copy_ledger.h"
#include "traffic/flow_spec.h"

namespace fabric {

inline LedgerFlow ledger_flow(const traffic::FlowSpec& f) {
  LedgerFlow l;
  l.id = f.id;
  l.src = f.src;
  l.priority = f.priority;
  l.multicast = f.multicast;
  for (PortId d : f.dests) l.members.push_back(raw(d));
  return l;
}

}  // namespace fabric
