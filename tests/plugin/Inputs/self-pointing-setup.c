// A kernel-shaped allocator (perf_event_alloc()), lowered at its call
// because it uses a primitive, whose helper makes a part of the fresh
// object point to itself (RB_CLEAR_NODE(&event->group_node) in
// init_event_group()).
#include "kernel.h"
#include <stddef.h>

struct node {
  unsigned long parent_color;
};

struct event {
  struct node group_node;
  int index;
  int refcount;
  int cpu;
  int state;
};

#define CLEAR_NODE(n) ((n)->parent_color = (unsigned long)(n))

void *kzalloc(unsigned long size);
void find_context(struct event *event);
void account_event(struct event *event);
#ifdef HANDED_OUT
struct node *last_cleared;
#endif

static void init_group(struct event *event) {
  CLEAR_NODE(&event->group_node);
#ifdef HANDED_OUT
  last_cleared = &event->group_node;
#endif
  event->index = 0;
}

static struct event *event_alloc(int cpu) {
  struct event *event = kzalloc(sizeof(*event));
  if (!event)
    return NULL;
  init_group(event);
  WRITE_ONCE(event->refcount, 1);
  event->cpu = cpu;
  account_event(event);
  return event;
}

struct event *create_event(int cpu) {
  struct event *event = event_alloc(cpu);
  if (!event)
    return NULL;
  find_context(event);
  WRITE_ONCE(event->state, 1);
  return event;
}
