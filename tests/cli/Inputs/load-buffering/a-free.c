#include "owned.h"

void page_free(struct owned *s) {
  if (atomic_load(&s->owner) != 0)
    return;
  s->used--;
}
