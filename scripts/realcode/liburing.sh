# liburing: its own configure script, the library (src/).
[ -f config-host.mak ] || ./configure --cc="$CC" >/dev/null
bear --output compile_commands.json -- make -s -j"$JOBS" -C src
