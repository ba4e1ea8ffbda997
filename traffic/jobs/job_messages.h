#pragma once
// The messages of a job: each send of its schedule matched to the recv (or,
// multicast, the recvs) it delivers to, as MPI matches them: the k-th send
// from rank a to rank b with tag t goes to the k-th recv at b from a with
// tag t, in the order each rank lists its ops. The matching is static, so a
// frame needs to carry only its message's number (FrameHeader::message) for
// its destination to know which recv it fills. Plain C++.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic {

constexpr uint32_t kNoMessage = UINT32_MAX;

// The frames a message of `bytes` payload is sent as: back-to-back Ethernet
// frames of at most 1500 B of payload plus 18 B of header and FCS, 64 B at
// least; a message of 0 bytes is one 64 B frame (it still synchronises).
uint32_t message_frame_count(uint64_t bytes);
uint32_t message_frame_bytes(uint64_t bytes, uint32_t frame_index);

struct JobMessage {
  int32_t src = 0;       // the sending rank
  uint32_t send_op = 0;  // the send's index among its rank's ops
  int32_t dst = -1;      // unicast: the receiving rank; multicast: -1
  int32_t group = -1;    // multicast: JobSchedule::groups' index
  uint64_t bytes = 0;
  uint32_t frames = 0;  // message_frame_count(bytes)
};

class JobMessages {
 public:
  // Throws config::ConfigError naming `key` (the job's algorithm or
  // schedule key) for a send without its recv, a recv without its send, or
  // a recv smaller than the message it receives.
  JobMessages(const JobSchedule& schedule, const std::string& key);

  const std::vector<JobMessage>& all() const { return messages_; }
  const JobMessage& operator[](uint32_t id) const { return messages_[id]; }
  // The message a send sends or a recv receives (kNoMessage for a calc).
  uint32_t message_of(int rank, uint32_t op) const { return message_of_op_[static_cast<size_t>(rank)][op]; }
  // The recv at `rank` that message `id` fills (kNoMessage: none there).
  uint32_t recv_op(int rank, uint32_t id) const;

 private:
  std::vector<JobMessage> messages_;
  std::vector<std::vector<uint32_t>> message_of_op_;                  // [rank][op]
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> recv_ops_;  // [rank]: (message, recv op), by message
};

}  // namespace fabric::traffic
