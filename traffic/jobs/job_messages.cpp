#include "traffic/jobs/job_messages.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "config/config_error.h"
#include "traffic/message_source.h"

namespace fabric::traffic {

namespace {
constexpr uint32_t kMinFrame = 64;

std::string op_text(int rank, uint32_t op, const JobOp& o) {
  const std::string what = o.kind == JobOpKind::send ? "send to " : "recv from ";
  return "rank " + std::to_string(rank) + " op " + std::to_string(op) + " (" + what +
         (o.group >= 0 ? "group " + std::to_string(o.group) : std::to_string(o.peer)) + " tag " +
         std::to_string(o.tag) + ", " + std::to_string(o.bytes) + " B)";
}
}  // namespace

uint32_t message_frame_count(uint64_t bytes) {
  if (bytes == 0) return 1;
  return static_cast<uint32_t>((bytes + kMaxPayloadBytes - 1) / kMaxPayloadBytes);
}

uint32_t message_frame_bytes(uint64_t bytes, uint32_t frame_index) {
  const uint64_t before = uint64_t{frame_index} * kMaxPayloadBytes;
  const uint64_t payload = bytes > before ? std::min<uint64_t>(bytes - before, kMaxPayloadBytes) : 0;
  return std::max<uint32_t>(static_cast<uint32_t>(payload) + kHeaderFcsBytes, kMinFrame);
}

JobMessages::JobMessages(const JobSchedule& schedule, const std::string& key) {
  const int n = schedule.size();
  message_of_op_.resize(static_cast<size_t>(n));
  recv_ops_.resize(static_cast<size_t>(n));
  // The recvs waiting at each (receiver, sender, tag), in op order.
  std::map<std::tuple<int, int, uint32_t>, std::vector<uint32_t>> recvs;
  for (int r = 0; r < n; ++r) {
    const auto& ops = schedule.ranks[static_cast<size_t>(r)].ops;
    message_of_op_[static_cast<size_t>(r)].assign(ops.size(), kNoMessage);
    for (uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == JobOpKind::recv) recvs[{r, ops[i].peer, ops[i].tag}].push_back(i);
  }
  std::map<std::tuple<int, int, uint32_t>, size_t> taken;  // recvs matched so far per key
  auto match = [&](int receiver, int sender, uint32_t send_op, const JobOp& send, uint32_t id) {
    const std::tuple<int, int, uint32_t> k{receiver, sender, send.tag};
    const auto it = recvs.find(k);
    size_t& next = taken[k];
    if (it == recvs.end() || next >= it->second.size())
      throw config::ConfigError(key, op_text(sender, send_op, send),
                                "a recv at rank " + std::to_string(receiver) + " from rank " + std::to_string(sender) +
                                    " with tag " + std::to_string(send.tag) + " for every such send");
    const uint32_t recv = it->second[next++];
    const JobOp& r = schedule.ranks[static_cast<size_t>(receiver)].ops[recv];
    if (r.bytes < send.bytes)
      throw config::ConfigError(key, op_text(receiver, recv, r),
                                "a recv at least as large as the message it receives (" + std::to_string(send.bytes) +
                                    " B from " + op_text(sender, send_op, send) + ")");
    message_of_op_[static_cast<size_t>(receiver)][recv] = id;
    recv_ops_[static_cast<size_t>(receiver)].emplace_back(id, recv);
  };
  for (int s = 0; s < n; ++s) {
    const auto& ops = schedule.ranks[static_cast<size_t>(s)].ops;
    for (uint32_t i = 0; i < ops.size(); ++i) {
      const JobOp& o = ops[i];
      if (o.kind != JobOpKind::send) continue;
      const auto id = static_cast<uint32_t>(messages_.size());
      messages_.push_back({s, i, o.group >= 0 ? -1 : o.peer, o.group, o.bytes, message_frame_count(o.bytes)});
      message_of_op_[static_cast<size_t>(s)][i] = id;
      if (o.group < 0) {
        match(o.peer, s, i, o, id);
      } else {
        for (int32_t member : schedule.groups[static_cast<size_t>(o.group)]) match(member, s, i, o, id);
      }
    }
  }
  for (const auto& [k, ops] : recvs) {
    const size_t matched = taken.count(k) ? taken.at(k) : 0;
    if (matched < ops.size()) {
      const int receiver = std::get<0>(k);
      const JobOp& r = schedule.ranks[static_cast<size_t>(receiver)].ops[ops[matched]];
      throw config::ConfigError(key, op_text(receiver, ops[matched], r),
                                "a send from rank " + std::to_string(std::get<1>(k)) + " to rank " +
                                    std::to_string(receiver) + " with tag " + std::to_string(std::get<2>(k)) +
                                    " for every such recv");
    }
  }
  for (auto& v : recv_ops_) std::sort(v.begin(), v.end());
}

uint32_t JobMessages::recv_op(int rank, uint32_t id) const {
  const auto& v = recv_ops_[static_cast<size_t>(rank)];
  const auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(id, uint32_t{0}));
  return it != v.end() && it->first == id ? it->second : kNoMessage;
}

}  // namespace fabric::traffic
