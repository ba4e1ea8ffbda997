# The RTL blocks (rtl/): verilated into fabric_rtl when Verilator is found,
# under the contract's fixed names Vfabric_sync_cam_<N> and
# Vfabric_packet_cache_<N>. A user brings their own block with the
# FABRICSIM_RTL_<BLOCK>_* options; it is checked against the contract's ports
# at configure time. Without Verilator, fabric_rtl says so (leaf.*.impl = rtl
# is refused). Paths in the options are relative to the source checkout.

set(FABRICSIM_RTL_SYNC_SOURCES "" CACHE STRING "your sync CAM's Verilog/SystemVerilog files (;-list); empty: rtl/sync_cam.sv")
set(FABRICSIM_RTL_SYNC_TOP "" CACHE STRING "your sync CAM's top module (with FABRICSIM_RTL_SYNC_SOURCES)")
set(FABRICSIM_RTL_SYNC_LINT_ARGS "" CACHE STRING "Verilator arguments the sync CAM's contract lint needs (;-list: -I, -D, -y and +libext+)")
set(FABRICSIM_RTL_SYNC_ARGS "" CACHE STRING "extra Verilator arguments for the sync CAM's build (;-list: -I, -D, -G, -Wno-)")
set(FABRICSIM_RTL_CACHE_SOURCES "" CACHE STRING "your packet cache's Verilog/SystemVerilog files (;-list); empty: rtl/packet_cache.sv")
set(FABRICSIM_RTL_CACHE_TOP "" CACHE STRING "your packet cache's top module (with FABRICSIM_RTL_CACHE_SOURCES)")
set(FABRICSIM_RTL_CACHE_LINT_ARGS "" CACHE STRING "Verilator arguments the packet cache's contract lint needs (;-list: -I, -D, -y and +libext+)")
set(FABRICSIM_RTL_CACHE_ARGS "" CACHE STRING "extra Verilator arguments for the packet cache's build (;-list: -I, -D, -G, -Wno-)")
# Sizes are the blocks' parameters (ENTRIES, MIRRORS): one verilated variant
# per size, and a run picks the one its configuration names.
set(FABRICSIM_RTL_SYNC_ENTRIES "24" CACHE STRING "the sync CAM sizes to build (;-list of ENTRIES)")
set(FABRICSIM_RTL_CACHE_ENTRIES "16;32;64;128" CACHE STRING "the packet cache sizes to build (;-list of ENTRIES)")
set(FABRICSIM_RTL_CACHE_MIRRORS "8" CACHE STRING "the packet cache's MIRRORS")

find_package(verilator QUIET)

if(NOT verilator_FOUND)
  message(STATUS "fabricsim: Verilator not found: building without the RTL blocks "
                 "(leaf.sync.impl / leaf.cache.impl = rtl or lockstep will be refused). "
                 "Install it: apt-get install verilator")
  add_library(fabric_rtl STATIC rtl/cosim/no_rtl.cpp)
  target_include_directories(fabric_rtl PRIVATE ${CMAKE_SOURCE_DIR})
  set(FABRICSIM_HAVE_RTL OFF)
  return()
endif()
set(FABRICSIM_HAVE_RTL ON)
include(cmake/verilate.cmake)
include(cmake/rtl_query_latency.cmake)

