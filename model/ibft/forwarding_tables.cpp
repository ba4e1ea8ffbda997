#include "model/ibft/forwarding_tables.h"

namespace fabric {

ForwardingTables::ForwardingTables(const SubnetManager& sm, const IbftTopology& t) {
  const int lids = t.nodes() * sm.lids_per_node();
  lft_.assign(static_cast<size_t>(t.switches()), std::vector<uint8_t>(static_cast<size_t>(lids + 1), 0));
  for (int s = 0; s < t.switches(); ++s)
    for (int lid = 1; lid <= lids; ++lid)
      lft_[static_cast<size_t>(s)][static_cast<size_t>(lid)] = static_cast<uint8_t>(sm.out_port(s, lid));
}

int ForwardingTables::add_group(const SubnetManager::McTable& table) {
  mc_.push_back(table);
  return static_cast<int>(mc_.size()) - 1;
}

}  // namespace fabric
