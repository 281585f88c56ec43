// Every call hands the result functions a result on its own stack.
#include "result.h"

int lookup(int key) {
  struct result res;
  result_fill(&res, key * 2);
  return result_read(&res);
}

#ifdef SHARED
struct result last_result;

// a result every thread may reach, filled by one and read by another
void remember(int key) {
  result_fill(&last_result, key);
}

int recall(void) {
  return result_read(&last_result);
}
#endif
