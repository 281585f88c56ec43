#include <urcu/arch.h>
#include <urcu/system.h>

struct node {
  struct node *next;
};

struct msg {
  int data;
  int ready;
  struct node node;
};

struct box {
  struct msg head;
};

void msg_init(struct msg *m, int data);
void msg_setup(struct msg *m);
void msg_clear(struct msg *m);
