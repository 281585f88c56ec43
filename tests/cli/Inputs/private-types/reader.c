/* Another file's own `struct state`, of the same name and fields: another
 * type, which the writer's barrier has nothing to do with. */
#include <urcu/arch.h>
#include <urcu/system.h>

struct state {
  int payload;
  int ready;
};

int look(struct state *s) {
  if (!CMM_LOAD_SHARED(s->ready))
    return 0;
  return CMM_LOAD_SHARED(s->payload);
}
