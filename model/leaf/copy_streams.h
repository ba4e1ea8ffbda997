#pragma once
// The multicast copies a port is sending, as plain C++ (mechanisms 1-2):
// each a stream of packets that leave one by one, through the port's own
// crossbar input (payload) or as a header through a cache mirror (hit).
// Two round-robin turns pick among them: one for the input's payload slot,
// one for the port's header slot; each starts after the stream served last.
// A stream ends when its last packet has left.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/core/ids.h"

namespace fabric {

struct CopyStream {
  uint32_t voq, slot, copy_seq;  // the copy: its VOQ, its frame's slot, its sequence number
  uint16_t next_segment, segments;
  Picos busy_until;  // its previous packet is still streaming
};

class CopyStreams {
 public:
  bool empty() const { return streams_.empty(); }
  size_t size() const { return streams_.size(); }
  const CopyStream& operator[](size_t s) const { return streams_[s]; }
  void start(const CopyStream& stream) { streams_.push_back(stream); }

  // The i-th stream in the payload turn, and in the header turn (i < size()).
  size_t in_payload_turn(size_t i) const { return (payload_turn_ + i) % streams_.size(); }
  size_t in_header_turn(size_t i) const { return (header_turn_ + i) % streams_.size(); }
  void served_payload(size_t s) { payload_turn_ = s + 1; }
  void served_header(size_t s) { header_turn_ = s + 1; }

  // Stream s's next packet has started; it is done at packet_done. Returns
  // the stream's VOQ when that was its last packet (the stream is gone).
  std::optional<uint32_t> advance(size_t s, Picos packet_done) {
    CopyStream& st = streams_[s];
    st.busy_until = packet_done;
    if (++st.next_segment < st.segments) return std::nullopt;
    const uint32_t voq = st.voq;
    streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(s));
    return voq;
  }

 private:
  std::vector<CopyStream> streams_;
  size_t header_turn_ = 0, payload_turn_ = 0;
};

}  // namespace fabric
