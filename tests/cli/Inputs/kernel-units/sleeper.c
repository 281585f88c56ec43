// Kernel code that writes only RCU primitives, rows the table files under
// liburcu: its unit says nothing of its family, the program does. Its
// exchange is the barrier the fix for its partner is spelled after.
#define rcu_xchg_pointer(p, v) __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)
#define rcu_dereference(p) __atomic_load_n(&(p), __ATOMIC_CONSUME)

extern int *wake_flag, *sleep_flag;

int sleeper(int *token) {
  rcu_xchg_pointer(&sleep_flag, token);
  return rcu_dereference(wake_flag) != 0;
}
