# zlib: its own configure script, the library.
[ -f configure.log ] && [ -f Makefile ] || CC="$CC" ./configure >/dev/null
bear --output compile_commands.json -- make -s -j"$JOBS" libz.a
