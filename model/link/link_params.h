#pragma once
// link.* keys: how hop-by-hop credits travel back upstream.
#include "model/config/config.h"

namespace fabric {

struct CreditReturnParams {
  uint32_t batch = 4;      // owed credits that justify a credit message of their own
  Picos delay = 100'000;   // longest an owed credit waits for a message to ride on
};

void declare_link_params(config::ParamRegistry& registry);
CreditReturnParams read_credit_return_params(const config::Config& config);

}  // namespace fabric
