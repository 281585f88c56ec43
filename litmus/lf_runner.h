/* barrierpair-litmus FILE.litmus|DIR...: herd7 C litmus files, converted,
 * compiled with the system C compiler and run natively (docs/litmus.md,
 * "Litmus files"). */
#ifndef BARRIERPAIR_LITMUS_LF_RUNNER_H
#define BARRIERPAIR_LITMUS_LF_RUNNER_H

#include <stdbool.h>

/* Some argument names a litmus file or a directory: the runner's file mode. */
bool lf_runner_wanted(int argc, char **argv);
/* The file mode's command line; returns the exit status. */
int lf_runner_main(int argc, char **argv);

#endif