# Lints a block against its contract: a wrapper binds the contract's ports
# by name to TOP; Verilator's message is the configure error. The user's
# lint arguments come first, then the contract's checks, forced back on
# whatever those said (a -Wno-WIDTH; a -Wno-PINNOTFOUND, which makes
# Verilator 5.006 fault, is an error again). A lint_on in the wrapper does
# not undo a -Wno- of the command line. Any error, or any warning in the
# wrapper, fails: -Wno-fatal cannot let a wrong width through. Warnings in
# the user's own sources are theirs. The wrapper's file is named after its
# module, so that -Wall finds nothing in it (DECLFILENAME).
# The ports the contract gained after its first version, with the date (rtl/README.md, "Changes to the contract").
set(FABRICSIM_RTL_ADDED_PORTS "cfg_background_evict_live=2026-11-26;p_query_latency=2026-11-26")
function(fabricsim_check_contract block top sources lint_args)
  set(wrapper fabric_${block}_contract)
  set(check "${CMAKE_BINARY_DIR}/rtl-contract/${wrapper}.sv")
  set(TOP ${top})
  configure_file(${CMAKE_SOURCE_DIR}/rtl/contract/${block}_contract.sv.in ${check} @ONLY)
  execute_process(COMMAND ${VERILATOR_BIN} --lint-only --no-timing ${lint_args} ${sources} ${check}
                          --top-module ${wrapper} -Wwarn-WIDTH -Wwarn-PINNOTFOUND -Werror-PINNOTFOUND
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc OR out MATCHES "%Error" OR out MATCHES "%Warning-[A-Z0-9_]+: [^ \n]*${wrapper}\\.sv:")
    string(TOUPPER ${block} option)
    string(REPLACE "SYNC_CAM" "SYNC" option ${option})
    string(REPLACE "PACKET_CACHE" "CACHE" option ${option})
    # What failed, in the headline: a file or module Verilator cannot find is a missing
    # search path of the lint, not a block that breaks the contract.
    string(REGEX MATCH "Cannot find file containing module: '?([A-Za-z0-9_$]+)" module "${out}")
    set(missing "${CMAKE_MATCH_1}")
    if(NOT missing)
      string(REGEX MATCH "Cannot find include file: '?([^ '\n]+)" include "${out}")
      set(missing "${CMAKE_MATCH_1}")
    endif()
    if(missing)
      message(FATAL_ERROR "fabricsim: the lint of the ${block} block (top ${top}) cannot find "
                          "'${missing}': give its folder in FABRICSIM_RTL_${option}_LINT_ARGS (and _ARGS), "
                          "-y DIR and +libext+.sv for a library's modules, -I DIR for an include; the block was "
                          "not checked against the contract yet. Verilator says:\n${out}")
    endif()
    # A port the contract gained after the block was written: say when, and where the change is.
    set(newer "")
    string(REGEX MATCH "Pin not found: '([A-Za-z0-9_]+)'" pin "${out}")
    foreach(added ${FABRICSIM_RTL_ADDED_PORTS})
      string(REPLACE "=" ";" added "${added}")
      list(GET added 0 port)
      list(GET added 1 date)
      if(CMAKE_MATCH_1 STREQUAL port)
        set(newer " The contract gained the port '${port}' on ${date}: a block written before adds it "
                  "(rtl/README.md, \"Changes to the contract\").")
      endif()
    endforeach()
    message(FATAL_ERROR "fabricsim: the ${block} block (top ${top}: ${sources}) does not fit the contract "
                        "of rtl/README.md.${newer} Verilator says:\n${out}")
  endif()
endfunction()

# One block: the user's sources when given, else ours; one variant per size
# (PREFIX Vfabric_<block>_<entries>), listed in the generated rtl_variants.h.
# base_args go to Verilator for ours and the user's alike, in the lint and
# the build (a loop that resets each of a large array's entries needs
# --unroll-count); the lint gets FABRICSIM_RTL_<option>_LINT_ARGS, the build
# FABRICSIM_RTL_<option>_ARGS.
function(fabricsim_rtl_block block option ours_top base_args sizes size_args)
  set(sources ${FABRICSIM_RTL_${option}_SOURCES})
  set(top ${FABRICSIM_RTL_${option}_TOP})
  set(lint_args ${base_args} ${FABRICSIM_RTL_${option}_LINT_ARGS})
  set(args ${base_args} ${FABRICSIM_RTL_${option}_ARGS})
  if(sources)
    if(NOT top)
      message(FATAL_ERROR "FABRICSIM_RTL_${option}_SOURCES is set: FABRICSIM_RTL_${option}_TOP must name its top module")
    endif()
    set(origin "${sources} (top ${top})")
  else()
    set(sources ${CMAKE_SOURCE_DIR}/rtl/${block}.sv)
    set(top ${ours_top})
    set(origin "rtl/${block}.sv")
  endif()
  list(GET sizes 0 first)
  fabricsim_check_contract(${block} ${top} "${sources}" "${lint_args};-GENTRIES=${first};${size_args}")
  fabricsim_read_query_latency(${block} ${top} "${sources}" "${args};-GENTRIES=${first};${size_args}" latency)
  set(variants "")
  foreach(entries ${sizes})
    fabricsim_verilate(TARGET fabric_rtl PREFIX Vfabric_${block}_${entries} TOP ${top} SOURCES ${sources}
                       ARGS -O3 ${args} -GENTRIES=${entries} ${size_args})
    string(APPEND variants "#include \"Vfabric_${block}_${entries}.h\"\n")
  endforeach()
  set(FABRICSIM_RTL_${option}_ORIGIN "${origin}" PARENT_SCOPE)
  set(FABRICSIM_RTL_${option}_QUERY_LATENCY ${latency} PARENT_SCOPE)
  set(FABRICSIM_RTL_${option}_INCLUDES "${variants}" PARENT_SCOPE)
  if(latency EQUAL 0)
    set(queries "combinational queries")
  elseif(latency EQUAL 1)
    set(queries "queries registered 1 cycle")
  else()
    set(queries "queries registered ${latency} cycles")
  endif()
  message(STATUS "fabricsim: RTL ${block}: ${origin}, ENTRIES ${sizes}, ${queries}")
