// A race the code says it means: the kernel's data_race() wraps a read
// whose value is for diagnostics or a heuristic, or one a marked access
// checks again (tools/memory-model/Documentation/access-marking.txt). What
// it wraps asks for no barrier and no marking; the same reads unwrapped do.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DUNWRAPPED -Xclang -verify=unwrapped
// RUN: %barrierpair %s -DONE_WRAPPED -Xclang -verify
// expected-no-diagnostics
#include "kernel.h"

struct request_stats {
  unsigned long completed;
  unsigned long latency;
};

void report(unsigned long completed, unsigned long latency);

void complete_request(struct request_stats *stats, unsigned long latency) {
  stats->latency = latency;
  smp_wmb(); // unwrapped-note {{'complete_request' orders the store to 'request_stats.latency' before the store to 'request_stats.completed' with 'smp_wmb()'}}
  WRITE_ONCE(stats->completed, stats->completed + 1);
}

// A stall warning prints what it finds: a latency older than the count is
// no error.
void show_stats(struct request_stats *stats) {
#if defined(UNWRAPPED)
  unsigned long completed = READ_ONCE(stats->completed);
  // unwrapped-warning@+3 {{no barrier orders the load of 'request_stats.completed' before the load of 'request_stats.latency' in 'show_stats'; with 'complete_request' this is scenario 3 (message passing), which needs smp_rmb() here}}
  // unwrapped-note@+2 {{scenario 3 (message passing) forbids}}
  if (completed)
    report(completed, stats->latency);
#elif defined(ONE_WRAPPED)
  unsigned long completed = READ_ONCE(stats->completed);
  if (completed)
    report(completed, data_race(stats->latency));
#else
  unsigned long completed = data_race(READ_ONCE(stats->completed));
  if (completed)
    report(completed, data_race(stats->latency));
#endif
}
