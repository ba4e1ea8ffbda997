#include "model/leaf/header_admission.h"

#include <stdexcept>

#include "model/leaf/fixed_order_admission.h"
#include "model/leaf/random_order_admission.h"
#include "model/leaf/red_admission.h"

namespace fabric {

namespace {

std::shared_ptr<const HeaderAdmissionPolicy> make_policy(const HeaderAdmission::Params& p) {
  switch (p.policy) {
    case HeaderAdmission::Policy::fixed_order:
      return std::make_shared<FixedOrderAdmission>(p.hth);
    case HeaderAdmission::Policy::random_order:
      return std::make_shared<RandomOrderAdmission>(p.hth);
    case HeaderAdmission::Policy::red:
      break;
  }
  return std::make_shared<RedAdmission>(p.red_low, p.red_high, p.red_p);
}

}  // namespace

HeaderAdmission::HeaderAdmission(const Params& params) : params_(params), policy_(make_policy(params)) {}

HeaderAdmission::Policy HeaderAdmission::parse(const std::string& name) {
  if (name == "fixed_order") return Policy::fixed_order;
  if (name == "random_order") return Policy::random_order;
  if (name == "red") return Policy::red;
  throw std::invalid_argument("header admission policy '" + name + "'");
}

}  // namespace fabric