endfunction()

# fabric_rtl: rtl_blocks.cpp and the variants, whose headers it alone sees
# (fabric_model links it without its include directories).
add_library(fabric_rtl STATIC rtl/cosim/rtl_blocks.cpp)
target_include_directories(fabric_rtl PRIVATE ${CMAKE_SOURCE_DIR})
fabricsim_rtl_block(sync_cam SYNC sync_cam "" "${FABRICSIM_RTL_SYNC_ENTRIES}" "")
# Verilator arguments our blocks need whatever the build (a loop that resets
# each of the cache's entries needs --unroll-count).
set(FABRICSIM_RTL_BASE_ARGS_sync_cam "")
set(FABRICSIM_RTL_BASE_ARGS_packet_cache "--unroll-count;4096")
fabricsim_rtl_block(packet_cache CACHE packet_cache "${FABRICSIM_RTL_BASE_ARGS_packet_cache}" "${FABRICSIM_RTL_CACHE_ENTRIES}"
                    "-GMIRRORS=${FABRICSIM_RTL_CACHE_MIRRORS}")
set(variants_h "${CMAKE_BINARY_DIR}/generated/rtl_variants.h")
string(REPLACE ";" ") X(" sync_list "X(${FABRICSIM_RTL_SYNC_ENTRIES})")
string(REPLACE ";" ") X(" cache_list "X(${FABRICSIM_RTL_CACHE_ENTRIES})")
file(WRITE ${variants_h}.tmp "// Generated by cmake/rtl_blocks.cmake: the RTL variants this build verilated.\n"
     "${FABRICSIM_RTL_SYNC_INCLUDES}${FABRICSIM_RTL_CACHE_INCLUDES}"
     "#define FABRICSIM_RTL_SYNC_VARIANTS(X) ${sync_list}\n"
     "#define FABRICSIM_RTL_CACHE_VARIANTS(X) ${cache_list}\n"
     "#define FABRICSIM_RTL_SYNC_SOURCE \"${FABRICSIM_RTL_SYNC_ORIGIN}\"\n"
     "#define FABRICSIM_RTL_CACHE_SOURCE \"${FABRICSIM_RTL_CACHE_ORIGIN}\"\n"
     "#define FABRICSIM_RTL_SYNC_QUERY_LATENCY ${FABRICSIM_RTL_SYNC_QUERY_LATENCY}\n"
     "#define FABRICSIM_RTL_CACHE_QUERY_LATENCY ${FABRICSIM_RTL_CACHE_QUERY_LATENCY}\n")
file(COPY_FILE ${variants_h}.tmp ${variants_h} ONLY_IF_DIFFERENT)
target_include_directories(fabric_rtl PRIVATE ${CMAKE_BINARY_DIR}/generated)

# The variants the tests use (fabric_rtl_test_variants, linked into fabric_tests alone).
include(cmake/rtl_test_variants.cmake)
