# BarrierPair.cmake: barrierpair in a CMake project.
#
#   include(/path/to/barrierpair/cmake/BarrierPair.cmake)   # from a source tree
#   find_package(BarrierPair REQUIRED)                        # once installed
#
#   barrierpair_add_lint_target([NAME barrierpair] [BASELINE file] [FORMAT text|json|sarif]
#                               [OUTPUT file] [JOBS n] [PRIMITIVES file...] [ARGS ...])
#     A target that runs `barrierpair check` over the whole program: every C
#     file of this build's compile_commands.json. It fails (like a compile
#     error) when there are findings. Include this file before the targets it
#     should see: it turns CMAKE_EXPORT_COMPILE_COMMANDS on.
#
#   barrierpair_enable_plugin(<target>... [PRIMITIVES file...])
#     Adds the plugin to the targets' compiles when the compiler is clang, so
#     findings show up as warnings of the normal build.
#
# PRIMITIVES: primitive files (docs/primitives.md) for a library's own
# barriers; the installed package's ready-made ones are in
# BARRIERPAIR_PRIMITIVES_DIR (ck.def, dpdk.def, qemu.def).
#
# BARRIERPAIR_EXECUTABLE and BARRIERPAIR_PLUGIN say where the tools are; the
# package config sets them, a source-tree include may set them first
# (default: found on PATH / next to the executable).

set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

if(NOT BARRIERPAIR_EXECUTABLE)
  find_program(BARRIERPAIR_EXECUTABLE barrierpair)
endif()
if(NOT BARRIERPAIR_PLUGIN AND BARRIERPAIR_EXECUTABLE)
  get_filename_component(_barrierpair_bin "${BARRIERPAIR_EXECUTABLE}" DIRECTORY)
  foreach(_candidate "${_barrierpair_bin}/../lib/barrierpair/barrierpair.so"
                     "${_barrierpair_bin}/../lib/barrierpair.so")
    if(EXISTS "${_candidate}")
      get_filename_component(BARRIERPAIR_PLUGIN "${_candidate}" ABSOLUTE)
      break()
    endif()
  endforeach()
endif()

function(barrierpair_add_lint_target)
  cmake_parse_arguments(PARSE_ARGV 0 BP "" "NAME;BASELINE;FORMAT;OUTPUT;JOBS" "PRIMITIVES;ARGS")
  if(NOT BP_NAME)
    set(BP_NAME barrierpair)
  endif()
  if(NOT BARRIERPAIR_EXECUTABLE)
    message(FATAL_ERROR "barrierpair_add_lint_target: no barrierpair executable "
                        "(set BARRIERPAIR_EXECUTABLE or put barrierpair on PATH)")
  endif()
  set(command "${BARRIERPAIR_EXECUTABLE}" check -p "${CMAKE_BINARY_DIR}")
  if(BP_BASELINE)
    get_filename_component(BP_BASELINE "${BP_BASELINE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND command --baseline "${BP_BASELINE}")
  endif()
  if(BP_FORMAT)
    list(APPEND command --format "${BP_FORMAT}")
  endif()
  if(BP_OUTPUT)
    get_filename_component(BP_OUTPUT "${BP_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND command --output "${BP_OUTPUT}")
  endif()
  if(BP_JOBS)
    list(APPEND command --jobs "${BP_JOBS}")
  endif()
  foreach(file IN LISTS BP_PRIMITIVES)
    get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND command --primitives "${file}")
  endforeach()
  list(APPEND command ${BP_ARGS})
  add_custom_target(${BP_NAME}
    COMMAND ${command}
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "barrierpair: checking the memory-barrier pairings of the whole program"
    USES_TERMINAL VERBATIM)
endfunction()

function(barrierpair_enable_plugin)
  cmake_parse_arguments(PARSE_ARGV 0 BP "" "" "PRIMITIVES")
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(STATUS "barrierpair: the plugin needs clang; ${CMAKE_C_COMPILER_ID} builds without it")
    return()
  endif()
  if(NOT BARRIERPAIR_PLUGIN)
    message(FATAL_ERROR "barrierpair_enable_plugin: no plugin (set BARRIERPAIR_PLUGIN)")
  endif()
  set(options "-fplugin=${BARRIERPAIR_PLUGIN}")
  foreach(file IN LISTS BP_PRIMITIVES)
    get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND options "-fplugin-arg-barrierpair-primitives=${file}")
  endforeach()
  foreach(target IN LISTS BP_UNPARSED_ARGUMENTS)
    foreach(option IN LISTS options)
      target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C>:${option}>")
    endforeach()
  endforeach()
endfunction()
