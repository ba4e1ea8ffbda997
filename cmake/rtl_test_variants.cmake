# Variants for the tests only (fabric_rtl_test_variants, linked into
# fabric_tests alone), each verilated once:
# - our blocks at the sizes the unit tests use (sync CAMs of 2, 3 and 24
#   entries, caches of 4, 16 and 128), and a CAM of 4 whose entry writes
#   take three cycles (the contract's stall path);
# - mutants: our blocks with one deliberate bug each, at the default sizes
#   (sync CAM 24, cache 128), which the qualification check must fail
#   (tests/unit/rtl_qualification_test.cpp), among them one per input width
#   (fewer bits of a VOQ id, a unit, the time, a count);
# - fixtures/registered_query_sync_cam.sv: a CAM whose query outputs are
#   registered (the contract's query latency), honest and lying.
# What links fabric_rtl_test_variants (the tests) sees the variants' headers.
add_library(fabric_rtl_test_variants INTERFACE)
target_include_directories(fabric_rtl_test_variants INTERFACE ${CMAKE_SOURCE_DIR})

function(fabricsim_test_variant prefix top sources)
  fabricsim_verilate(TARGET fabric_rtl_test_variants PREFIX ${prefix} TOP ${top} SOURCES ${sources} ARGS ${ARGN})
endfunction()

