# Runs the command after `--` and checks its exit status and output.
#   cmake -DEXPECT_STATUS=2 -DEXPECT_OUTPUT=<regex> [-DREJECT_OUTPUT=<regex>]
#         -P expect.cmake -- program args...
# The regexes are matched against stdout followed by stderr; REJECT_OUTPUT
# must not match.
set(command)
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 0 ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect.cmake: no command after --")
endif()

execute_process(COMMAND ${command}
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
set(all "${output}${errors}")
if(NOT status STREQUAL "${EXPECT_STATUS}")
  message(FATAL_ERROR "expected exit status ${EXPECT_STATUS}, got ${status}\n${all}")
endif()
if(NOT all MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match \"${EXPECT_OUTPUT}\":\n${all}")
endif()
if(DEFINED REJECT_OUTPUT AND all MATCHES "${REJECT_OUTPUT}")
  message(FATAL_ERROR "output matches \"${REJECT_OUTPUT}\" (${CMAKE_MATCH_0}):\n${all}")
endif()
message(STATUS "exit status ${status} and output as expected")
