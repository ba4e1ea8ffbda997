# fabricsim_read_query_latency(BLOCK TOP SOURCES ARGS OUT): the parameter
# QUERY_LATENCY the block declares (rtl/README.md, queries), as Verilator
# elaborates the block with the build's arguments (a -G of them included):
# its XML lists the top module's parameters with their values. A block that
# declares none stops the configure.
function(fabricsim_read_query_latency block top sources args out)
  set(dir "${CMAKE_BINARY_DIR}/rtl-contract/${block}-parameters")
  execute_process(COMMAND ${VERILATOR_BIN} --xml-only --no-timing -Wno-fatal --top-module ${top} --Mdir ${dir}
                          --prefix Vparameters ${args} ${sources}
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE said ERROR_VARIABLE said)
  if(rc)
    message(FATAL_ERROR "fabricsim: reading the ${block} block's parameters (top ${top}) failed. Verilator says:\n${said}")
  endif()
  file(READ "${dir}/Vparameters.xml" xml)
  string(FIND "${xml}" "topModule=\"1\">" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "fabricsim: no top module in Verilator's XML of the ${block} block (top ${top})")
  endif()
  string(SUBSTRING "${xml}" ${at} -1 rest)
  string(FIND "${rest}" "</module>" end)
  string(SUBSTRING "${rest}" 0 ${end} body)
  string(REGEX MATCH "name=\"QUERY_LATENCY\"[^>]*param=\"true\">[ \t\r\n]*<const [^>]*name=\"[0-9]*&apos;s?h([0-9a-fA-F]+)\""
         found "${body}")
  if(NOT found)
    message(FATAL_ERROR "fabricsim: the ${block} block (top ${top}) declares no QUERY_LATENCY in its top module. "
                        "Write in ${top}: `localparam int QUERY_LATENCY = 0;` when its query outputs are "
                        "combinational, or = N (1-16) when they are registered N cycles, and drive "
                        "`assign p_query_latency = 8'(QUERY_LATENCY);` (a `define or a package's constant is not "
                        "read; rtl/README.md, queries).")
  endif()
  math(EXPR latency "0x${CMAKE_MATCH_1}")
  if(latency GREATER 16)
    message(FATAL_ERROR "fabricsim: the ${block} block (top ${top}) declares QUERY_LATENCY ${latency}; allowed: 0-16")
  endif()
  set(${out} ${latency} PARENT_SCOPE)
endfunction()
