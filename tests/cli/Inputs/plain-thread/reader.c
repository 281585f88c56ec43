// The reader, a thread of writer.c's program, written as if nothing raced:
// no barrier, no marked access, nothing of the primitive table at all.
extern int message, ready;
int seen;

void *reader(void *arg) {
  while (!ready)
    ;
  seen = message;
  return 0;
}
