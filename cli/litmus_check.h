/* barrierpair check FILE.litmus|DIR: herd7 C litmus files, each converted to
 * C (litmus/lf_emit_check.c) and analysed as a program of its own, with the
 * agreement of the findings with each file's Result: line. */
#ifndef BARRIERPAIR_CLI_LITMUS_CHECK_H
#define BARRIERPAIR_CLI_LITMUS_CHECK_H

#include "barrierpair/barrierpair.h"

#include <stdbool.h>
#include <stddef.h>

/* Some file argument is a litmus file or a directory. */
bool bp_litmus_wanted(const char *const *files, size_t count);
/* Checks them; returns the exit status: 0 all agree, 1 some disagree or have
 * findings without a Result: line, 2 an input error. */
int bp_litmus_check(const char *const *files, size_t count, const bp_options *analysis);

#endif
