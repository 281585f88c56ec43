/* A segment's count of used pages, read and stepped plainly by two
 * threads that also hand its ownership over. */
#include <stdatomic.h>

struct owned {
  int used;
  _Atomic int owner;
};
