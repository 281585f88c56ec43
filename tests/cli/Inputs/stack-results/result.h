#include <urcu/arch.h>
#include <urcu/system.h>

struct result {
  int value;
  int ready;
};

void result_fill(struct result *res, int value);
int result_read(struct result *res);
