#include <urcu/arch.h>
#include <urcu/system.h>

struct msg {
  int data;
  int ready;
};

struct msg *msg_new(void);
struct msg *msg_current(void);
void msg_register(struct msg *m);
int msg_read(struct msg *m);
