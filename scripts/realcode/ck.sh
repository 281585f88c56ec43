# Concurrency Kit: its own configure script, the library (src/).
[ -f build/ck.build ] && [ -f Makefile ] || CC="$CC" ./configure
bear --output compile_commands.json -- make -s -j"$JOBS" -C src
