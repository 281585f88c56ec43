#include "ck_pr.h"

extern int message, ready;

int reader(void) {
  if (!ck_pr_load_int(&ready))
    return -1;
  return ck_pr_load_int(&message);
}
