#pragma once
// The parameters the keys give at the spec's values on the shipped fabric,
// for unit tests of the units that read them: the runtime structs hold no
// defaults of their own, so a test starts from these and changes what it
// tests.
#include "model/leaf/leaf_params.h"
#include "model/link/retry_sender.h"

namespace fabric::testing {

// The leaf's parameters, derived keys derived at the shipped topology and
// the PAUSE header thresholds for multicast on a lossless priority.
LeafParams spec_leaf_params();
// Link retry on a leaf-spine link of the shipped fabric.
LinkRetryParams spec_link_retry_params();

}  // namespace fabric::testing