# A mutant of rtl/<block>.sv: each OLD NEW pair of ARGN replaced (the bug),
# written to the build tree and verilated at `entries`. A pair whose OLD is
# no longer in the block stops the configure: the mutant would be the block.
function(fabricsim_mutant prefix block entries)
  file(READ ${CMAKE_SOURCE_DIR}/rtl/${block}.sv text)
  # ARGV<i>, not ARGN: a pair's text may hold semicolons.
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 3 ${last} 2)
    math(EXPR j "${i} + 1")
    set(old "${ARGV${i}}")
    set(new "${ARGV${j}}")
    string(FIND "${text}" "${old}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "rtl/${block}.sv no longer has the text the mutant ${prefix} changes (${old}): "
                          "update cmake/rtl_test_variants.cmake")
    endif()
    string(REPLACE "${old}" "${new}" text "${text}")
  endforeach()
  set(path "${CMAKE_BINARY_DIR}/rtl-test/${prefix}.sv")
  fabricsim_write_if_changed(${path}
    "// Generated from rtl/${block}.sv by cmake/rtl_test_variants.cmake: a mutant (a bug the tests must catch)\n${text}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/rtl/${block}.sv)
  fabricsim_test_variant(${prefix} ${block} ${path} -GENTRIES=${entries} ${FABRICSIM_RTL_BASE_ARGS_${block}})
endfunction()

set(ours_sync ${CMAKE_SOURCE_DIR}/rtl/sync_cam.sv)
set(ours_cache ${CMAKE_SOURCE_DIR}/rtl/packet_cache.sv)
# Our blocks at every size the unit tests use, whatever block this build was
# configured with (the unit tests are about ours; a user's block is
# qualified by fabricsim-rtl-check and tests/integration/rtl_blocks_test.cpp).
foreach(entries 2 3 24)
  fabricsim_test_variant(Vtest_sync_cam_${entries} sync_cam ${ours_sync} -GENTRIES=${entries})
endforeach()
foreach(entries 4 16 128)
  fabricsim_test_variant(Vtest_packet_cache_${entries} packet_cache ${ours_cache} -GENTRIES=${entries}
                         ${FABRICSIM_RTL_BASE_ARGS_packet_cache})
endforeach()
fabricsim_test_variant(Vstall_sync_cam sync_cam ${ours_sync} -GENTRIES=4 -GWRITE_CYCLES=3)

# Shi compared by >= (tests/unit/rtl_lockstep_test.cpp).
fabricsim_mutant(Vbroken_sync_cam sync_cam 24 "!was_suspended && sum > shi_q" "!was_suspended && sum >= shi_q")
# LRU ties broken in access order, not by the lowest index: last use is
# {now, a count of accesses}.
fabricsim_mutant(Vmutant_sync_cam_tie_by_access sync_cam 24
  "  logic [63:0]      evictions_q;\n"
  "  logic [63:0]      evictions_q;\n  logic [15:0]      accesses_q = '0;  // MUTANT\n"
  "last_use_q[e] <= now;" "last_use_q[e] <= {now[47:0], accesses_q}; accesses_q <= accesses_q + 16'd1;"
  "last_use_q[idx] <= now;" "last_use_q[idx] <= {now[47:0], accesses_q}; accesses_q <= accesses_q + 16'd1;")
# A tick that resumes nothing.
fabricsim_mutant(Vmutant_sync_cam_tick_resumes_nothing sync_cam 24
  "            tick_now_q <= now;\n            resume_timed_out(now);\n" "            tick_now_q <= now;\n")
# Timed-out VOQs resumed highest index first.
fabricsim_mutant(Vmutant_sync_cam_resume_highest_first sync_cam 24
  "for (int i = 0; i < ENTRIES; i++)\n      if (valid_q[i] && suspended_q[i] && susp_at_q[i] + timeout_q <= at)"
  "for (int i = ENTRIES - 1; i >= 0; i--)\n      if (valid_q[i] && suspended_q[i] && susp_at_q[i] + timeout_q <= at)")
# Widths (issue 53): a CAM that compares only the low 6 bits of the VOQ id;
# one that keeps only the low 32 bits of the cycles it stores (last use,
# suspended at); one whose packet counts (pkts_ahead_cnt) keep 16 bits.
fabricsim_mutant(Vmutant_sync_cam_voq_low_6_bits sync_cam 24
  "if (valid_q[i] && voq_q[i] == voq) begin" "if (valid_q[i] && voq_q[i][5:0] == voq[5:0]) begin")
fabricsim_mutant(Vmutant_sync_cam_time_32_bits sync_cam 24
  "last_use_q[e] <= now;" "last_use_q[e] <= {32'd0, now[31:0]};"
  "susp_at_q[e] <= now;" "susp_at_q[e] <= {32'd0, now[31:0]};"
  "last_use_q[idx] <= now;" "last_use_q[idx] <= {32'd0, now[31:0]};")
fabricsim_mutant(Vmutant_sync_cam_count_16_bits sync_cam 24
  "ahead_q[e] <= sum;" "ahead_q[e] <= {16'd0, sum[15:0]};"
  "ahead_q[idx] <= counted;" "ahead_q[idx] <= {16'd0, counted[15:0]};")
# The cache's LRU ties broken by the highest address.
fabricsim_mutant(Vmutant_packet_cache_tie_highest packet_cache 128
  "(!found || last_use_q[a] < last_use_q[best])" "(!found || last_use_q[a] <= last_use_q[best])")
# A dead entry taken as still being read in the cycle its reads complete.
fabricsim_mutant(Vmutant_packet_cache_reads_end_late packet_cache 128
  "(copies_q[a] == 0 && done_q[a] <= now)" "(copies_q[a] == 0 && done_q[a] < now)")

# The cache's widths: a tag matcher comparing the low 16 bits of the buffer
# unit; a cache keeping the low 32 bits of the cycles it stores at a write.
fabricsim_mutant(Vmutant_packet_cache_unit_low_16_bits packet_cache 128
  "if (tag_q[a] == {1'b1, tag_port, tag_unit}) begin"
  "if (tag_q[a][TW-1:UNIT_W] == {1'b1, tag_port} && tag_q[a][15:0] == tag_unit[15:0]) begin")
fabricsim_mutant(Vmutant_packet_cache_time_32_bits packet_cache 128
  "ready_at_q[a] <= now + 64'(header_lag_q);" "ready_at_q[a] <= 64'(32'(now + 64'(header_lag_q)));"
  "last_use_q[a] <= now;" "last_use_q[a] <= 64'(now[31:0]);")

# Registered query outputs: one and two cycles, and a block that registers
# one cycle but reports none.
set(registered ${CMAKE_SOURCE_DIR}/tests/rtl/fixtures/registered_query_sync_cam.sv)
fabricsim_test_variant(Vregistered_sync_cam_1 registered_query_sync_cam "${ours_sync};${registered}" -GQUERY_LATENCY=1)
fabricsim_test_variant(Vregistered_sync_cam_2 registered_query_sync_cam "${ours_sync};${registered}" -GQUERY_LATENCY=2)
fabricsim_test_variant(Vregistered_sync_cam_lying registered_query_sync_cam "${ours_sync};${registered}"
                       -GQUERY_LATENCY=1 -GREPORTED_LATENCY=0)
