// The multicast packet cache's controller of one leaf (spec: mechanisms 2),
// as a hardware block: which entry holds which port's packet, the tags, LRU,
// background reclaim and eviction, the write port's and the mirrors' busy
// times. The
// payload SRAMs themselves are not modelled.
//
// One clock, synchronous active-high reset. Time is an input: `now` is the
// leaf cycle of the fabric model, which clocks the block only when it has a
// command. A command is accepted on the rising edge where cmd_valid and
// cmd_ready are high; its one response is registered (rsp_valid high for one
// cycle) on the edge after which cmd_ready is high again. See rtl/README.md.
//
// Evaluated by Verilator, every continuous expression that reads an input
// is computed again at every call: only the tag matcher (one search port,
// live bit, port and unit in one word per entry) and the mirrors are
// continuous. The searches for a victim (the least recently used dead entry
// whose reads have completed, else live entry) sit in the branches of the
// clocked process that use them: the same logic in hardware, evaluated only
// when a write or a reclaim needs it. The configuration is sampled during
// reset. Every command takes one cycle: cmd_ready is high out of reset.
//
// Entry life: live (copies_left > 0; its tag matches), dead (copies_left = 0:
// the tag is gone), free (on the free stack). Least recently used: the
// smallest last_use; of entries used in the same cycle, the lowest address.
// Free entries are taken from a stack: address 0 first after reset, and an
// entry freed last is the one used next. A write starts only once the
// previous one has completed, so every live entry is fully written whenever
// a write looks for a victim.
module packet_cache #(
    parameter int ENTRIES = 128,
    parameter int MIRRORS = 8,
    parameter int PORT_W = 8,
    parameter int UNIT_W = 32
) (
    input  logic              clk,
    input  logic              rst,
    input  logic [63:0]       now,
    // configuration (sampled in reset)
    input  logic [15:0]       cfg_header_lag,           // cycles from a write's start to its first header
    input  logic [15:0]       cfg_background_free_min,  // reclaim while fewer entries are free
    input  logic              cfg_background_evict_live, // and, with no dead entry to reclaim, evict an idle live one
    // command channel
    input  logic              cmd_valid,
    output logic              cmd_ready,
    input  logic [1:0]        cmd_op,        // 0 pass through, 1 issue, 2 forget copy, 3 end cycle
    input  logic [15:0]       cmd_cycles,    // the packet's cycles on an interface or a mirror
    input  logic [15:0]       cmd_copies,    // pass through: copies still to come
    // responses
    output logic              rsp_valid,
    output logic              rsp_written,       // pass through: stored for the copies to come
    output logic              rsp_mirror_valid,  // issue: a mirror streams it
    output logic [7:0]        rsp_mirror,
    output logic              rsp_error,         // a write of a packet it holds, or a header that does not hit
    output logic              evict_valid,       // a live entry evicted by this write or end cycle: its owner's notice
    output logic [PORT_W-1:0] evict_port,
    output logic [UNIT_W-1:0] evict_unit,
    output logic [15:0]       evict_copies,
    output logic              reclaim_valid,     // end cycle: a dead entry freed in the background
    output logic [PORT_W-1:0] reclaim_port,
    // the tag of a query or of a command: one CAM search port
    input  logic [PORT_W-1:0] tag_port,
    input  logic [UNIT_W-1:0] tag_unit,
    // query (combinational): the tag's look-up at `now`
    output logic [1:0]        q_state,       // 0 miss, 1 hit, 2 filling
    output logic [63:0]       q_ready_at,
    // state
    output logic [15:0]       live_count,
    output logic [15:0]       dead_count,
    output logic              background_work,
    output logic [63:0]       mirror_free_at,  // the first cycle at or after `now` with a mirror free
    output logic [15:0]       p_entries,
    output logic [15:0]       p_mirrors,
    output logic [7:0]        p_query_latency  // QUERY_LATENCY: 0, the queries are combinational
);
  // The contract's query latency (rtl/README.md): 0, the query outputs are
  // combinational.
  localparam int QUERY_LATENCY = 0;
  localparam int AW = (ENTRIES > 1) ? $clog2(ENTRIES) : 1;
  localparam int MW = (MIRRORS > 1) ? $clog2(MIRRORS) : 1;
  localparam int TW = 1 + PORT_W + UNIT_W;  // a tag word: {live, port, unit}
  localparam logic [1:0] OP_PASS = 2'd0, OP_ISSUE = 2'd1, OP_FORGET = 2'd2, OP_END_CYCLE = 2'd3;

  logic              valid_q    [ENTRIES];  // live or dead
  logic [TW-1:0]     tag_q      [ENTRIES];  // live bit (copies to come), port, unit
  logic [15:0]       copies_q   [ENTRIES];
  logic [63:0]       ready_at_q [ENTRIES];
  logic [63:0]       done_q     [ENTRIES];  // its write and the reads issued so far complete
  logic [63:0]       last_use_q [ENTRIES];
  logic [AW-1:0]     stack_q    [ENTRIES];  // free addresses; the top is stack_q[top_q - 1]
  logic [AW:0]       top_q;
  logic [63:0]       mirror_busy_q [MIRRORS];
  logic [63:0]       write_busy_q;
  logic [63:0]       last_write_q;
  logic [15:0]       live_q, dead_q;
  logic [15:0]       header_lag_q, free_min_q;  // the configuration, sampled in reset
  logic              evict_live_q;

  // ---- combinational: the tag matcher and the mirrors (read inputs) --------
  logic          hit, mirror_found;
  logic [AW-1:0] idx;
  logic [MW-1:0] mirror_idx;
  logic [63:0]   mirror_earliest;
  always_comb begin
    hit = 1'b0; idx = '0;
    for (int a = 0; a < ENTRIES; a++)
      if (tag_q[a] == {1'b1, tag_port, tag_unit}) begin hit = 1'b1; idx = AW'(a); end
    mirror_found = 1'b0; mirror_idx = '0;
    mirror_earliest = '1;
    for (int m = MIRRORS - 1; m >= 0; m--) begin  // downwards: the lowest free mirror wins
      if (mirror_busy_q[m] <= now) begin mirror_found = 1'b1; mirror_idx = MW'(m); end
      if ((mirror_busy_q[m] > now ? mirror_busy_q[m] : now) < mirror_earliest)
        mirror_earliest = mirror_busy_q[m] > now ? mirror_busy_q[m] : now;
    end
  end

  logic [15:0] free_n;
  assign free_n          = 16'(ENTRIES) - live_q - dead_q;
  assign cmd_ready       = 1'b1;
  assign q_state         = !hit ? 2'd0 : (ready_at_q[idx] <= now ? 2'd1 : 2'd2);
  assign q_ready_at      = hit ? ready_at_q[idx] : 64'd0;
  assign live_count      = live_q;
  assign dead_count      = dead_q;
  assign background_work = free_n < free_min_q && (dead_q != 0 || (evict_live_q && live_q != 0));
  assign mirror_free_at  = mirror_earliest;
  assign p_entries       = 16'(ENTRIES);
  assign p_query_latency = 8'(QUERY_LATENCY);
  assign p_mirrors       = 16'(MIRRORS);

  // ---- sequential ----------------------------------------------------------
  // The least recently used entry among the live ones (copies to come), the
  // dead ones whose write and reads have completed at `now`, or the live
  // ones whose write and reads have completed (idle).
  localparam logic [1:0] LRU_LIVE = 2'd0, LRU_DEAD = 2'd1, LRU_IDLE_LIVE = 2'd2;
  function automatic logic [AW:0] least_recently_used(input logic [1:0] among);  // {found, address}
    logic          found, candidate;
    logic [AW-1:0] best;
    found = 1'b0; best = '0;
    for (int a = 0; a < ENTRIES; a++) begin
      candidate = among == LRU_DEAD ? (copies_q[a] == 0 && done_q[a] <= now)
                : among == LRU_IDLE_LIVE ? (copies_q[a] != 0 && done_q[a] <= now) : copies_q[a] != 0;
      if (valid_q[a] && candidate && (!found || last_use_q[a] < last_use_q[best])) begin
        found = 1'b1; best = AW'(a);
      end
    end
    return {found, best};
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      for (int a = 0; a < ENTRIES; a++) begin
        valid_q[a] <= 1'b0;
        tag_q[a] <= '0;
        stack_q[a] <= AW'(ENTRIES - 1 - a);  // address 0 on top
      end
      top_q <= (AW+1)'(ENTRIES);
      for (int m = 0; m < MIRRORS; m++) mirror_busy_q[m] <= '0;
      write_busy_q <= '0; last_write_q <= '1;
      live_q <= '0; dead_q <= '0;
      header_lag_q <= cfg_header_lag; free_min_q <= cfg_background_free_min;
      evict_live_q <= cfg_background_evict_live;
      rsp_valid <= 1'b0; rsp_written <= 1'b0; rsp_mirror_valid <= 1'b0; rsp_mirror <= '0; rsp_error <= 1'b0;
      evict_valid <= 1'b0; evict_port <= '0; evict_unit <= '0; evict_copies <= '0;
      reclaim_valid <= 1'b0; reclaim_port <= '0;
    end else begin
      rsp_valid <= 1'b0; rsp_written <= 1'b0; rsp_mirror_valid <= 1'b0; rsp_error <= 1'b0;
      evict_valid <= 1'b0; reclaim_valid <= 1'b0;
      if (cmd_valid) begin
        rsp_valid <= 1'b1;
        case (cmd_op)
          OP_PASS: begin
            // One writer at a time, one write per cycle; a free entry, else
            // a dead one, else the least recently used live one (evicted).
            if (cmd_copies != 0 && now >= write_busy_q && last_write_q != now) begin
              logic [AW:0]   dead, live;
              logic [AW-1:0] a;
              logic          ok;
              dead = '0; live = '0; a = '0; ok = 1'b1;
              if (hit) begin
                rsp_error <= 1'b1;
                ok = 1'b0;
              end else if (top_q != 0) begin
                a = stack_q[top_q - 1];
                top_q <= top_q - 1'b1;
                live_q <= live_q + 16'd1;
              end else begin
                dead = least_recently_used(LRU_DEAD);
                live = least_recently_used(LRU_LIVE);
                if (dead[AW]) begin
                  a = dead[AW-1:0];
                  dead_q <= dead_q - 16'd1;
                  live_q <= live_q + 16'd1;
                end else if (live[AW]) begin
                  a = live[AW-1:0];  // live before and after: the count stays
                  evict_valid <= 1'b1; evict_port <= tag_q[a][PORT_W+UNIT_W-1:UNIT_W];
                  evict_unit <= tag_q[a][UNIT_W-1:0]; evict_copies <= copies_q[a];
                end else begin
                  ok = 1'b0;
                end
              end
              if (ok) begin
                valid_q[a] <= 1'b1;
                tag_q[a] <= {1'b1, tag_port, tag_unit};
                copies_q[a] <= cmd_copies;
                ready_at_q[a] <= now + 64'(header_lag_q);
                done_q[a] <= now + 64'(cmd_cycles);
                last_use_q[a] <= now;
                write_busy_q <= now + 64'(cmd_cycles);
                last_write_q <= now;
                rsp_written <= 1'b1;
              end
            end
          end
          OP_ISSUE: begin
            if (!hit || ready_at_q[idx] > now) begin
              rsp_error <= 1'b1;
            end else if (mirror_found) begin
              mirror_busy_q[mirror_idx] <= now + 64'(cmd_cycles);
              last_use_q[idx] <= now;
              if (now + 64'(cmd_cycles) > done_q[idx]) done_q[idx] <= now + 64'(cmd_cycles);
              copies_q[idx] <= copies_q[idx] - 16'd1;
              if (copies_q[idx] == 16'd1) begin  // the last reader: dead, its tag gone
                tag_q[idx][TW-1] <= 1'b0;
                live_q <= live_q - 16'd1;
                dead_q <= dead_q + 16'd1;
              end
              rsp_mirror_valid <= 1'b1;
              rsp_mirror <= 8'(mirror_idx);
            end
          end
          OP_FORGET: begin
            if (hit) begin
              copies_q[idx] <= copies_q[idx] - 16'd1;
              if (copies_q[idx] == 16'd1) begin
                tag_q[idx][TW-1] <= 1'b0;
                live_q <= live_q - 16'd1;
                dead_q <= dead_q + 16'd1;
              end
            end
          end
          OP_END_CYCLE: begin
            // In the background: one dead entry no longer being read, else
            // (if configured) the least recently used idle live one, evicted.
            if (background_work) begin
              logic [AW:0] dead, idle;
              dead = least_recently_used(LRU_DEAD);
              idle = '0;
              if (dead[AW]) begin
                valid_q[dead[AW-1:0]] <= 1'b0;
                stack_q[top_q[AW-1:0]] <= dead[AW-1:0];
                top_q <= top_q + 1'b1;
                dead_q <= dead_q - 16'd1;
                reclaim_valid <= 1'b1;
                reclaim_port <= tag_q[dead[AW-1:0]][PORT_W+UNIT_W-1:UNIT_W];
              end else if (evict_live_q) begin
                idle = least_recently_used(LRU_IDLE_LIVE);
                if (idle[AW]) begin
                  valid_q[idle[AW-1:0]] <= 1'b0;
                  tag_q[idle[AW-1:0]] <= '0;
                  stack_q[top_q[AW-1:0]] <= idle[AW-1:0];
                  top_q <= top_q + 1'b1;
                  live_q <= live_q - 16'd1;
                  evict_valid <= 1'b1; evict_port <= tag_q[idle[AW-1:0]][PORT_W+UNIT_W-1:UNIT_W];
                  evict_unit <= tag_q[idle[AW-1:0]][UNIT_W-1:0]; evict_copies <= copies_q[idle[AW-1:0]];
                end
              end
            end
          end
          default: ;
        endcase
      end
    end
  end
endmodule
