# Verilated blocks built at build time by Verilator's own makefile, and
# Verilator's runtime built once (fabric_verilated). Needs VERILATOR_BIN and
# VERILATOR_ROOT (find_package(verilator)).
#
# Why not Verilator's verilate(): it reads the list of generated files at
# configure time, but Verilator 5 names them by a hash of their content, so
# after an edit of the RTL the build compiled the old list (the first link
# failed, a second build fixed it); and it adds each variant's directory to
# the target's PUBLIC include path, so every variant changed the flags of
# everything that links the target.

# The runtime every variant links: traced to FST (rtl.trace), zlib for FST.
find_package(ZLIB REQUIRED)
add_library(fabric_verilated STATIC ${VERILATOR_ROOT}/include/verilated.cpp
            ${VERILATOR_ROOT}/include/verilated_threads.cpp ${VERILATOR_ROOT}/include/verilated_fst_c.cpp)
target_include_directories(fabric_verilated SYSTEM PUBLIC ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
target_compile_definitions(fabric_verilated PUBLIC VM_TRACE=1 VM_TRACE_FST=1 VM_TRACE_VCD=0 VM_COVERAGE=0 VM_SC=0)
target_compile_options(fabric_verilated PRIVATE -w)  # Verilator's code is not ours to lint
target_link_libraries(fabric_verilated PUBLIC ZLIB::ZLIB Threads::Threads ${VERILATOR_MT_CFLAGS})

# The variants' C++ flags: this build's (its build type's), C++17, -O2 for
# the model's hot code and its set-up alike (Verilator's makefile would use -Os).
string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
string(STRIP "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}} -std=c++17" FABRICSIM_VERILATED_CXXFLAGS)
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(FABRICSIM_VERILATOR_COMPILER clang)
else()
  set(FABRICSIM_VERILATOR_COMPILER gcc)
endif()

# Writes `text` to `path` unless the file holds it already (make goes by dates).
function(fabricsim_write_if_changed path text)
  file(WRITE ${path}.tmp "${text}")
  file(COPY_FILE ${path}.tmp ${path} ONLY_IF_DIFFERENT)
  file(REMOVE ${path}.tmp)
endfunction()

# fabricsim_verilate(TARGET <lib> PREFIX <p> TOP <top> SOURCES <files...> [ARGS <verilator args...>])
#
# One variant of a block: Verilator runs at build time into its own
# directory (<build>/verilated/<PREFIX>), and Verilator's makefile builds
# <PREFIX>__ALL.a there ($(MAKE): the build's job slots), which TARGET links.
# CMake never sees the generated files. Any file Verilator read (the
# SOURCES, an `include`), the arguments or the flags changing rebuild the
# variant from nothing: one build, whatever Verilator names its files.
# Verilator runs from the source checkout: relative paths in SOURCES and
# ARGS are relative to it. Always --cc --trace-fst --no-timing.
#
# The header <PREFIX>.h is seen by TARGET's own sources when TARGET is a
# STATIC library (rtl_blocks.cpp), by what links TARGET when it is an
# INTERFACE library (the tests' variants); by nothing else. They find it in
# one directory per TARGET (verilated/include/<TARGET>), where a header of
# that name includes the variant's: their include path stays the same
# whatever variants there are, so a new one recompiles only what includes it.
function(fabricsim_verilate)
  cmake_parse_arguments(V "" "TARGET;PREFIX;TOP" "SOURCES;ARGS" ${ARGN})
  if(NOT V_TARGET OR NOT V_PREFIX OR NOT V_TOP OR NOT V_SOURCES OR V_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fabricsim_verilate(TARGET <lib> PREFIX <p> TOP <top> SOURCES <files> [ARGS <args>]): "
                        "got ${ARGN}")
  endif()
  set(dir ${CMAKE_BINARY_DIR}/verilated/${V_PREFIX})
  set(archive ${dir}/${V_PREFIX}__ALL.a)
  set(sources "")
  foreach(source ${V_SOURCES})
    get_filename_component(source ${source} ABSOLUTE BASE_DIR ${CMAKE_SOURCE_DIR})
    list(APPEND sources ${source})
  endforeach()
  set(verilator ${VERILATOR_BIN} --cc --trace-fst --no-timing --compiler ${FABRICSIM_VERILATOR_COMPILER}
                --prefix ${V_PREFIX} --top-module ${V_TOP} --Mdir ${dir} ${V_ARGS} ${sources})
  set(make $(MAKE) -C ${dir} -f ${V_PREFIX}.mk ${V_PREFIX}__ALL.a CXX=${CMAKE_CXX_COMPILER} AR=${CMAKE_AR}
           CXXFLAGS=${FABRICSIM_VERILATED_CXXFLAGS} OPT_FAST=-O2 OPT_SLOW=-O2)
  # make does not notice a changed command: the commands are a file the
  # variant depends on, rewritten only when they change.
  set(commands ${CMAKE_BINARY_DIR}/verilated/${V_PREFIX}.commands)
  fabricsim_write_if_changed(${commands} "${verilator}\n${make}\n")
  # Verilator's list of the files it read names the generated files as its
  # targets; CMake's depfile must name the archive.
  set(depfile_of_archive ${CMAKE_COMMAND} -DVERILATOR_DEPFILE=${dir}/${V_PREFIX}__ver.d -DTARGET=${archive}
                         -DDEPFILE=${dir}/${V_PREFIX}.d -P ${CMAKE_SOURCE_DIR}/cmake/verilator_depfile.cmake)
  add_custom_command(OUTPUT ${archive}
                     COMMAND ${CMAKE_COMMAND} -E rm -rf ${dir}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
                     COMMAND ${verilator}
                     COMMAND ${depfile_of_archive}
                     COMMAND ${make}
                     BYPRODUCTS ${dir}/${V_PREFIX}.h
                     DEPENDS ${sources} ${commands} ${VERILATOR_BIN} ${CMAKE_SOURCE_DIR}/cmake/verilator_depfile.cmake
                     DEPFILE ${dir}/${V_PREFIX}.d
                     WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                     COMMENT "Verilating ${V_PREFIX} (top ${V_TOP})"
                     VERBATIM)
  add_custom_target(verilate_${V_PREFIX} DEPENDS ${archive})
  add_dependencies(${V_TARGET} verilate_${V_PREFIX})
  # The archive as a library target of its own: it needs the runtime, so
  # every link line puts the runtime after all the variants.
  add_library(${V_PREFIX} STATIC IMPORTED)
  set_target_properties(${V_PREFIX} PROPERTIES IMPORTED_LOCATION ${archive} INTERFACE_LINK_LIBRARIES fabric_verilated)
  set(includes ${CMAKE_BINARY_DIR}/verilated/include/${V_TARGET})
  fabricsim_write_if_changed(${includes}/${V_PREFIX}.h
                             "// Generated by fabricsim_verilate (cmake/verilate.cmake)\n#include \"${dir}/${V_PREFIX}.h\"\n")
  get_target_property(type ${V_TARGET} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  else()
    set(scope PRIVATE)
  endif()
  target_include_directories(${V_TARGET} ${scope} ${includes})
  target_link_libraries(${V_TARGET} ${scope} ${V_PREFIX})
endfunction()
