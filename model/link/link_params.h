#pragma once
// link.* and errors.* keys, each declared once (config/param.h): how
// hop-by-hop credits travel back upstream, link-level retry on leaf-spine
// links, and soft errors per link class; and the parameters the links take
// from them.
#include <map>
#include <set>
#include <string>

#include "config/param.h"
#include "model/link/error_injector.h"
#include "model/link/retry_sender.h"
#include "model/link/scripted_errors.h"

namespace fabric {

struct CreditReturnKeys {
  config::Param<config::Integer> batch{"link.credit_batch",
                                       "4",
                                       "credits",
                                       "hop-by-hop credits ride on the next message of the reverse link; a credit "
                                       "message of its own goes once this many are owed",
                                       1,
                                       1024};
  config::Param<config::Duration> delay{
      "link.credit_delay", "100ns", "ps", "... or once the oldest owed credit has waited this long", 0, 1e9};
};

struct LinkRetryKeys {
  config::Param<config::Boolean> enabled{
      "link.retry", "true", "",
      "link-level retry on leaf-spine links: link sequence numbers, CRC check, go-back-N replay (mechanism 10)"};
  config::Param<config::Bytes> buffer{
      "link.retry.buffer",
      config::Derived{"6KB",
                      "max(the spec's 6 KB, 1.5 x (the bytes a leaf-spine link sends in its link ACK round trip + one "
                      "largest message)) (docs/model.md, Derived keys)"},
      "B",
      "retry buffer per leaf-spine link, sized for the link round trip (the spec's 6 KB holds 1.9 round trips of a 40 "
      "m link at 25 Gb/s); at least one packet",
      1,
      1e8};
  config::Param<config::Integer> ack_every{
      "link.retry.ack_every", "8", "messages", "link ACKs are coalesced: one per this many messages accepted", 1, 1024};
  config::Param<config::Boolean> ack_piggyback{
      "link.retry.ack_piggyback", "false", "",
      "what-if: an owed link ACK rides in the header of the next message on the reverse link (its low 16 bits, as the "
      "credits ride) and goes as a message of its own only if nothing else leaves by its deadline; the spec's link "
      "ACKs are messages of their own (false)"};
  config::Param<config::Duration> ack_delay{"link.retry.ack_delay",
                                            "500ns",
                                            "ps",
                                            "... or once the oldest unacknowledged message has waited this long",
                                            0,
                                            1e9};
  config::Param<config::Duration> timeout{
      "link.retry.timeout",
      config::Derived{"2us",
                      "max(the spec's 2 us, 1.5 x the link ACK round trip: 2 x the cable's flight + a largest message "
                      "each way + link.retry.ack_delay + a link ACK) (docs/model.md, Derived keys)"},
      "ps",
      "no link ACK or NAK for this long with messages outstanding: replay all (a lost NAK or ACK); below the link's "
      "ACK round trip every message is replayed",
      1e5,
      1e12};
};

// errors.CLASS.* of one link class.
struct LinkErrorClassKeys {
  explicit LinkErrorClassKeys(const std::string& cls);
  config::Param<config::Real> ber;
  config::Param<config::Real> packet_probability;
};

struct LinkErrorKeys {
  LinkErrorClassKeys cna_leaf{"cna_leaf"}, leaf_spine{"leaf_spine"}, spine_leaf{"spine_leaf"};
  config::Param<config::Text> scripted{"errors.scripted", "", "",
                                       "messages to corrupt: LINK:SEQ,... (LINK as leaf0_spine3_up; SEQ the link "
                                       "sequence number, or the message's index on a link without retry)",
                                       scripted_errors_syntax()};
};

struct LinkKeys {
  CreditReturnKeys credit;
  LinkRetryKeys retry;
  LinkErrorKeys errors;
};

struct CreditReturnParams {
  uint32_t batch = 0;  // owed credits that justify a credit message of their own
  Picos delay = 0;     // longest an owed credit waits for a message to ride on
};

enum class LinkClass { cna_leaf, leaf_spine, spine_leaf };

struct LinkErrorParams {
  ErrorInjector::Params cna_leaf, leaf_spine, spine_leaf;  // without the scripted numbers
  ScriptedErrors scripted;                                 // by link name
  // Links given errors of their own (link[NAME].errors.*), by link name:
  // they take these in place of their class's.
  std::map<std::string, ErrorInjector::Params> by_link;
  // The injector's parameters for one link, or nullopt when it sees no errors.
  std::optional<ErrorInjector::Params> for_link(LinkClass cls, const std::string& link) const;
  // Whether any link of the class may corrupt a message.
  bool any_errors(LinkClass cls) const;
};

// The class of a link by its name: leafL_spineS_up is leaf_spine, _down
// spine_leaf, a CNA's link (leafL_portK_from_cna, _to_cna) cna_leaf.
LinkClass link_class_of(const std::string& link);

CreditReturnParams read_credit_return_params(const CreditReturnKeys& keys);
// `max_message_bytes`: the largest message on a leaf-spine link; the retry
// buffer must hold at least one. `control_bytes`: a link ACK or NAK on the
// wire, the fabric's control message. Its auto keys must be derived first.
LinkRetryParams read_link_retry_params(const LinkRetryKeys& keys, uint32_t max_message_bytes, uint32_t control_bytes);
// `link_exists` says whether a scripted link name names a link of the fabric.
template <class LinkExists>
LinkErrorParams read_link_error_params(const LinkErrorKeys& keys, LinkExists&& link_exists);
// The same without the check that each scripted link exists.
LinkErrorParams read_link_error_params_unchecked(const LinkErrorKeys& keys);

template <class LinkExists>
LinkErrorParams read_link_error_params(const LinkErrorKeys& keys, LinkExists&& link_exists) {
  LinkErrorParams p = read_link_error_params_unchecked(keys);
  for (const auto& [link, seqs] : p.scripted)
    if (!link_exists(link))
      keys.scripted.fail(
          "links of this fabric: leafL_spineS_up, leafL_spineS_down, leafL_portK_from_cna, "
          "leafL_portK_to_cna ('" +
          link + "' is not one)");
  return p;
}

}  // namespace fabric
