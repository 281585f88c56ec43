/* One unit built from several source files, as the kernel builds
 * kernel/sched/ through build_policy.c. */
#include "ring.c"
