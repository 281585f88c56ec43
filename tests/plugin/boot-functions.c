// The kernel's __init functions run once, at boot, before what they set up
// is in use, and its __exit functions after: they race and pair with
// nothing. The same reader at run time misses its rmb.
//
// RUN: %barrierpair %s -Xclang -verify
#include "kernel.h"

#define __section(name) __attribute__((__section__(name)))
#define __init __section(".init.text")
#define __exit __section(".exit.text")

struct config {
  int value, ready;
} config;

void config_publish(int value) {
  WRITE_ONCE(config.value, value);
  smp_wmb(); // expected-note {{'config_publish' orders the store to 'config.value' before the store to 'config.ready' with 'smp_wmb()'}}
  WRITE_ONCE(config.ready, 1);
}

int __init config_boot_check(void) {
  if (READ_ONCE(config.ready))
    return READ_ONCE(config.value);
  return -1;
}

int __exit config_exit_check(void) {
  if (READ_ONCE(config.ready))
    return READ_ONCE(config.value);
  return -1;
}

int config_check(void) {
  if (READ_ONCE(config.ready))
    return READ_ONCE(config.value); // expected-warning {{no barrier orders the load of 'config.ready' before the load of 'config.value' in 'config_check'; with 'config_publish' this is scenario 3 (message passing)}} \
                                       expected-note {{scenario 3 (message passing) forbids}}
  return -1;
}
