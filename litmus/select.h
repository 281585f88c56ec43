/* Which generated tests a command line asks for. */
#ifndef BARRIERPAIR_LITMUS_SELECT_H
#define BARRIERPAIR_LITMUS_SELECT_H

#include "litmus_test.h"
#include "options.h"

/* Fills `selected` (room for litmus_test_count) and returns how many, or
 * -1 after a message on stderr: a variant no row has, or a variant the
 * chosen scenario does not have. */
long select_tests(const struct options *options, const struct litmus_test **selected);

/* The test called `name` ("S10+none"), or NULL. */
const struct litmus_test *find_test(const char *name);

#endif
