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
#include <tlm>

#include "model/core/frame_arrival.h"
#include "model/core/frame_header.h"
#include "model/core/ids.h"

namespace fabric {

struct FabricProtocol {
  using tlm_payload_type = tlm::tlm_generic_payload;
  using tlm_phase_type = tlm::tlm_phase;
};

using Payload = tlm::tlm_generic_payload;

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

// What every message has: its kind and its size on the wire.
struct MessageInfo : tlm::tlm_extension<MessageInfo> {
  MessageKind kind = MessageKind::frame;
  bool corrupt = false;      // arrived with a bad CRC (error injection on the link)
  bool replay = false;       // a link-level replay of a message sent before
  uint32_t wire_bytes = 0;   // excluding Ethernet preamble/IFG (the Link adds those)
  Picos ready_at = 0;        // not to be sent before this time (pipeline latency)
  uint32_t credits = 0;      // hop-by-hop credits returned to the receiver of this message
  uint32_t link_seq = 0;     // link sequence number (links with retry; low 32 bits)
  tlm_extension_base* clone() const override { return new MessageInfo(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const MessageInfo&>(other); }
};

// An Ethernet frame between a CNA and its leaf.
struct EthernetFrame : tlm::tlm_extension<EthernetFrame>, FrameHeader {
  uint64_t dst_mac = 0;
  FrameArrival arrival;  // set by a link that delivers at the first byte (concurrent header)
  tlm_extension_base* clone() const override { return new EthernetFrame(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const EthernetFrame&>(other); }
};

// A segment of a frame copy travelling from a source port to a target port.
struct FabricPacket : tlm::tlm_extension<FabricPacket> {
  FrameId frame{};
  FlowId flow{};
  PortId src{};
  PortId target{};
  LeafId target_leaf{};
  Vl vl{};
  uint8_t priority = 0;
  uint16_t index = 0;        // segment index within the frame
  uint16_t count = 0;        // segments in the frame
  uint32_t frame_bytes = 0;
  uint32_t copy_seq = 0;     // sequence of the copy within (src, target, vl): egress reorders by it
  Picos created = 0;
  uint8_t levels = 0;        // surrogates the frame has passed
  Mid mid{};                 // its multicast group (surrogate targets)
  TransportKind transport = TransportKind::none;  // the CNAs' end-to-end transport fields, carried through
  uint32_t transport_seq = 0;
  tlm_extension_base* clone() const override { return new FabricPacket(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const FabricPacket&>(other); }
};

// Request, grant, ACK, cancel (end to end, port to port; a cancel returns
// units granted for copies a VOQ dropped from its head; an ACK's `units` is
// cumulative: every copy of the VOQ below that copy sequence number has
// been forwarded), credit (hop by hop, link level), PAUSE and CNM (to a
// CNA), link ACK and NAK (`units`: the link sequence number, low 32 bits).
struct ControlMessage : tlm::tlm_extension<ControlMessage> {
  ControlKind kind = ControlKind::request;
  PortId from{};             // request/ack: sender port; grant: egress port
  PortId to{};               // the port that consumes it
  LeafId to_leaf{};
  Vl vl{};
  uint32_t units = 0;        // request: units asked; grant: units granted
  uint32_t count = 1;        // coalesced messages: frames requested/acked, credits returned
  uint8_t priority = 0;      // pause, cnm
  bool stop = false;         // pause: STOP (true) or GO
  FlowId flow{};             // cnm: the culprit flow
  uint8_t fb = 0;            // cnm: quantized feedback, 1 .. 63
  tlm_extension_base* clone() const override { return new ControlMessage(*this); }
  void copy_from(const tlm_extension_base& other) override { *this = static_cast<const ControlMessage&>(other); }
};

// Every fabric payload comes from the PayloadPool as one block holding the
// transaction and its four extensions. The extensions are registered on the
// transaction like any TLM extension; the model's hot path reads them in place
// (one block, no pointer chasing through the extension array). The
// extensions of fabric messages, the most numerous, come first. The pool
// places each block so that the transaction's memory-manager pointer and
// reference count start a cache line: with the message info and the packet
// they then span two lines (see PayloadPool).
struct PooledPayload final : Payload {
  explicit PooledPayload(tlm::tlm_mm_interface* mm) : Payload(mm) {
    set_extension(&info);
    set_extension(&packet);
    set_extension(&control);
    set_extension(&frame);
  }
  ~PooledPayload() override {  // members, not heap objects: the payload must not delete them
    clear_extension(&info);
    clear_extension(&packet);
    clear_extension(&control);
    clear_extension(&frame);
  }
  MessageInfo info;
  FabricPacket packet;
  ControlMessage control;
  EthernetFrame frame;
};

inline MessageInfo& info_of(Payload& p) { return static_cast<PooledPayload&>(p).info; }
inline EthernetFrame& frame_of(Payload& p) { return static_cast<PooledPayload&>(p).frame; }
inline FabricPacket& packet_of(Payload& p) { return static_cast<PooledPayload&>(p).packet; }
inline ControlMessage& control_of(Payload& p) { return static_cast<PooledPayload&>(p).control; }
inline const MessageInfo& info_of(const Payload& p) { return static_cast<const PooledPayload&>(p).info; }
inline const FabricPacket& packet_of(const Payload& p) { return static_cast<const PooledPayload&>(p).packet; }
inline const ControlMessage& control_of(const Payload& p) { return static_cast<const PooledPayload&>(p).control; }
// Where a message's hot fields start, counted from the Payload: the
// transaction's reference count, then the info and the packet, over two
// cache lines (PayloadPool places each block so, and checks it).
constexpr int kMessageHotOffset = 120;
inline void prefetch_message(const Payload* p) {
  const char* hot = reinterpret_cast<const char*>(p) + kMessageHotOffset;
  __builtin_prefetch(hot);
  __builtin_prefetch(hot + 64);
}

// A control message's extension lies just past the hot lines: whatever
// reads a control message's kind prefetches it, once the info is in.
inline void prefetch_control_extension(const Payload& p) {
  __builtin_prefetch(&static_cast<const PooledPayload&>(p).control.kind);
}

// An Ethernet frame's extension lies past the fabric ones: a receiver of
// frames prefetches it.
inline void prefetch_frame_extension(const Payload& p) {
  const char* frame = reinterpret_cast<const char*>(&static_cast<const PooledPayload&>(p).frame);
  __builtin_prefetch(frame);
  __builtin_prefetch(frame + 63);
}

// Merges `incoming` into a queued, not yet sent message of the same VOQ when
// the protocol allows it. Returns false when they must travel separately.
bool try_coalesce(ControlMessage& queued, const ControlMessage& incoming, uint32_t max_request_units);

}  // namespace fabric
