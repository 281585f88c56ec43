/* The shared variables of all generated tests: one slot per test instance.
 * All tests share these two arrays (they run one after another), which
 * keeps the runner's memory small however many tests the table makes.
 * Cache-line aligned so that where instances sit in lines depends only on
 * the stride the harness chooses. */
#include "shared_memory.h"

_Alignas(64) int x[LITMUS_SLOTS];
_Alignas(64) int y[LITMUS_SLOTS];
