#include "model/link/link_params.h"

namespace fabric {

using config::Param;

LinkErrorClassKeys::LinkErrorClassKeys(const std::string& cls)
    : ber{"errors." + cls + ".ber",
          "0",
          "",
          "bit error rate on " + cls + " links (each message is hit with 1-(1-BER)^bits)",
          0,
          1e-3},
      packet_probability{"errors." + cls + ".packet_probability",
                         "0",
                         "",
                         "packet error probability on " + cls + " links, when the bit error rate is 0",
                         0,
                         1} {}

namespace {
ErrorInjector::Params read_class(const LinkErrorClassKeys& keys) {
  ErrorInjector::Params p;
  p.bit_error_rate = keys.ber;
  p.packet_error_probability = keys.packet_probability;
  return p;
}
}  // namespace

CreditReturnParams read_credit_return_params(const CreditReturnKeys& keys) {
  CreditReturnParams p;
  p.batch = static_cast<uint32_t>(keys.batch.value());
  p.delay = keys.delay;
  return p;
}

LinkRetryParams read_link_retry_params(const LinkRetryKeys& keys, uint32_t max_message_bytes, uint32_t control_bytes) {
  LinkRetryParams p;
  p.enabled = keys.enabled;
  const int64_t buffer = keys.buffer;
  if (buffer < max_message_bytes)
    keys.buffer.fail("at least one packet: " + std::to_string(max_message_bytes) + " B .. 100 MB");
  p.buffer_bytes = static_cast<uint32_t>(buffer);
  p.ack_every = static_cast<uint32_t>(keys.ack_every.value());
  p.ack_delay = keys.ack_delay;
  p.ack_piggyback = keys.ack_piggyback;
  // A piggybacked ACK's 16 bits name a message only while fewer than
  // kPiggybackedAckSpan are outstanding: at most the buffer over the smallest message.
  if (p.ack_piggyback && buffer >= static_cast<int64_t>(kPiggybackedAckSpan) * control_bytes)
    keys.buffer.fail("with link.retry.ack_piggyback = true, fewer than " + std::to_string(kPiggybackedAckSpan) +
                     " of the smallest messages (" + std::to_string(control_bytes) +
                     " B): " + std::to_string(max_message_bytes) + " B .. " +
                     std::to_string(static_cast<int64_t>(kPiggybackedAckSpan) * control_bytes - 1) +
                     " B (a piggybacked link ACK carries 16 bits of the link sequence number)");
  p.timeout = keys.timeout;
  p.control_bytes = control_bytes;
  return p;
}

LinkErrorParams read_link_error_params_unchecked(const LinkErrorKeys& keys) {
  LinkErrorParams p;
  p.cna_leaf = read_class(keys.cna_leaf);
  p.leaf_spine = read_class(keys.leaf_spine);
  p.spine_leaf = read_class(keys.spine_leaf);
  p.scripted = parse_scripted_errors(keys.scripted.key(), keys.scripted);
  return p;
}

std::optional<ErrorInjector::Params> LinkErrorParams::for_link(LinkClass cls, const std::string& link) const {
  ErrorInjector::Params p = cls == LinkClass::cna_leaf     ? cna_leaf
                            : cls == LinkClass::leaf_spine ? leaf_spine
                                                           : spine_leaf;
  if (const auto own = by_link.find(link); own != by_link.end()) p = own->second;
  if (const auto s = scripted.find(link); s != scripted.end()) p.scripted = s->second;
  if (p.bit_error_rate == 0 && p.packet_error_probability == 0 && p.scripted.empty()) return std::nullopt;
  return p;
}

LinkClass link_class_of(const std::string& link) {
  const auto ends_with = [&](const std::string& tail) {
    return link.size() >= tail.size() && link.compare(link.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends_with("_up")) return LinkClass::leaf_spine;
  if (ends_with("_down")) return LinkClass::spine_leaf;
  return LinkClass::cna_leaf;
}

bool LinkErrorParams::any_errors(LinkClass cls) const {
  const ErrorInjector::Params& p = cls == LinkClass::cna_leaf     ? cna_leaf
                                   : cls == LinkClass::leaf_spine ? leaf_spine
                                                                  : spine_leaf;
  for (const auto& [link, own] : by_link)
    if (link_class_of(link) == cls && (own.bit_error_rate > 0 || own.packet_error_probability > 0)) return true;
  return p.bit_error_rate > 0 || p.packet_error_probability > 0 || !scripted.empty();
}

}  // namespace fabric
