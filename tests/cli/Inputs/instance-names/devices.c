// A field named by its type in one function (any counter's `value`) and
// reached in an instance in others (`dev.opened.value`,
// `port->sent.value`): the analysis pairs them as one object, and each
// message names the instance its own code reaches.
#include "kernel.h"

struct counter {
  int value;
};

struct device {
  struct counter opened;
  int ready;
};

struct port {
  struct counter sent;
  int state;
};

struct device dev;

void counter_set(struct counter *counter, int value) {
  WRITE_ONCE(counter->value, value);
}

void open_device(void) {
  WRITE_ONCE(dev.opened.value, 1);
  WRITE_ONCE(dev.ready, 1);
}

int device_ready(void) {
  if (!READ_ONCE(dev.ready))
    return 0;
  smp_rmb();
  return READ_ONCE(dev.opened.value);
}

void port_send(struct port *port) {
  WRITE_ONCE(port->sent.value, 1);
  smp_wmb();
  WRITE_ONCE(port->state, 1);
}

int port_sent(struct port *port) {
  if (!READ_ONCE(port->state))
    return 0;
  return READ_ONCE(port->sent.value);
}
