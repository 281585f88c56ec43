// Input of precompiled-header.test: message passing whose writer misses its
// barrier, through the header's macros.
int message, ready;

void writer(void) {
  PUBLISH(message, 1);
  PUBLISH(ready, 1);
}

int reader(void) {
  assert(PEEK(ready) >= 0);
  if (!PEEK(ready))
    return 0;
  cmm_smp_rmb();
  return PEEK(message);
}

// A node published by a compare-and-swap and read through the loaded
// pointer with cmm_smp_read_barrier_depends(), which expands to nothing:
// the preprocessor's record of it places it (no finding).
struct node {
  struct node *next;
};
struct node *top;

void push(struct node *node) {
  struct node *head = PEEK(top);
  node->next = head;
  uatomic_cmpxchg(&top, head, node);
}

struct node *top_next(void) {
  struct node *head = PEEK(top);
  cmm_smp_read_barrier_depends();
  return head ? PEEK(head->next) : 0;
}
