/* RCU publication: initialise, then rcu_assign_pointer() (a release store);
 * rcu_dereference() (a consume load), then read through the pointer. No
 * fences: only --set weaken has sites here. */
#define _LGPL_SOURCE
#include <stddef.h>
#include <urcu/pointer.h>

struct rcu_config {
  int port;
  int timeout;
};

static struct rcu_config *rcu_current;

void rcu_publish(struct rcu_config *config) {
  config->port = 8080; /* not visible to anyone yet */
  config->timeout = 30;
  rcu_assign_pointer(rcu_current, config);
}

int rcu_port(void) {
  struct rcu_config *config = rcu_dereference(rcu_current);
  return config ? config->port : -1;
}
