#pragma once
// A verilated sync CAM (the contract in rtl/README.md) behind the SyncCam
// interface, so that the multicast engine calls it exactly as it calls the
// C++ model. Each call is one command at the call's cycle; queries set the
// query inputs and read the query outputs (ClockedBlock::query).
#include <string>
#include <vector>

#include "model/multicast/sync_cam.h"
#include "rtl/cosim/clocked_block.h"

namespace fabric::rtl {

// The contract's command codes (cmd_op).
enum class SyncCamOp : uint8_t { forward = 0, count_down = 1, tick = 2 };

template <class V>
class RtlSyncCam final : public SyncCam {
 public:
  RtlSyncCam(const Params& params, const std::string& name, const TraceWindow& trace = {}) : block_(name, trace) {
    V& io = block_.io();
    io.cfg_shi = params.shi;
    io.cfg_slow = params.slow;
    io.cfg_timeout = params.timeout_cycles;
    block_.reset();
    check_block_size("sync CAM", "entries", io.p_entries, params.entries);
  }

  bool suspended(uint32_t voq) const override {
    query(voq);
    return block_.io().q_suspended;
  }
  uint32_t ahead(uint32_t voq) const override {
    query(voq);
    return block_.io().q_ahead;
  }

  void on_copy_forwarded(uint32_t voq, uint32_t packets, bool last_copy, const uint32_t* sent_before,
                         size_t sent_before_count, Cycle now) override {
    if (!last_copy) {
      command(SyncCamOp::forward, voq, packets, now);
      return;
    }
    for (size_t k = 0; k < sent_before_count; ++k) command(SyncCamOp::count_down, sent_before[k], packets, now);
  }
  void tick(Cycle now) override { command(SyncCamOp::tick, 0, 0, now); }
  Cycle next_timeout() const override { return block_.io().next_timeout; }
  std::vector<Change> take_changes() override {
    std::vector<Change> out;
    out.swap(changes_);
    return out;
  }
  void reset(Cycle now) override {
    block_.reset(now);
    changes_.clear();
  }

  size_t used_entries() const override { return block_.io().used_entries; }
  size_t suspended_count() const override { return block_.io().suspended_count; }
  uint64_t evictions() const override { return block_.io().evictions; }
  RtlActivity rtl_activity() const override { return block_.activity(); }
  void finish() override { block_.finish(); }

 private:
  void query(uint32_t voq) const {
    ClockedBlock<V>& block = const_cast<ClockedBlock<V>&>(block_);  // inputs of a query change no state
    block.io().voq = voq;
    block.query();
  }

  void command(SyncCamOp op, uint32_t voq, uint32_t packets, Cycle now) {
    V& io = block_.io();
    io.cmd_op = static_cast<uint8_t>(op);
    io.voq = voq;
    io.cmd_packets = packets;
    block_.command(now, [&] {
      if (io.chg_valid)
        changes_.push_back({io.chg_voq, static_cast<bool>(io.chg_suspended), static_cast<Why>(io.chg_why), now});
    });
  }

  ClockedBlock<V> block_;
  std::vector<Change> changes_;
};

}  // namespace fabric::rtl
