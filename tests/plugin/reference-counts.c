// Reference counts: a decrement whose result decides handing the counted
// memory over (`if (dec(&p->refs) == 0) release(p)`) is a put. Its barrier
// orders the uses of the memory before a put against what the last put does
// with it once the count lets it through; its order with anything else is
// no claim (jansson 2.14's json_array_remove() against json_array_set_new():
// json_decref() of an element, then `entries--`, against a load of
// `entries`, then json_decref() of the old element). A countdown whose
// result wakes a waiter through another field is no put: it stays a
// protocol.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DNO_PUT -Xclang -verify=noput -Xclang -verify-ignore-unexpected=note
// RUN: %barrierpair %s -DACQUIRE -DREADER_RMB -Xclang -verify=acquire
// acquire-no-diagnostics
#include <stdatomic.h>
#include <stdlib.h>

// ---- jansson's array of counted values ----

struct json {
  size_t refcount;
  int type;
};
struct array {
  size_t entries;
  struct json **table;
};

void json_delete(struct json *json);
void note_last_reference(void);

static void json_decref(struct json *json) {
#ifdef NO_PUT
  // the same decrement, its result deciding no hand-over of the memory: an
  // ordered count, no put
  if (__atomic_sub_fetch(&json->refcount, 1, __ATOMIC_RELEASE) == 0)
    note_last_reference();
#else
  if (json && __atomic_sub_fetch(&json->refcount, 1, __ATOMIC_RELEASE) == 0)
    json_delete(json);
#endif
}

int array_remove(struct array *array, size_t index) {
  if (index >= array->entries)
    return -1;
  json_decref(array->table[index]);
  // noput-warning@+1 {{no barrier orders the load of 'json.refcount' before the store to 'array.entries' in 'array_remove'}}
  array->entries--;
  return 0;
}

int array_set(struct array *array, size_t index, struct json *value) {
  if (index >= array->entries)
    return -1;
  json_decref(array->table[index]);
  array->table[index] = value;
  return 0;
}

// ---- The put through a result variable and a release callback (liburcu's
// urcu_ref_put()): the last put reads what the others wrote before their
// puts, so it needs an acquire ----

struct ref {
  long refcount;
};
struct object {
  struct ref ref;
  int data;
};

static void ref_put(struct ref *ref, void (*release)(struct ref *)) {
  // expected-note@+1 {{'object_finish' orders the store to 'object.data' before the store to 'object.ref.refcount'}}
  long res = __atomic_sub_fetch(&ref->refcount, 1, __ATOMIC_RELEASE);
  if (res == 0)
    release(ref);
}

void object_finish(struct object *object, void (*release)(struct ref *)) {
  __atomic_store_n(&object->data, 1, __ATOMIC_RELAXED);
  ref_put(&object->ref, release);
}

// The last put, written out: it reads what the others wrote before theirs.
void object_put(struct object *object) {
  if (__atomic_sub_fetch(&object->ref.refcount, 1, __ATOMIC_RELEASE) != 0)
    return;
#ifdef ACQUIRE
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
  // expected-warning@+3 {{no barrier orders the load of 'object.ref.refcount' before the load of 'object.data' in 'object_put'; with 'object_finish'}}
  // expected-note@+2 {{scenario 3}}
  // noput-warning@+1 {{no barrier orders the load of 'object.ref.refcount' before the load of 'object.data' in 'object_put'}}
  if (__atomic_load_n(&object->data, __ATOMIC_RELAXED))
    free(object);
}

// ---- A countdown that wakes its waiter through another field: no put ----
//
// Its order with what follows the countdown, whether or not the count let it
// through, is a claim like any other: the reader that sees the worker's
// `finished` and then reads `pending` needs a barrier.

struct completion {
  int pending;
  int futex;
  int finished;
};

void futex_syscall_wake(int *futex);

static void futex_wake(int *futex) {
  if (__atomic_load_n(futex, __ATOMIC_RELAXED) == -1) {
    __atomic_store_n(futex, 0, __ATOMIC_RELAXED);
    futex_syscall_wake(futex);
  }
}

void complete_one(struct completion *completion) {
  if (__atomic_sub_fetch(&completion->pending, 1, __ATOMIC_SEQ_CST) == 0)
    futex_wake(&completion->futex);
  // expected-note@+1 {{'complete_one' orders the store to 'completion.pending' before the store to 'completion.finished'}}
  __atomic_store_n(&completion->finished, 1, __ATOMIC_RELEASE);
}

int all_done(struct completion *completion) {
  if (!__atomic_load_n(&completion->finished, __ATOMIC_RELAXED))
    return 0;
#ifdef READER_RMB
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
  // expected-warning@+3 {{no barrier orders the load of 'completion.finished' before the load of 'completion.pending' in 'all_done'}}
  // expected-note@+2 {{scenario 3}}
  // noput-warning@+1 {{no barrier orders the load of 'completion.finished' before the load of 'completion.pending' in 'all_done'}}
  return !__atomic_load_n(&completion->pending, __ATOMIC_RELAXED);
}

// ---- The last put writes what the other holders wrote (`x->a = x->b = 0`
// before the free): both store it plainly, which would make them serialised
// writers, but the count is what serialises them, so its order is checked ----

struct session {
  _Atomic size_t refs;
  int state;
};

void session_put(struct session *session) {
  if (atomic_fetch_sub_explicit(&session->refs, 1, memory_order_release) == 1) {
#ifdef ACQUIRE
    // the row of a load, then a store, against two stores: the article's
    // table asks for a full barrier
    atomic_thread_fence(memory_order_seq_cst);
#endif
    // expected-warning@+3 {{no barrier orders the load of 'session.refs' before the store to 'session.state' in 'session_put'; with 'session_finish'}}
    // expected-note@+2 {{scenario}}
    // noput-warning@+1 {{no barrier orders the load of 'session.refs' before the store to 'session.state' in 'session_put'}}
    session->state = 0;
    free(session);
  }
}

void session_finish(struct session *session) {
  session->state = 2;
  atomic_fetch_sub_explicit(&session->refs, 1, memory_order_release); // expected-note {{'session_finish' orders the store to 'session.state' before the store to 'session.refs'}}
}

// ---- A C11 atomic on a helper's pointer parameter, bound to `&x` at the
// call, is an access of x ----

struct counted {
  _Atomic size_t count;
  int payload;
};

static void count_down(_Atomic size_t *count) {
  atomic_fetch_sub_explicit(count, 1, memory_order_release); // expected-note {{'counted_finish' orders the store to 'counted.payload' before the store to 'counted.count'}}
}

void counted_finish(struct counted *counted) {
  counted->payload = 1;
  count_down(&counted->count);
}

int counted_done(struct counted *counted) {
  if (atomic_load_explicit(&counted->count, memory_order_relaxed) != 0)
    return 0;
#ifdef ACQUIRE
  atomic_thread_fence(memory_order_acquire);
#endif
  // expected-warning@+3 {{no barrier orders the load of 'counted.count' before the load of 'counted.payload' in 'counted_done'; with 'counted_finish'}}
  // expected-note@+2 {{scenario 3}}
  // noput-warning@+1 {{no barrier orders the load of 'counted.count' before the load of 'counted.payload' in 'counted_done'}}
  return counted->payload;
}
