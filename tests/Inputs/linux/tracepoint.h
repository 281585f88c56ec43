/* A kernel-style trace event, as include/linux/tracepoint.h defines one:
 * trace_<name>() calls the probes attached to it through pointers read
 * under RCU, when its static key is on. */
#ifndef TEST_LINUX_TRACEPOINT_H
#define TEST_LINUX_TRACEPOINT_H
#define TP_PROTO(...) __VA_ARGS__
#define TP_ARGS(...) __VA_ARGS__
struct tracepoint_func {
  void *func;
  void *data;
};
struct tracepoint {
  int key;
  struct tracepoint_func *funcs;
};
#define DECLARE_TRACE(name, proto, args)                                                           \
  extern struct tracepoint __tracepoint_##name;                                                    \
  static inline void trace_##name(proto) {                                                         \
    if (__atomic_load_n(&__tracepoint_##name.key, __ATOMIC_RELAXED)) {                             \
      struct tracepoint_func *it = __atomic_load_n(&__tracepoint_##name.funcs, __ATOMIC_CONSUME);  \
      for (; it && it->func; it++)                                                                 \
        ((void (*)(void *, proto))(it->func))(it->data, args);                                     \
    }                                                                                              \
  }
#endif
