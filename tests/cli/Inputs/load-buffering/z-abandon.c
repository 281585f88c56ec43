#include "owned.h"

void page_abandon(struct owned *s) {
  if (s->used == 1)
    atomic_store(&s->owner, 0);
}
