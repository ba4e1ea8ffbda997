#pragma once
// The fabric's own TLM-2.0 protocol. Its traits class keeps fabric sockets
// from being bound to a memory bus by mistake. One transaction = one message
// on a link: an Ethernet frame (CNA <-> leaf), a fabric packet (a segment of
// at most 256 B between leaves, through spines) or a control message.
//
// Phases: the sender issues BEGIN_REQ on a Link; the Link answers END_REQ
// (TLM_UPDATED) with the serialization time as delay: the sender may start
// its next message then. The Link forwards BEGIN_REQ to the receiver with
// serialization + propagation as delay; the receiver takes ownership and
// answers TLM_COMPLETED. Flow control is by credits (control messages), not
// by withheld END_REQ.
#include <cassert>
#include <type_traits>

#include <tlm>

#include "model/core/frame_arrival.h"
#include "model/core/frame_header.h"
#include "model/core/ids.h"
#include "model/protocol/copy_range.h"

namespace fabric {

class PayloadPool;
struct Payload;

// The protocol's traits: its payload is the fabric's own compact message
// (below), not tlm_generic_payload. The sockets, nb_transport_fw/bw, the
// phases and the annotated delays are TLM-2.0's; third-party TLM IP that
// speaks the generic payload meets the model through the adapters of
// model/protocol/generic_payload_adapter.h.
struct FabricProtocol {
  using tlm_payload_type = Payload;
  using tlm_phase_type = tlm::tlm_phase;
};

// Standard TLM-2.0 sockets of the fabric protocol. The modules implement the
// transport interfaces themselves and bind them to their sockets, so a call
// lands on the receiving module directly (no callback object in between:
// on the per-message path every cache line counts).
using FabricTargetSocket = tlm::tlm_target_socket<32, FabricProtocol>;
using FabricInitiatorSocket = tlm::tlm_initiator_socket<32, FabricProtocol>;

// What a fabric receiver implements: messages arrive by nb_transport_fw; the
// blocking, DMA and debug interfaces have no meaning on a link.
class FabricReceiver : public tlm::tlm_fw_transport_if<FabricProtocol> {
 public:
  void b_transport(Payload&, sc_core::sc_time&) override;
  bool get_direct_mem_ptr(Payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(Payload&) override { return 0; }
};

// What a fabric sender implements: a link answers on the forward path
// (END_REQ with TLM_UPDATED), never on the backward one.
class FabricSender : public tlm::tlm_bw_transport_if<FabricProtocol> {
 public:
  tlm::tlm_sync_enum nb_transport_bw(Payload&, tlm::tlm_phase&, sc_core::sc_time&) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

enum class MessageKind : uint8_t { frame, packet, control };
// link_ack and link_nak belong to link-level retry (mechanism 10): hop by hop,
// about the reverse link, never forwarded.
enum class ControlKind : uint8_t { request, grant, ack, credit, pause, cnm, cancel, link_ack, link_nak };
const char* to_string(ControlKind kind);
// Credits, link ACKs and NAKs are about the link they cross: its receiving
// port consumes them, and they carry no destination.
inline bool link_level(ControlKind kind) {
  return kind == ControlKind::credit || kind == ControlKind::link_ack || kind == ControlKind::link_nak;
}

// What every message has: its kind and its size on the wire.
struct MessageInfo {
  MessageKind kind = MessageKind::frame;
  bool corrupt = false;           // arrived with a bad CRC (error injection on the link)
  bool replay = false;            // a link-level replay of a message sent before
  bool carries_link_ack = false;  // link_ack holds a link ACK for the reverse link (link.retry.ack_piggyback)
  uint32_t wire_bytes = 0;        // excluding Ethernet preamble/IFG (the Link adds those)
  Picos ready_at = 0;             // not to be sent before this time (pipeline latency)
  uint16_t credits = 0;           // hop-by-hop credits returned to the receiver of this message (kMaxCarriedCredits)
  uint16_t link_ack = 0;          // a piggybacked cumulative link ACK: the low 16 bits of its link sequence number
  uint32_t link_seq = 0;          // link sequence number (links with retry; low 32 bits)
};
// The most hop-by-hop credits one message's header carries (more wait for the next).
constexpr uint32_t kMaxCarriedCredits = 0xffff;
// A piggybacked link ACK names its message by the low 16 bits of the link
// sequence number: unambiguous while fewer messages than this are unacknowledged.
constexpr uint32_t kPiggybackedAckSpan = 0x8000;

// A segment of a frame copy travelling from a source port to a target port.
// What a spine routes by and a leaf reads first come first.
struct FabricPacket {
  LeafId target_leaf{};
  PortId target{};
  PortId src{};
  Vl vl{};
  uint8_t priority = 0;
  uint16_t index = 0;                             // segment index within the frame
  uint16_t count = 0;                             // segments in the frame
  uint8_t levels = 0;                             // surrogates the frame has passed
  TransportKind transport = TransportKind::none;  // the CNAs' end-to-end transport fields, carried through
  FlowId flow{};
  FrameId frame{};
  Picos created = 0;
  uint32_t frame_bytes = 0;
  uint32_t copy_seq = 0;  // sequence of the copy within (src, target, vl): egress reorders by it
  Mid mid{};              // its multicast group (surrogate targets)
  uint32_t transport_seq = 0;
  uint32_t sent_seq = 0;  // the frame's, carried through (FrameHeader::sent_seq)
  uint32_t message = 0;   // the frame's job message, carried through (FrameHeader::message)
};

// Request, grant, ACK, cancel (end to end, port to port; a cancel returns
// units granted for copies a VOQ dropped from its head; an ACK's `units` is
// cumulative: every copy of the VOQ below that copy sequence number has
// been forwarded), credit (hop by hop, link level), PAUSE and CNM (to a
// CNA), link ACK and NAK (`units`: the link sequence number, low 32 bits).
// The fields every control message has come first (one cache line with the
// message's info); a CNM's culprit and feedback last.
struct ControlMessage {
  ControlKind kind = ControlKind::request;
  Vl vl{};
  uint8_t priority = 0;  // pause, cnm
  bool stop = false;     // pause: STOP (true) or GO
  LeafId to_leaf{};
  PortId to{};            // the port that consumes it
  PortId from{};          // request/ack: sender port; grant: egress port
  uint32_t units = 0;     // request: units asked; grant: units granted
  uint32_t count = 1;     // coalesced messages: frames requested/acked, credits returned
  CopyRange copies{};     // request, grant: the copies; cancel with `withdraw`: the dropped one
  bool withdraw = false;  // cancel: withdraw the copy's request if not yet granted (else: release units)
  FlowId flow{};          // cnm: the culprit flow
  uint8_t fb = 0;         // cnm: quantized feedback, 1 .. 63
};

// An Ethernet frame between a CNA and its leaf.
struct EthernetFrame : FrameHeader {
  uint64_t dst_mac = 0;
  FrameArrival arrival;  // set by a link that delivers at the first byte (concurrent header)
};

// The protocol's payload: one message on one link, in two cache lines from
// the PayloadPool. The first line holds what every hop reads (the pool and
// reference count, the info) and the first fields of the body: a packet's
// target and segment, a control message's kind, destination and units.
// A message is one kind: the body holds the packet, the control message or
// the frame, never two (read only the part of info.kind). Aligned to 128
// bytes: the two lines are one pair of the processor's adjacent-line
// prefetcher.
struct alignas(128) Payload {
  Payload() = default;
  Payload(const Payload&) = delete;
  Payload& operator=(const Payload&) = delete;

