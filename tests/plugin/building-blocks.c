// A structure that many others embed by value (the kernel's `list_head`,
// `atomic_t`, `rb_node`) is a building block: a helper that reaches its
// fields through a pointer to it may be handed any of the embedded copies.
// Two functions that reach such a field only through a pointer to the block
// share nothing the analysis can see, however their accesses are ordered.
// Reached from the structure that embeds it (`conn->link.next`, also
// through a helper handed `&conn->link`), the field is that structure's,
// and pairs as any other. A type embedded in fewer structures is part of
// one design and keeps pairing through pointers to it.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DFEW_EMBEDDERS -Xclang -verify=few
#include "kernel.h"
#include <stddef.h>

struct link {
  struct link *next;
  struct link *prev;
};

// ---- Four structures embed a link: it is a building block ----

struct conn {
  int state;
  struct link link;
};

#ifndef FEW_EMBEDDERS
struct timer {
  struct link link;
};
struct request {
  struct link queue;
};
struct device {
  struct link children[2];
};
#endif

// Through pointers to the block on both sides: quiet by default. With
// `link` embedded by one structure only, the same code pairs.
void relink(struct link *entry, struct link *target) {
  WRITE_ONCE(entry->prev, target);
  smp_wmb(); // few-note 2 {{'relink' orders the store to 'link.prev' before the store to 'link.next' with 'smp_wmb()'}}
  WRITE_ONCE(entry->next, target);
}

struct link *walk_back(struct link *entry) {
  struct link *next = READ_ONCE(entry->next);
  return next == entry ? NULL : READ_ONCE(entry->prev); // few-warning {{no barrier orders the load of 'link.next' before the load of 'link.prev' in 'walk_back'; with 'relink' this is scenario 3 (message passing), which needs smp_rmb() here}} \
    few-note {{scenario 3}}
}

// Through the structure that embeds it, also in a helper handed
// `&conn->link`: the link is that connection's, on both sides.
static void link_after(struct link *entry, struct link *target) {
  WRITE_ONCE(entry->prev, target);
  smp_wmb(); // expected-note {{'attach' orders the store to 'conn.link.prev' before the store to 'conn.link.next' with 'smp_wmb()' (in its call of 'link_after')}} \
                few-note {{'attach' orders the store to 'conn.link.prev' before the store to 'conn.link.next' with 'smp_wmb()' (in its call of 'link_after')}}
  WRITE_ONCE(entry->next, target);
}

void attach(struct conn *conn, struct link *target) {
  link_after(&conn->link, target);
}

struct link *peek(struct conn *conn) {
  if (!READ_ONCE(conn->link.next))
    return NULL;
  return READ_ONCE(conn->link.prev); // expected-warning {{no barrier orders the load of 'conn.link.next' before the load of 'conn.link.prev' in 'peek'; with 'attach' this is scenario 3 (message passing), which needs smp_rmb() here}} \
    expected-note {{scenario 3}} few-warning {{no barrier orders the load of 'conn.link.next' before the load of 'conn.link.prev' in 'peek'; with 'attach' this is scenario 3 (message passing), which needs smp_rmb() here}} \
    few-note {{scenario 3}}
}

// A building block on the stack (a list head a function collects entries
// on, handed to helpers by its address) is each call's own.
struct chain {
  struct chain *first, *last;
};

#ifndef FEW_EMBEDDERS
struct chain_users {
  struct chain a;
  struct chain b[2];
};
struct chain_owners {
  struct chain c;
};
struct chain_holders {
  struct chain d;
};
struct chain_keepers {
  struct chain e;
};
#endif

static void chain_set(struct chain *chain, struct chain *entry) {
  WRITE_ONCE(chain->last, entry);
  smp_wmb(); // few-note {{'collect' orders the store to 'chain.last' before the store to 'chain.first' with 'smp_wmb()' (in its call of 'chain_set')}}
  WRITE_ONCE(chain->first, entry);
}

static int chain_torn(struct chain *chain) {
  struct chain *first = READ_ONCE(chain->first);
  return first && first != READ_ONCE(chain->last); // few-warning {{no barrier orders the load of 'chain.first' before the load of 'chain.last' in 'sweep' (in its call of 'chain_torn'); with 'collect' this is scenario 3 (message passing), which needs smp_rmb() here}} \
    few-note {{scenario 3}}
}

void take_chain(struct chain *chain);

void collect(struct chain *entry) {
  struct chain batch;
  chain_set(&batch, entry);
  take_chain(&batch);
}

int sweep(void) {
  struct chain pending;
  take_chain(&pending);
  return chain_torn(&pending);
}

// One link of the pairing ties the two sides (`session.state`), the other is
// a neighbour reached through a pointer to the building block
// (`session->link.next->prev`, as `__list_del()` reaches its neighbours):
// the two sides need not meet on that one, and a pairing claims they meet
// on both links.
struct session {
  int state;
  struct link link;
};

void close_session(struct session *session) {
  // with few embedders, also a pairing with relink() through the neighbour
  WRITE_ONCE(session->link.next->prev, NULL); // few-warning {{no barrier orders the load of 'session.link.next' before the store to 'link.prev' in 'close_session'; with 'relink' this is scenario 7, which needs smp_mb() here}} \
    few-note {{scenario 7}}
  smp_wmb(); // few-note {{'close_session' orders the store to 'link.prev' before the store to 'session.state' with 'smp_wmb()'}}
  WRITE_ONCE(session->state, 1);
}

int session_closed(struct session *session) {
  if (!READ_ONCE(session->state))
    return 0;
  return READ_ONCE(session->link.next->prev) == NULL; // few-warning {{no barrier orders the load of 'session.state' before the load of 'link.prev' in 'session_closed'; with 'close_session' this is scenario 3 (message passing), which needs smp_rmb() here}} \
    few-note {{scenario 3}}
}

// A hash table's bucket, handed out by a helper that returns an element of
// the global array of heads (audit_tree's `chunk_hash()`): both sides reach
// the heads of that array, not any link, and pair. (Only with `link` a
// building block: with few embedders every pointer to a link ties anyway.)
#ifndef FEW_EMBEDDERS
static struct link buckets[8];

static struct link *bucket_of(unsigned key) {
  return buckets + key % 8;
}

void fill_bucket(unsigned key, struct link *entry) {
  struct link *head = bucket_of(key);
  WRITE_ONCE(head->prev, entry);
  smp_wmb(); // expected-note {{'fill_bucket' orders the store to 'link.prev' before the store to 'link.next' with 'smp_wmb()'}}
  WRITE_ONCE(head->next, entry);
}

int bucket_torn(unsigned key) {
  struct link *head = bucket_of(key);
  struct link *first = READ_ONCE(head->next);
  return first && first != READ_ONCE(head->prev); // expected-warning {{no barrier orders the load of 'link.next' before the load of 'link.prev' in 'bucket_torn'; with 'fill_bucket' this is scenario 3 (message passing), which needs smp_rmb() here}} \
    expected-note {{scenario 3}}
}
#endif
