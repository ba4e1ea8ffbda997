// The adapters between the fabric's own message and the generic payload:
// standard TLM-2.0 IP (tlm_utils sockets, base protocol, b_transport and
// nb_transport) bound to a fabric Link through them.
#include <gtest/gtest.h>

#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "model/core/sim_time.h"
#include "model/link/link.h"
#include "model/protocol/generic_payload_adapter.h"

namespace fabric {
namespace {

using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

// A loosely timed initiator as third-party IP is written: b_transport
// writes, waiting out each annotated delay.
class LtInitiator : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(LtInitiator);
  explicit LtInitiator(sc_core::sc_module_name name) : sc_module(name), socket("socket") { SC_THREAD(run); }
  tlm_utils::simple_initiator_socket<LtInitiator> socket;
  std::vector<tlm::tlm_response_status> responses;

 private:
  void run() {
    unsigned char data[1500] = {};
    for (int i = 0; i < 3; ++i) {
      tlm::tlm_generic_payload gp;
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_address(0x1000 + i);
      gp.set_data_ptr(data);
      gp.set_data_length(500 * (i + 1));
      gp.set_streaming_width(500 * (i + 1));
      sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(gp, delay);
      responses.push_back(gp.get_response_status());
      wait(delay);
    }
    tlm::tlm_generic_payload read;
    read.set_command(tlm::TLM_READ_COMMAND);
    read.set_data_ptr(data);
    read.set_data_length(4);
    read.set_streaming_width(4);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(read, delay);
    responses.push_back(read.get_response_status());
  }
};

// A loosely timed target: records what arrives, and when.
class LtTarget : public sc_core::sc_module {
 public:
  explicit LtTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &LtTarget::b_transport);
  }
  tlm_utils::simple_target_socket<LtTarget> socket;
  struct Seen {
    Picos at;
    uint64_t address;
    unsigned length;
    const Payload* message;
  };
  std::vector<Seen> seen;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
    const FabricMessage* m = gp.get_extension<FabricMessage>();
    seen.push_back({now_ps() + to_ps(delay), gp.get_address(), gp.get_data_length(), m ? m->message : nullptr});
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

constexpr double kRate = 100;  // Gb/s: 80 ps a byte
constexpr Picos kPropagation = 5'000;

TEST(GenericPayloadAdapter, StandardInitiatorAndTargetTalkAcrossAFabricLink) {
  PayloadPool pool;
  LtInitiator initiator("initiator");
  FromGenericPayload from("from_gp", pool);
  Link link("link", {kRate, sc_time(kPropagation, SC_PS), 0, false, 0});
  ToGenericPayload to("to_gp");
  LtTarget target("target");
  initiator.socket.bind(from.in);
  from.out.bind(link.in);
  link.out.bind(to.in);
  to.out.bind(target.socket);
  sc_core::sc_start(sc_time(1, sc_core::SC_US));

  ASSERT_EQ(target.seen.size(), 3u);
  Picos sent = 0;
  for (int i = 0; i < 3; ++i) {
    const auto& s = target.seen[i];
    const Picos wire = 500 * (i + 1) * 80;
    EXPECT_EQ(s.address, 0x1000u + i);
    EXPECT_EQ(s.length, 500u * (i + 1));
    ASSERT_NE(s.message, nullptr);  // the fabric message it stands for rides along
    EXPECT_EQ(s.at, sent + wire + kPropagation) << "write " << i;
    sent += wire;  // the initiator waited out the link's serialization
  }
  const std::vector<tlm::tlm_response_status> ok{tlm::TLM_OK_RESPONSE, tlm::TLM_OK_RESPONSE, tlm::TLM_OK_RESPONSE,
                                                 tlm::TLM_COMMAND_ERROR_RESPONSE};
  EXPECT_EQ(initiator.responses, ok);
  EXPECT_EQ(link.messages(), 3u);
  EXPECT_EQ(to.in_flight(), 0u);
  EXPECT_EQ(pool.in_use(), 0u);  // every message went back to the pool
}

// A fabric sender and receiver with third-party IP between them: an
// approximately timed pass-through that answers END_REQ and later
// BEGIN_RESP on the backward path. The message arrives intact.
class FabricSource : public FabricSender, public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FabricSource);
  FabricSource(sc_core::sc_module_name name, PayloadPool& pool) : sc_module(name), out("out"), pool_(pool) {
    out.bind(*this);
    SC_THREAD(run);
  }
  FabricInitiatorSocket out;

 private:
  void run() {
    Payload& m = pool_.acquire(MessageKind::packet, 256);
    packet_of(m).target = PortId(17);
    packet_of(m).copy_seq = 99;
    m.set_address(0xbeef);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(m, phase, delay);
  }
  PayloadPool& pool_;
};

class FabricSink : public FabricReceiver, public sc_core::sc_module {
 public:
  explicit FabricSink(sc_core::sc_module_name name) : sc_module(name), in("in") { in.bind(*this); }
  tlm::tlm_sync_enum nb_transport_fw(Payload& m, tlm::tlm_phase&, sc_time& delay) override {
    arrived_at = now_ps() + to_ps(delay);
    target = packet_of(m).target;
    copy_seq = packet_of(m).copy_seq;
    address = m.get_address();
    m.release();
    return tlm::TLM_COMPLETED;
  }
  FabricTargetSocket in;
  Picos arrived_at = -1;
  PortId target{};
  uint32_t copy_seq = 0;
  uint64_t address = 0;
};

class AtPassThrough : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(AtPassThrough);
  explicit AtPassThrough(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
    in.register_nb_transport_fw(this, &AtPassThrough::fw);
    SC_METHOD(respond);
    sensitive << respond_;
    dont_initialize();
  }
  tlm_utils::simple_target_socket<AtPassThrough> in;
  tlm_utils::simple_initiator_socket<AtPassThrough> out;

 private:
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_time& delay) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    tlm::tlm_phase p = tlm::BEGIN_REQ;
    sc_time d = delay + sc_time(1, SC_NS);  // its own latency
    out->nb_transport_fw(gp, p, d);
    pending_ = &gp;
    respond_.notify(sc_time(2, SC_NS));
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void respond() {
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    sc_time d = sc_core::SC_ZERO_TIME;
    pending_->set_response_status(tlm::TLM_OK_RESPONSE);
    in->nb_transport_bw(*pending_, p, d);
  }
  tlm::tlm_generic_payload* pending_ = nullptr;
  sc_core::sc_event respond_;
};

TEST(GenericPayloadAdapter, AFabricMessageCrossesThirdPartyIpIntact) {
  PayloadPool pool;
  FabricSource source("source", pool);
  Link link("link", {kRate, sc_time(kPropagation, SC_PS), 0, false, 0});
  ToGenericPayload to("to_gp");
  AtPassThrough ip("ip");
  FromGenericPayload from("from_gp", pool);
  FabricSink sink("sink");
  source.out.bind(link.in);
  link.out.bind(to.in);
  to.out.bind(ip.in);
  ip.out.bind(from.in);
  from.out.bind(sink.in);
  sc_core::sc_start(sc_time(1, sc_core::SC_US));

  EXPECT_EQ(sink.arrived_at, 256 * 80 + kPropagation + 1'000);
  EXPECT_EQ(sink.target, PortId(17));
  EXPECT_EQ(sink.copy_seq, 99u);
  EXPECT_EQ(sink.address, 0xbeefu);
  EXPECT_EQ(to.in_flight(), 0u);  // completed by BEGIN_RESP on the backward path
  EXPECT_EQ(pool.in_use(), 0u);
}

}  // namespace
}  // namespace fabric
