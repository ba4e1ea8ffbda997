# Layout.*: the build refuses an include that runs against the direction of
# the folders (config < model < traffic, db < platforms; docs/layout.md,
# "Dependencies"). Each probe is a one-line source that includes HEADER,
# compiled as a part of LIBRARY would be (with LIBRARY's usage
# requirements: its include roots and those of what it links). A probe
# marked `refused` must fail to compile for not finding the header, which
# exists in the source tree; one marked `accepted` must compile. The probes
# are built by their tests (excluded from the ordinary build).
set(fabricsim_layout_probes
    "fabric_config|model/core/ids.h|refused"
    "fabric_model|traffic/flow_spec.h|refused"
    "fabric_model|db/schema.h|refused"
    "fabric_model|platforms/common/platform.h|refused"
    "fabric_model|rtl/check/block_stimulus.h|refused"
    "fabric_traffic|db/schema.h|refused"
    "fabric_traffic|platforms/common/platform.h|refused"
    "fabric_db|traffic/flow_spec.h|refused"
    "fabric_db|platforms/common/platform.h|refused"
    "fabric_rtl_stimulus|traffic/flow_spec.h|refused"
    "fabric_model|config/param.h|accepted"
    "fabric_model|model/ring/packet_source.h|accepted"
    "fabric_traffic|model/core/ids.h|accepted"
    "fabric_db|model/recording/port_catalog.h|accepted"
    "fabric_platform|db/sqlite_recorder.h|accepted"
    "fabric_platform|traffic/flow_spec.h|accepted")
foreach(probe IN LISTS fabricsim_layout_probes)
  string(REPLACE "|" ";" fields "${probe}")
  list(GET fields 0 library)
  list(GET fields 1 header)
  list(GET fields 2 verdict)
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/${header})
    message(FATAL_ERROR "layout probe: ${header} is not in the source tree")
  endif()
  string(MAKE_C_IDENTIFIER "${library}_includes_${header}" name)
  set(source ${CMAKE_BINARY_DIR}/layout_probes/${name}.cpp)
  file(WRITE ${source}.tmp "#include \"${header}\"\n")
  file(COPY_FILE ${source}.tmp ${source} ONLY_IF_DIFFERENT)
  # LIBRARY's usage requirements, read (transitively) without linking it:
  # building a probe never builds a library, so a test run cannot.
  add_library(layout_probe_${name} OBJECT EXCLUDE_FROM_ALL ${source})
  target_include_directories(layout_probe_${name} PRIVATE
                             $<TARGET_PROPERTY:${library},INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_definitions(layout_probe_${name} PRIVATE
                             $<TARGET_PROPERTY:${library},INTERFACE_COMPILE_DEFINITIONS>)
  add_test(NAME Layout.${name}_${verdict}
           COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target layout_probe_${name})
  set_tests_properties(Layout.${name}_${verdict} PROPERTIES TIMEOUT 300 RESOURCE_LOCK layout_probes)
  if(verdict STREQUAL "refused")
    set_tests_properties(Layout.${name}_${verdict} PROPERTIES
                         PASS_REGULAR_EXPRESSION "${header}: No such file or directory")
  endif()
endforeach()
