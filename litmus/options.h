/* The runner's command line. */
#ifndef BARRIERPAIR_LITMUS_OPTIONS_H
#define BARRIERPAIR_LITMUS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OPTIONS_MAX_NAMES 16

/* Exit statuses of the runner. */
enum { EXIT_OK = 0, EXIT_CONTRADICTION = 1, EXIT_BAD_INPUT = 2 };

struct options {
  bool all_scenarios;
  bool scenario[16];
  bool all_variants;
  const char *variants[OPTIONS_MAX_NAMES];
  size_t variant_count;
  uint64_t iterations; /* 0: no limit */
  double seconds;      /* 0: no limit */
  bool pin;
  size_t batch, stride;
  unsigned stagger;
  const char *json_path;
  bool self_test;
  bool list;
};

/* Fills `options` from the command line. Returns -1 to go on, or the exit
 * status to exit with (after --help, or a message on stderr for bad input). */
int options_parse(int argc, char **argv, struct options *options);

#define DEFAULT_ITERATIONS 1000000
#define DEFAULT_SECONDS 10.0
#define MAX_ITERATIONS 1000000000000ull /* 10^12: days of running; more is a typo */
#define MAX_SECONDS 86400.0
#define DEFAULT_BATCH 1024
/* Each instance in cache lines of its own (16 ints = 64 bytes): with
 * instances sharing lines, the line traffic between neighbours hides most
 * reorderings (measured on x86: a third of the reorderings x86-TSO allows
 * showed at stride 1, all of them at stride 8 or 16). */
#define DEFAULT_STRIDE 16
#define DEFAULT_STAGGER 1024
#define MAX_STAGGER 1000000

#endif
