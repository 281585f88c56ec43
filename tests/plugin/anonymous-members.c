// A field of an unnamed structure or union inside another is, as C names
// it, a field of the enclosing one (`nh->nh_grp` of the kernel's `struct
// nexthop`, whose pointers to its info or its group share an anonymous
// union). Clang's AST reaches it through the unnamed member; the objects
// are named as the code writes them, so a pointer published into such a
// field is the publication its readers find the payload through, and
// fields of an anonymous structure pair as any others.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))

struct group {
  int count;
  int resilient;
};

struct info {
  int x;
};

struct hop {
  int id;
  union {
    struct info *info;
    struct group *grp;
  };
};

// The group is filled in, then published: its fields are the message's
// payload, read through the published pointer.
void hop_publish(struct hop *h, struct group *g) {
  g->count = 2;
  g->resilient = 1;
  rcu_assign_pointer(h->grp, g);
}

int hop_read(struct hop *h) {
  struct group *g = rcu_dereference(h->grp);
  if (!g)
    return 0;
  return g->count + g->resilient;
}

// A message whose fields sit in an anonymous structure: the reader's
// missing barrier is found, named by the enclosing structure.
struct message {
  union {
    struct {
      int data;
      int ready;
    };
    long raw;
  };
};

void message_send(struct message *m, int data) {
  WRITE_ONCE(m->data, data);
  smp_wmb(); // expected-note {{'message_send' orders the store to 'message.data' before the store to 'message.ready' with 'smp_wmb()'}}
  WRITE_ONCE(m->ready, 1);
}

int message_peek(struct message *m) {
  if (!READ_ONCE(m->ready))
    return -1;
  return READ_ONCE(m->data); // expected-warning {{no barrier orders the load of 'message.ready' before the load of 'message.data' in 'message_peek'; with 'message_send' this is scenario 3 (message passing), which needs smp_rmb() here}} \
                                expected-note {{scenario 3 (message passing) forbids}}
}
