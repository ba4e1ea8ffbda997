#pragma once
// A verilated packet cache controller (the contract in rtl/README.md) behind
// the PacketCache interface. Each call that changes state is one command at
// the call's cycle; look-ups set the query inputs and read the
// combinational outputs, with no clock. The per-port counters are kept here,
// from the block's responses and notices.
#include <stdexcept>
#include <string>
#include <vector>

#include "model/multicast/packet_cache.h"
#include "rtl/cosim/clocked_block.h"

namespace fabric::rtl {

// The contract's command codes (cmd_op).
enum class PacketCacheOp : uint8_t { pass_through = 0, issue = 1, forget_copy = 2, end_cycle = 3 };

template <class V>
class RtlPacketCache final : public PacketCache {
 public:
  RtlPacketCache(const Params& params, int ports, const std::string& name, const TraceWindow& trace = {})
      : params_(params), block_(name, trace), stats_(static_cast<size_t>(ports)) {
    V& io = block_.io();
    io.cfg_header_lag = params.header_lag_cycles;
    io.cfg_background_free_min = params.background_free_min;
    io.cfg_background_evict_live = params.background_evicts_live;
    block_.reset();
    check_block_size("packet cache", "entries", io.p_entries, params.entries);
    check_block_size("packet cache", "mirrors", io.p_mirrors, params.mirrors);
  }

  Lookup lookup(int port, uint32_t unit, Cycle now) const override {
    ClockedBlock<V>& block = const_cast<ClockedBlock<V>&>(block_);  // inputs of a query change no state
    block.io().tag_port = static_cast<uint32_t>(port);
    block.io().tag_unit = unit;
    block.io().now = now;
    block.query();
    return {static_cast<State>(block.io().q_state), block.io().q_ready_at};
  }

  bool pass_through(int port, uint32_t unit, uint32_t cycles, uint32_t copies_to_come, bool first_copy,
                    Cycle now) override {
    if (!first_copy) ++stats_[port].misses;
    command(PacketCacheOp::pass_through, port, unit, cycles, copies_to_come, now);
    if (error_) throw std::logic_error("RTL packet cache: writing a packet it holds");
    if (written_) ++stats_[port].writes;
    return written_;
  }

  int issue(int port, uint32_t unit, uint32_t cycles, Cycle now) override {
    command(PacketCacheOp::issue, port, unit, cycles, 0, now);
    if (error_) throw std::logic_error("RTL packet cache: header issued for a packet that does not hit");
    if (mirror_ >= 0) ++stats_[port].hits;
    return mirror_;
  }

  void forget_copy(int port, uint32_t unit) override {
    command(PacketCacheOp::forget_copy, port, unit, 0, 0, last_cycle_);
  }
  void end_cycle(Cycle now) override { command(PacketCacheOp::end_cycle, 0, 0, 0, 0, now); }
  // The block's state goes; the per-port counters, kept here, stay (as the model's).
  void reset(Cycle now) override {
    block_.reset(now);
    evictions_.clear();
    last_cycle_ = now;
  }
  std::vector<Eviction> take_evictions() override {
    std::vector<Eviction> out;
    out.swap(evictions_);
    return out;
  }

  Cycle mirror_free_at(Cycle now) const override {
    ClockedBlock<V>& block = const_cast<ClockedBlock<V>&>(block_);
    block.io().now = now;
    block.query();
    return block.io().mirror_free_at;
  }
  bool background_work() const override { return block_.io().background_work; }
  uint32_t live_entries() const override { return block_.io().live_count; }
  uint32_t dead_entries() const override { return block_.io().dead_count; }
  const Params& params() const override { return params_; }
  const PortStats& stats(int port) const override { return stats_[port]; }
  int ports() const override { return static_cast<int>(stats_.size()); }
  RtlActivity rtl_activity() const override { return block_.activity(); }
  void finish() override { block_.finish(); }

 private:
  void command(PacketCacheOp op, int port, uint32_t unit, uint32_t cycles, uint32_t copies, Cycle now) {
    V& io = block_.io();
    io.cmd_op = static_cast<uint8_t>(op);
    io.tag_port = static_cast<uint32_t>(port);
    io.tag_unit = unit;
    io.cmd_cycles = cycles;
    io.cmd_copies = copies;
    last_cycle_ = now;
    written_ = error_ = false;
    mirror_ = -1;
    block_.command(now, [&] {
      if (io.rsp_valid) {
        written_ = io.rsp_written;
        error_ = io.rsp_error;
        if (io.rsp_mirror_valid) mirror_ = io.rsp_mirror;
      }
      if (io.evict_valid) {
        ++stats_[port_of(io.evict_port)].premature_evictions;
        evictions_.push_back({static_cast<int>(io.evict_port), io.evict_unit, io.evict_copies});
      }
      if (io.reclaim_valid) ++stats_[port_of(io.reclaim_port)].background_reclaims;
    });
  }

  // A port the block names in a notice: one of the leaf's, or the block is broken.
  size_t port_of(uint32_t port) const {
    if (port >= stats_.size())
      throw std::logic_error("RTL packet cache: a notice for port " + std::to_string(port) + " of " +
                             std::to_string(stats_.size()));
    return port;
  }

  Params params_;
  ClockedBlock<V> block_;
  std::vector<PortStats> stats_;
  std::vector<Eviction> evictions_;
  Cycle last_cycle_ = 0;
  bool written_ = false;
  bool error_ = false;
  int mirror_ = -1;
};

}  // namespace fabric::rtl
