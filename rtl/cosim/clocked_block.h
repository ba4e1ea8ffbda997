#pragma once
// A verilated block driven through the contract of rtl/README.md: one clock,
// synchronous reset, a command channel with valid and ready, time as an
// input. The block is clocked only while it has a command: the fabric model
// calls it from its own events, never from a free-running clock.
//
// V is the class Verilator made of the block (the contract's ports as
// members). Each block has its own VerilatedContext, so that blocks of
// partitions simulated on different threads share nothing.
#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "model/multicast/rtl_activity.h"
#include "model/multicast/rtl_blocks.h"

namespace fabric::rtl {

// A size parameter the block was built with (its p_* output) against the
// configuration's: they must agree.
inline void check_block_size(const char* block, const char* what, uint32_t built, uint32_t configured) {
  if (built != configured)
    throw std::invalid_argument(std::string("the RTL ") + block + " has " + std::to_string(built) + " " + what +
                                ", not " + std::to_string(configured));
}

template <class V>
class ClockedBlock {
 public:
  // A block that keeps cmd_ready low this many cycles is taken as hung.
  static constexpr int kMaxStallCycles = 1 << 16;
  // The most rising edges a registered query may take.
  static constexpr uint32_t kMaxQueryLatency = 16;

  ClockedBlock(const std::string& name, const TraceWindow& trace)
      : context_(std::make_unique<VerilatedContext>()), window_(trace) {
    if (!trace.path.empty()) context_->traceEverOn(true);
    block_ = std::make_unique<V>(context_.get(), name.c_str());
    if (!trace.path.empty()) {
      trace_ = std::make_unique<VerilatedFstC>();
      block_->trace(trace_.get(), 99);
      trace_->open(trace.path.c_str());
      if (!trace_->isOpen()) throw std::runtime_error("rtl.trace: cannot write " + trace.path);
    }
  }
  ~ClockedBlock() { finish(); }
  // Closes the waveform file (complete from then on); no edge after it is written.
  void finish() {
    if (!trace_) return;
    trace_->close();
    trace_.reset();
  }
  ClockedBlock(const ClockedBlock&) = delete;
  ClockedBlock& operator=(const ClockedBlock&) = delete;

  V& io() { return *block_; }
  // Commands, queries and rising edges so far (the reset's edges included).
  RtlActivity activity() const { return {commands_, queries_, edges_}; }
  const V& io() const { return *block_; }

  // A query whose inputs are set. A block whose query outputs are
  // combinational (p_query_latency 0) settles without a clock, and the
  // clock is left low so that the next command's rising edge needs one
  // evaluation, not two. A block that registers them (p_query_latency N) is
  // clocked N rising edges with cmd_valid low and the same `now`; its
  // outputs are read after the last (rtl/README.md, queries).
  void query() {
    ++queries_;
    if (query_latency_ == 0) {
      evaluate_with_clock_low();
      return;
    }
    block_->cmd_valid = 0;
    for (uint32_t i = 0; i < query_latency_; ++i) edge();
  }
  // The rising edges a query takes (the block's p_query_latency).
  uint32_t query_latency() const { return query_latency_; }

  // Reset held for two rising edges at cycle `now` (0 at power-up; the
  // qualification check also resets mid-traffic): the block samples its
  // configuration inputs, and its query latency is read.
  void reset(Cycle now = 0) {
    block_->cmd_valid = 0;
    block_->now = now;
    block_->rst = 1;
    edge();
    edge();
    block_->rst = 0;
    evaluate_with_clock_low();
    query_latency_ = block_->p_query_latency;
    if (query_latency_ > kMaxQueryLatency)
      throw std::invalid_argument("the RTL block reports p_query_latency " + std::to_string(query_latency_) +
                                  "; allowed: 0-" + std::to_string(kMaxQueryLatency) + " (rtl/README.md, queries)");
  }

  // A command whose inputs (but cmd_valid) are set, at cycle `now`: it waits
  // for cmd_ready, is accepted on one rising edge, and is done when
  // cmd_ready is high again. `after_edge` runs after every rising edge (to
  // collect registered notices). cmd_ready depends on the block's registers
  // only (rtl/README.md), so it is read where the last evaluation left it.
  template <class AfterEdge>
  void command(Cycle now, AfterEdge after_edge) {
    ++commands_;
    block_->now = now;
    block_->cmd_valid = 1;
    int cycles = 0;
    for (bool accepted = false; !accepted;) {
      accepted = block_->cmd_ready;
      edge();
      after_edge();
      stall_guard(++cycles);
      block_->cmd_valid = !accepted;
    }
    while (!block_->cmd_ready) {
      edge();
      after_edge();
      stall_guard(++cycles);
    }
  }

 private:
  void evaluate_with_clock_low() {
    block_->clk = 0;
    block_->eval();
    dump();
  }

  // One rising edge (the falling one first unless a query left the clock low).
  void edge() {
    if (block_->clk) {
      block_->clk = 0;
      block_->eval();
      dump();
    }
    block_->clk = 1;
    block_->eval();
    dump();
    ++edges_;
  }

  void dump() const {
    if (!trace_ || block_->now < window_.from || block_->now > window_.until) return;
    trace_time_ = std::max<uint64_t>(trace_time_ + 1, block_->now * window_.cycle_ps);
    trace_->dump(trace_time_);
  }

  static void stall_guard(int cycles) {
    if (cycles > kMaxStallCycles)
      throw std::runtime_error("RTL block kept cmd_ready low for " + std::to_string(kMaxStallCycles) +
                               " cycles: it is hung (rtl/README.md, the command channel)");
  }

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<V> block_;
  TraceWindow window_;
  std::unique_ptr<VerilatedFstC> trace_;
  mutable uint64_t trace_time_ = 0;
  uint64_t commands_ = 0;
  uint64_t queries_ = 0;
  uint64_t edges_ = 0;
  uint32_t query_latency_ = 0;
};

}  // namespace fabric::rtl
