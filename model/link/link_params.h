#pragma once
// link.* and errors.* keys: how hop-by-hop credits travel back upstream,
// link-level retry on leaf-spine links, and soft errors per link class.
#include <map>
#include <set>
#include <string>

#include "model/config/config.h"
#include "model/link/error_injector.h"
#include "model/link/retry_sender.h"
#include "model/link/scripted_errors.h"

namespace fabric {

struct CreditReturnParams {
  uint32_t batch = 4;      // owed credits that justify a credit message of their own
  Picos delay = 100'000;   // longest an owed credit waits for a message to ride on
};

enum class LinkClass { cna_leaf, leaf_spine, spine_leaf };

struct LinkErrorParams {
  ErrorInjector::Params cna_leaf, leaf_spine, spine_leaf;  // without the scripted numbers
  ScriptedErrors scripted;                                 // by link name
  // The injector's parameters for one link, or nullopt when it sees no errors.
  std::optional<ErrorInjector::Params> for_link(LinkClass cls, const std::string& link) const;
};

void declare_link_params(config::ParamRegistry& registry);
CreditReturnParams read_credit_return_params(const config::Config& config);
// `max_message_bytes`: the largest message on a leaf-spine link; the retry
// buffer must hold at least one.
LinkRetryParams read_link_retry_params(const config::Config& config, uint32_t max_message_bytes);
// `link_exists` says whether a scripted link name names a link of the fabric.
template <class LinkExists>
LinkErrorParams read_link_error_params(const config::Config& config, LinkExists&& link_exists);
// The same without the check that each scripted link exists.
LinkErrorParams read_link_error_params_unchecked(const config::Config& config);

template <class LinkExists>
LinkErrorParams read_link_error_params(const config::Config& config, LinkExists&& link_exists) {
  LinkErrorParams p = read_link_error_params_unchecked(config);
  for (const auto& [link, seqs] : p.scripted)
    if (!link_exists(link))
      config.fail("errors.scripted", "links of this fabric: leafL_spineS_up, leafL_spineS_down, leafL_portK_from_cna, "
                                     "leafL_portK_to_cna ('" + link + "' is not one)");
  return p;
}

}  // namespace fabric
