# sqlite3: the amalgamation, generated from Debian's full source tree (this
# needs tclsh: scripts/install-deps.sh --realcode), compiled alone as a
# thread-safe build.
[ -f config.status ] || ./configure -q CC="$CC" --enable-threadsafe --disable-tcl
make -s -j"$JOBS" sqlite3.c
bear --output compile_commands.json -- \
  "$CC" -c -DSQLITE_THREADSAFE=1 -D_REENTRANT=1 -O2 -o sqlite3.o sqlite3.c
