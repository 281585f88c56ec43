// The reader of message passing without its barrier.
#include <urcu/arch.h>
#include <urcu/system.h>

extern int message, ready;

int reader(void) {
  while (!CMM_LOAD_SHARED(ready))
    ;
  return CMM_LOAD_SHARED(message);
}
