/* The shared variables every generated test uses, seen from the harness. */
#ifndef BARRIERPAIR_LITMUS_SHARED_MEMORY_H
#define BARRIERPAIR_LITMUS_SHARED_MEMORY_H

#include "litmus_test.h"

/* Named x and y because the generated tests must name them so (the analyzer
 * names shared objects by their global name); only the harness's reset and
 * tally code touches them from this side. */
extern int x[LITMUS_SLOTS];
extern int y[LITMUS_SLOTS];

#endif
