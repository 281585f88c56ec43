# liburcu: autoconf, its libraries (src/), as scripts/fetch-liburcu.sh builds them.
[ -f config.status ] || ./configure -q CC="$CC" --disable-static
bear --output compile_commands.json -- make -s -j"$JOBS" -C src
