// VOQ sync CAM of one port (spec: mechanisms 3), as a hardware block.
//
// One clock, synchronous active-high reset. Time is an input: `now` is the
// fabric model's leaf cycle (454 MHz), so the block is clocked only when the
// model has a command for it. A command is accepted on the rising edge where
// cmd_valid and cmd_ready are both high; the block is done with it when
// cmd_ready is high again. Change notices are registered: chg_valid is high
// for the one cycle after the edge that made the change. See rtl/README.md.
//
// Evaluated by Verilator, every continuous expression that reads an input
// is computed again at every call: only the VOQ matcher (one search port
// for queries and commands) is continuous. The searches (a free entry, the
// least recently used one, the timed-out ones) sit in the branches of the
// clocked process that use them: the same logic in hardware, evaluated only
// when needed. The configuration is sampled during reset.
//
// Entries: {valid, suspended, voq, ahead (pkts_ahead_cnt), suspended_at,
// last_use}. Least recently used: the smallest last_use; of entries used in
// the same cycle, the lowest index. A free entry is the lowest invalid index.
// A tick resumes the timed-out VOQs one per cycle, lowest index first
// (cmd_ready low until the last).
module sync_cam #(
    parameter int ENTRIES = 24,
    parameter int VOQ_W = 16,
    // Cycles one entry write (an allocation) occupies the CAM's tag array:
    // cmd_ready stays low for WRITE_CYCLES - 1 cycles after it.
    parameter int WRITE_CYCLES = 1
) (
    input  logic              clk,
    input  logic              rst,
    input  logic [63:0]       now,
    // configuration (sampled in reset)
    input  logic [31:0]       cfg_shi,      // suspend above
    input  logic [31:0]       cfg_slow,     // resume below
    input  logic [63:0]       cfg_timeout,  // cycles a VOQ stays suspended at most
    // the VOQ of a query or of a command: one CAM search port
    input  logic [VOQ_W-1:0]  voq,
    // command channel
    input  logic              cmd_valid,
    output logic              cmd_ready,
    input  logic [1:0]        cmd_op,       // 0 forward, 1 count down, 2 tick
    input  logic [31:0]       cmd_packets,
    // change notices
    output logic              chg_valid,
    output logic              chg_suspended,
    output logic [VOQ_W-1:0]  chg_voq,
    output logic [2:0]        chg_why,      // 0 ahead, 1 caught up, 2 timeout, 3 evicted, 4 released
    // query (combinational): the VOQ's entry
    output logic              q_suspended,
    output logic [31:0]       q_ahead,
    // state
    output logic [15:0]       used_entries,
    output logic [15:0]       suspended_count,
    output logic [63:0]       evictions,
    output logic [63:0]       next_timeout,
    output logic [15:0]       p_entries,
    output logic [7:0]        p_query_latency  // QUERY_LATENCY: 0, the queries are combinational
);
  // The contract's query latency (rtl/README.md): 0, the query outputs are
  // combinational.
  localparam int QUERY_LATENCY = 0;
  localparam int IW = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;
  localparam logic [1:0] OP_FORWARD = 2'd0, OP_COUNT_DOWN = 2'd1, OP_TICK = 2'd2;
  localparam logic [2:0] WHY_AHEAD = 3'd0, WHY_CAUGHT_UP = 3'd1, WHY_TIMEOUT = 3'd2, WHY_EVICTED = 3'd3,
                         WHY_RELEASED = 3'd4;

  logic             valid_q     [ENTRIES];
  logic             suspended_q [ENTRIES];
  logic [VOQ_W-1:0] voq_q       [ENTRIES];
  logic [31:0]      ahead_q     [ENTRIES];
  logic [63:0]      susp_at_q   [ENTRIES];
  logic [63:0]      last_use_q  [ENTRIES];
  logic [63:0]      evictions_q;
  logic [15:0]      used_q, suspended_n_q;

  // A second change notice of one command, shown the cycle after the first.
  logic             pend_valid_q, pend_suspended_q;
  logic [VOQ_W-1:0] pend_voq_q;
  logic [2:0]       pend_why_q;
  logic             ticking_q;      // more timed-out VOQs to resume
  logic [63:0]      tick_now_q;     // the cycle of the tick being served
  logic [15:0]      write_busy_q;
  logic [31:0]      shi_q, slow_q;  // the configuration, sampled in reset
  logic [63:0]      timeout_q;

  // ---- combinational: the VOQ matcher (reads inputs) -----------------------
  logic          hit;
  logic [IW-1:0] idx;
  always_comb begin
    hit = 1'b0; idx = '0;
    for (int i = ENTRIES - 1; i >= 0; i--)  // downwards: the lowest index wins
      if (valid_q[i] && voq_q[i] == voq) begin hit = 1'b1; idx = IW'(i); end
  end

  // ---- combinational: the earliest timeout (reads registers only) ----------
  logic [63:0] earliest;
  always_comb begin
    earliest = '1;
    for (int i = 0; i < ENTRIES; i++)
      if (valid_q[i] && suspended_q[i] && susp_at_q[i] + timeout_q < earliest) earliest = susp_at_q[i] + timeout_q;
  end

  assign cmd_ready       = !pend_valid_q && !ticking_q && write_busy_q == 0;
  assign q_suspended     = hit && suspended_q[idx];
  assign q_ahead         = hit ? ahead_q[idx] : 32'd0;
  assign used_entries    = used_q;
  assign suspended_count = suspended_n_q;
  assign evictions       = evictions_q;
  assign next_timeout    = earliest;
  assign p_entries       = 16'(ENTRIES);
  assign p_query_latency = 8'(QUERY_LATENCY);

  // ---- sequential ----------------------------------------------------------
  // The entry a new VOQ takes: the lowest free one, else the least recently used.
  function automatic logic [IW-1:0] victim();
    logic          free_found;
    logic [IW-1:0] free_i, lru;
    free_found = 1'b0; free_i = '0; lru = '0;
    for (int i = ENTRIES - 1; i >= 0; i--)
      if (!valid_q[i]) begin free_found = 1'b1; free_i = IW'(i); end
    for (int i = 1; i < ENTRIES; i++)  // upwards, strictly older: the lowest index wins ties
      if (last_use_q[i] < last_use_q[lru]) lru = IW'(i);
    return free_found ? free_i : lru;
  endfunction

  // {the lowest-index suspended VOQ timed out at `at`, whether another one is}
  function automatic logic [IW+1:0] timed_out(input logic [63:0] at);
    logic          found, more;
    logic [IW-1:0] first;
    found = 1'b0; more = 1'b0; first = '0;
    for (int i = 0; i < ENTRIES; i++)
      if (valid_q[i] && suspended_q[i] && susp_at_q[i] + timeout_q <= at) begin
        if (found) more = 1'b1;
        else begin found = 1'b1; first = IW'(i); end
      end
    return {found, more, first};
  endfunction

  // Resumes the first timed-out VOQ at `at`; ticking while others are.
  task automatic resume_timed_out(input logic [63:0] at);
    logic [IW+1:0] t;
    t = timed_out(at);
    if (t[IW+1]) begin
      suspended_q[t[IW-1:0]] <= 1'b0;
      suspended_n_q <= suspended_n_q - 16'd1;
      chg_valid <= 1'b1; chg_suspended <= 1'b0; chg_voq <= voq_q[t[IW-1:0]]; chg_why <= WHY_TIMEOUT;
    end
    ticking_q <= t[IW];
  endtask

  logic [31:0] counted;  // the count after a count-down
  always_comb counted = ahead_q[idx] > cmd_packets ? ahead_q[idx] - cmd_packets : 32'd0;

  always_ff @(posedge clk) begin
    if (rst) begin
      for (int i = 0; i < ENTRIES; i++) begin
        valid_q[i] <= 1'b0; suspended_q[i] <= 1'b0; last_use_q[i] <= '0;
      end
      evictions_q <= '0; used_q <= '0; suspended_n_q <= '0;
      pend_valid_q <= 1'b0; pend_suspended_q <= 1'b0; pend_voq_q <= '0; pend_why_q <= '0;
      ticking_q <= 1'b0; tick_now_q <= '0; write_busy_q <= '0;
      shi_q <= cfg_shi; slow_q <= cfg_slow; timeout_q <= cfg_timeout;
      chg_valid <= 1'b0; chg_suspended <= 1'b0; chg_voq <= '0; chg_why <= '0;
    end else begin
      chg_valid <= 1'b0;
      if (write_busy_q != 0) write_busy_q <= write_busy_q - 16'd1;
      if (pend_valid_q) begin
        chg_valid <= 1'b1; chg_suspended <= pend_suspended_q; chg_voq <= pend_voq_q; chg_why <= pend_why_q;
        pend_valid_q <= 1'b0;
      end else if (ticking_q) begin
        resume_timed_out(tick_now_q);
      end else if (cmd_valid && cmd_ready) begin
        case (cmd_op)
          OP_FORWARD: begin
            // The VOQ's entry, or a new one (the LRU's VOQ is evicted and released).
            logic [IW-1:0] e;
            logic [31:0]   sum;
            logic          was_suspended, evicted_suspended;
            e = hit ? idx : victim();
            sum = (hit ? ahead_q[e] : 32'd0) + cmd_packets;
            was_suspended = hit && suspended_q[e];
            evicted_suspended = !hit && valid_q[e] && suspended_q[e];
            if (!hit) begin
              write_busy_q <= 16'(WRITE_CYCLES - 1);
              if (valid_q[e]) evictions_q <= evictions_q + 64'd1;
              else used_q <= used_q + 16'd1;
              if (evicted_suspended) begin
                chg_valid <= 1'b1; chg_suspended <= 1'b0; chg_voq <= voq_q[e]; chg_why <= WHY_EVICTED;
              end
              valid_q[e] <= 1'b1;
              voq_q[e] <= voq;
              susp_at_q[e] <= '0;
            end
            ahead_q[e] <= sum;
            last_use_q[e] <= now;
            suspended_q[e] <= was_suspended;
            if (!was_suspended && sum > shi_q) begin
              suspended_q[e] <= 1'b1;
              susp_at_q[e] <= now;
              if (!evicted_suspended) suspended_n_q <= suspended_n_q + 16'd1;
              if (evicted_suspended) begin  // the second notice of this command
                pend_valid_q <= 1'b1; pend_suspended_q <= 1'b1; pend_voq_q <= voq; pend_why_q <= WHY_AHEAD;
              end else begin
                chg_valid <= 1'b1; chg_suspended <= 1'b1; chg_voq <= voq; chg_why <= WHY_AHEAD;
              end
            end else if (evicted_suspended) begin
              suspended_n_q <= suspended_n_q - 16'd1;
            end
          end
          OP_COUNT_DOWN: begin
            if (hit) begin
              ahead_q[idx] <= counted;
              last_use_q[idx] <= now;
              if (counted == 0) begin
                valid_q[idx] <= 1'b0;
                used_q <= used_q - 16'd1;
                suspended_q[idx] <= 1'b0;
                if (suspended_q[idx]) begin
                  suspended_n_q <= suspended_n_q - 16'd1;
                  chg_valid <= 1'b1; chg_suspended <= 1'b0; chg_voq <= voq; chg_why <= WHY_RELEASED;
                end
              end else if (suspended_q[idx] && counted < slow_q) begin
                suspended_q[idx] <= 1'b0;
                suspended_n_q <= suspended_n_q - 16'd1;
                chg_valid <= 1'b1; chg_suspended <= 1'b0; chg_voq <= voq; chg_why <= WHY_CAUGHT_UP;
              end
            end
          end
          OP_TICK: begin
            tick_now_q <= now;
            resume_timed_out(now);
          end
          default: ;
        endcase
      end
    end
  end
endmodule
