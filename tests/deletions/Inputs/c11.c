/* Message passing in C11 atomics: relaxed accesses ordered by a release
 * fence and an acquire fence; and a second message passed with a release
 * store and an acquire load. */
#include <stdatomic.h>

static atomic_int c11_data, c11_flag;
static atomic_int c11_value, c11_published;

void c11_send(int value) {
  atomic_store_explicit(&c11_data, value, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&c11_flag, 1, memory_order_relaxed);
}

int c11_receive(void) {
  if (!atomic_load_explicit(&c11_flag, memory_order_relaxed))
    return -1;
  atomic_thread_fence(memory_order_acquire);
  return atomic_load_explicit(&c11_data, memory_order_relaxed);
}

void c11_publish(int value) {
  atomic_store_explicit(&c11_value, value, memory_order_relaxed);
  atomic_store_explicit(&c11_published, 1, memory_order_release);
}

int c11_read(void) {
  if (!atomic_load_explicit(&c11_published, memory_order_acquire))
    return -1;
  return atomic_load_explicit(&c11_value, memory_order_relaxed);
}
