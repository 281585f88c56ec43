# jansson: Debian's source has no configure script; its CMake project, the
# library alone (its reference count is atomic when the compiler has the
# __atomic builtins, which CMake checks).
cmake -S . -B barrierpair-build -G "Unix Makefiles" -DCMAKE_C_COMPILER="$CC" \
  -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF >/dev/null
bear --output compile_commands.json -- make -s -j"$JOBS" -C barrierpair-build jansson
