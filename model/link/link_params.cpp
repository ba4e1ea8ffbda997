#include "model/link/link_params.h"

namespace fabric {

using config::ParamType;

namespace {
const char* const kClasses[] = {"cna_leaf", "leaf_spine", "spine_leaf"};

ErrorInjector::Params read_class(const config::Config& c, const std::string& cls) {
  ErrorInjector::Params p;
  p.bit_error_rate = c.get_real("errors." + cls + ".ber");
  p.packet_error_probability = c.get_real("errors." + cls + ".packet_probability");
  return p;
}
}  // namespace

void declare_link_params(config::ParamRegistry& r) {
  r.declare({"link.credit_batch", ParamType::integer, "4", "credits", "hop-by-hop credits ride on the next message of the reverse link; a credit message of its own goes once this many are owed", 1, 1024});
  r.declare({"link.credit_delay", ParamType::duration, "100ns", "ps", "... or once the oldest owed credit has waited this long", 0, 1e9});
  r.declare({"link.retry", ParamType::boolean, "true", "", "link-level retry on leaf-spine links: link sequence numbers, CRC check, go-back-N replay (mechanism 10)"});
  r.declare({"link.retry.buffer", ParamType::bytes, "6KB", "B", "retry buffer per leaf-spine link, sized for the link round trip: 2 x 200 ns of cable, a 256 B packet (82 ns at 25 Gb/s) and up to 8 more before the coalesced ACK leaves, about 1.14 us or 3.6 KB at 25 Gb/s; at least one packet", 1, 1e8});
  r.declare({"link.retry.ack_every", ParamType::integer, "8", "messages", "link ACKs are coalesced: one per this many messages accepted", 1, 1024});
  r.declare({"link.retry.ack_delay", ParamType::duration, "500ns", "ps", "... or once the oldest unacknowledged message has waited this long", 0, 1e9});
  r.declare({"link.retry.timeout", ParamType::duration, "2us", "ps", "no link ACK or NAK for this long with messages outstanding: replay all (a lost NAK or ACK) (at least 100 ns: below a link's ACK round trip every message would be replayed at once)", 1e5, 1e12});
  for (const char* cls : kClasses) {
    const std::string k = std::string("errors.") + cls;
    r.declare({k + ".ber", ParamType::real, "0", "", std::string("bit error rate on ") + cls + " links (each message is hit with 1-(1-BER)^bits)", 0, 1e-3});
    r.declare({k + ".packet_probability", ParamType::real, "0", "", std::string("packet error probability on ") + cls + " links, when the bit error rate is 0", 0, 1});
  }
  r.declare(config::text_param("errors.scripted", "", "", "messages to corrupt: LINK:SEQ,... (LINK as leaf0_spine3_up; SEQ the link sequence number, or the message's index on a link without retry)", scripted_errors_syntax()));
}

CreditReturnParams read_credit_return_params(const config::Config& c) {
  CreditReturnParams p;
  p.batch = static_cast<uint32_t>(c.get_int("link.credit_batch"));
  p.delay = c.get_duration("link.credit_delay");
  return p;
}

LinkRetryParams read_link_retry_params(const config::Config& c, uint32_t max_message_bytes) {
  LinkRetryParams p;
  p.enabled = c.get_bool("link.retry");
  const int64_t buffer = c.get_bytes("link.retry.buffer");
  if (buffer < max_message_bytes)
    c.fail("link.retry.buffer", "at least one packet: " + std::to_string(max_message_bytes) + " B .. 100 MB");
  p.buffer_bytes = static_cast<uint32_t>(buffer);
  p.ack_every = static_cast<uint32_t>(c.get_int("link.retry.ack_every"));
  p.ack_delay = c.get_duration("link.retry.ack_delay");
  p.timeout = c.get_duration("link.retry.timeout");
  return p;
}

LinkErrorParams read_link_error_params_unchecked(const config::Config& c) {
  LinkErrorParams p;
  p.cna_leaf = read_class(c, "cna_leaf");
  p.leaf_spine = read_class(c, "leaf_spine");
  p.spine_leaf = read_class(c, "spine_leaf");
  p.scripted = parse_scripted_errors("errors.scripted", c.get_text("errors.scripted"));
  return p;
}

std::optional<ErrorInjector::Params> LinkErrorParams::for_link(LinkClass cls, const std::string& link) const {
  ErrorInjector::Params p = cls == LinkClass::cna_leaf ? cna_leaf : cls == LinkClass::leaf_spine ? leaf_spine : spine_leaf;
  if (const auto s = scripted.find(link); s != scripted.end()) p.scripted = s->second;
  if (p.bit_error_rate == 0 && p.packet_error_probability == 0 && p.scripted.empty()) return std::nullopt;
  return p;
}

}  // namespace fabric
