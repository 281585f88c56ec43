/* The unit that builds the implementation file's functions. */
#include "queue-impl.h"

int slot_version(void) { return 1; }
