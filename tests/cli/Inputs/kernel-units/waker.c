// Kernel code: READ_ONCE() and WRITE_ONCE() say so. Its Dekker side is
// missing its barrier.
#include "kernel.h"

int *wake_flag, *sleep_flag;

int waker(int *token) {
  WRITE_ONCE(wake_flag, token);
  return READ_ONCE(sleep_flag) != 0;
}
