#include "model/link/link_params.h"

namespace fabric {

using config::ParamType;

void declare_link_params(config::ParamRegistry& r) {
  r.declare({"link.credit_batch", ParamType::integer, "4", "credits", "hop-by-hop credits ride on the next message of the reverse link; a credit message of its own goes once this many are owed", 1, 1024});
  r.declare({"link.credit_delay", ParamType::duration, "100ns", "ps", "... or once the oldest owed credit has waited this long", 0, 1e9});
}

CreditReturnParams read_credit_return_params(const config::Config& c) {
  CreditReturnParams p;
  p.batch = static_cast<uint32_t>(c.get_int("link.credit_batch"));
  p.delay = c.get_duration("link.credit_delay");
  return p;
}

}  // namespace fabric
