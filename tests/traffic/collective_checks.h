#pragma once
// Test oracles for job schedules (collectives_test.cpp and its siblings),
// written apart from the generators they check: the message matching and
// the structure a valid schedule has, and a replay on an ideal network that
// gives each op its times. Plain C++.
#include <cstdint>
#include <string>
#include <vector>

#include "model/core/ids.h"
#include "traffic/jobs/collectives.h"
#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic::testing {

// A spec of `n` ranks and `bytes`, root 0, no chunks, one iteration.
CollectiveSpec spec_of(Collective c, const std::string& algorithm, int n, uint64_t bytes);

struct OpRef {
  int rank = -1;  // -1: none
  uint32_t op = 0;
};

// The k-th send from a to b with tag t delivers to the k-th recv at b from a
// with tag t (a multicast send: at every member of its group).
struct MessageMatching {
  std::vector<std::vector<std::vector<OpRef>>> recvs_of_send;  // [rank][op]
  std::vector<std::vector<OpRef>> send_of_recv;                // [rank][op]
  std::vector<std::string> problems;  // unmatched sends and recvs, bytes that differ, bad peers and groups
};
MessageMatching match_messages(const JobSchedule& s);

// Everything wrong with `s`: the matching's problems, dependencies that
// point outside their rank's ops or form a cycle, steps != 1 + the largest
// step. Empty for a valid schedule.
std::vector<std::string> schedule_problems(const JobSchedule& s);

// Each rank's NIC sends its posted sends one at a time, in the order they
// were posted, taking bytes * picos_per_byte; a message arrives `latency`
// after its last byte left (at every member of a multicast group at once);
// receiving is free. A send completes when its last byte has left, a recv
// when it is posted and its message has arrived, a calc after its duration.
struct IdealNetwork {
  Picos latency = 0;
  Picos picos_per_byte = 0;
};
struct OpTimes {
  Picos start = kNever;  // a send: when its first byte leaves; a recv: posted
  Picos end = kNever;
};
struct IdealRun {
  std::vector<std::vector<OpTimes>> times;  // [rank][op]
  Picos finish = 0;                         // the latest end
  uint64_t unfinished = 0;                  // ops that never completed (a deadlock)
};
// Requires match_messages(s).problems to be empty.
IdealRun replay_on_ideal_network(const JobSchedule& s, const IdealNetwork& network);

}  // namespace fabric::traffic::testing
