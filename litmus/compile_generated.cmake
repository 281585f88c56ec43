# Compiles every generated litmus program with -Wall -Wextra -Werror under
# each compiler given, and fails on the first warning.
#   cmake -DCOMPILERS=cc|clang -DGENERATED_DIR=dir -DINCLUDE_DIRS=a|b -P compile_generated.cmake
string(REPLACE "|" ";" compilers "${COMPILERS}")
string(REPLACE "|" ";" include_dirs "${INCLUDE_DIRS}")
list(TRANSFORM include_dirs PREPEND "-I")
file(GLOB sources "${GENERATED_DIR}/s[0-9][0-9]_*.c" "${GENERATED_DIR}/litmus_*.c")
list(LENGTH sources count)
if(count EQUAL 0)
  message(FATAL_ERROR "no generated programs in ${GENERATED_DIR}: build barrierpair-litmus first")
endif()
foreach(compiler IN LISTS compilers)
  foreach(source IN LISTS sources)
    execute_process(
      COMMAND "${compiler}" -std=c11 -Wall -Wextra -Wpedantic -Werror ${include_dirs}
              -fsyntax-only "${source}"
      RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "${compiler} rejects ${source}:\n${output}")
    endif()
  endforeach()
  message(STATUS "${compiler}: ${count} generated files compile cleanly")
endforeach()
