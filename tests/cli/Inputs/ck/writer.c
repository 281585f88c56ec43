#include "ck_pr.h"

int message, ready;

void writer(void) {
  ck_pr_store_int(&message, 1);
  ck_pr_fence_store();
  ck_pr_store_int(&ready, 1);
}
