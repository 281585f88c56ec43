# mimalloc: CMake, the shared library alone (the static and object targets
# compile the same sources again).
cmake -S . -B barrierpair-build -G "Unix Makefiles" -DCMAKE_C_COMPILER="$CC" \
  -DMI_BUILD_TESTS=OFF -DMI_BUILD_STATIC=OFF -DMI_BUILD_OBJECT=OFF >/dev/null
bear --output compile_commands.json -- make -s -j"$JOBS" -C barrierpair-build mimalloc