  // Reference counting as TLM's memory management has it: acquire() adds a
  // holder; the last release() returns the message to its pool.
  void acquire() { ++refs_; }
  void release();
  uint32_t ref_count() const { return refs_; }
  // Where the message's content lives outside it, when it does (the ring's
  // frame store slot); the generic payload's address across the adapters.
  uint64_t get_address() const { return address_; }
  void set_address(uint64_t address) { address_ = address; }

  PayloadPool* pool_ = nullptr;
  MessageInfo info;
  uint32_t refs_ = 0;
  union Body {
    Body() : packet() {}
    FabricPacket packet;
    ControlMessage control;
    EthernetFrame frame;
  } body;
  uint64_t address_ = 0;
};
static_assert(sizeof(Payload) == 128, "a message is two cache lines");
// Which fields share the first line is checked by tests/unit/message_layout_test.cpp.
static_assert(std::is_trivially_copyable_v<Payload::Body>, "the pool copies a message's body as bytes");

// Returns a message whose last holder released it to its pool (payload_pool.cpp).
void return_to_pool(PayloadPool* pool, Payload* payload);
inline void Payload::release() {
  if (--refs_ == 0) return_to_pool(pool_, this);
}

// A message's parts. Reading the part of another kind is a bug (checked in
// builds with assertions on).
inline MessageInfo& info_of(Payload& p) { return p.info; }
inline EthernetFrame& frame_of(Payload& p) {
  assert(p.info.kind == MessageKind::frame);
  return p.body.frame;
}
inline FabricPacket& packet_of(Payload& p) {
  assert(p.info.kind == MessageKind::packet);
  return p.body.packet;
}
inline ControlMessage& control_of(Payload& p) {
  assert(p.info.kind == MessageKind::control);
  return p.body.control;
}
inline const MessageInfo& info_of(const Payload& p) { return p.info; }
inline const FabricPacket& packet_of(const Payload& p) {
  assert(p.info.kind == MessageKind::packet);
  return p.body.packet;
}
inline const ControlMessage& control_of(const Payload& p) {
  assert(p.info.kind == MessageKind::control);
  return p.body.control;
}
inline const EthernetFrame& frame_of(const Payload& p) {
  assert(p.info.kind == MessageKind::frame);
  return p.body.frame;
}

// A message's two lines, asked for before it is read.
inline void prefetch_message(const Payload* p) {
  __builtin_prefetch(p);
  __builtin_prefetch(reinterpret_cast<const char*>(p) + 64);
}

// Merges `incoming` into a queued, not yet sent message of the same VOQ when
// the protocol allows it. Returns false when they must travel separately.
bool try_coalesce(ControlMessage& queued, const ControlMessage& incoming, uint32_t max_request_units);

}  // namespace fabric
