/* See options.h. */
#define _GNU_SOURCE /* getopt_long */
#include "options.h"

#include "litmus_test.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: barrierpair-litmus [options]\n"
    "\n"
    "Runs the memory-barrier menagerie's scenarios natively and shows which\n"
    "outcomes this CPU produces, against what the scenario table says.\n"
    "\n"
    "  --scenario N|all      the table rows to run (N: 0..15, or a list 3,10); default all\n"
    "  --variant NAME|all    the barrier variants to run (or a list); default all:\n"
    "                          none      no barrier on either side\n"
    "                          weakest   the weakest barriers the row allows\n"
    "                          full      cmm_smp_mb() on both sides\n"
    "                          missing0  CPU 0 has no barrier, CPU 1 the weakest it may use\n"
    "                          missing1  CPU 1 has no barrier, CPU 0 the weakest it may use\n"
    "                          rmb0 wmb0 CPU 0 has that barrier, too weak or the wrong kind\n"
    "                          rmb1 wmb1 CPU 1 likewise (only where it is not enough)\n"
    "  --iterations N        instances per test (default 1000000, or no limit with --seconds)\n"
    "  --seconds S           time limit per test (default 10, or none with --iterations)\n"
    "  --affinity auto|none  pin threads to distinct CPUs (auto, the default) or not\n"
    "  --json FILE           also write everything as JSON to FILE\n"
    "  --self-test           check the harness can see a reordering: scenario 10 without\n"
    "                        barriers must be witnessed within the time limit\n"
    "  --list                list the tests and what the table says of each\n"
    "  --batch N             instances per synchronisation (1..8192, default 1024)\n"
    "  --stride N            slots between instances (1..16, default 16: a cache line each)\n"
    "  --stagger N           random spins (0..N) before each batch, per thread (default 1024)\n"
    "  --help                this text\n"
    "\n"
    "Verdicts: confirmed (barriers the table calls enough held), witnessed (a\n"
    "variant the table calls broken showed the forbidden outcome), not shown by\n"
    "this CPU (it did not: the reason says whether this CPU can show it at all),\n"
    "CONTRADICTION (forbidden outcome under barriers the table calls enough).\n"
    "Exit status: 0, 1 on a CONTRADICTION or a failed self-test, 2 on bad input.\n";

static int bad(const char *format, const char *value) {
  fprintf(stderr, "barrierpair-litmus: ");
  fprintf(stderr, format, value);
  fprintf(stderr, "\n(try --help)\n");
  return EXIT_BAD_INPUT;
}

/* A count: digits, or a number like 1e7 that is a whole number. */
static bool parse_count(const char *text, uint64_t minimum, uint64_t maximum, uint64_t *value) {
  char *end;
  errno = 0;
  if (*text == '-' || *text == '\0')
    return false;
  unsigned long long whole = strtoull(text, &end, 10);
  if (*end != '\0' || errno) {
    double real = strtod(text, &end);
    if (*end != '\0' || errno || !(real >= 0) || real > 1e19 || real != floor(real))
      return false;
    whole = (unsigned long long)real;
  }
  if (whole < minimum || whole > maximum)
    return false;
  *value = whole;
  return true;
}

static int parse_scenarios(const char *text, struct options *options) {
  if (strcmp(text, "all") == 0) {
    options->all_scenarios = true;
    return -1;
  }
  char copy[256];
  snprintf(copy, sizeof copy, "%s", text);
  options->all_scenarios = false;
  memset(options->scenario, 0, sizeof options->scenario);
  for (char *save, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    uint64_t number;
    if (!parse_count(item, 0, 15, &number))
      return bad("unknown scenario '%s': the table has scenarios 0 to 15 (or 'all')", item);
    options->scenario[number] = true;
  }
  return -1;
}

static int parse_variants(char *text, struct options *options) {
  if (strcmp(text, "all") == 0) {
    options->all_variants = true;
    return -1;
  }
  options->all_variants = false;
  options->variant_count = 0;
  for (char *save, *item = strtok_r(text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
    if (options->variant_count == OPTIONS_MAX_NAMES)
      return bad("too many variants in '%s'", text);
    options->variants[options->variant_count++] = item;
  }
  if (options->variant_count == 0)
    return bad("--variant needs a name or 'all'%s", "");
  return -1;
}

int options_parse(int argc, char **argv, struct options *options) {
  enum {
    SCENARIO = 256,
    VARIANT,
    ITERATIONS,
    SECONDS,
    AFFINITY,
    JSON,
    SELF_TEST,
    LIST,
    BATCH,
    STRIDE,
    STAGGER,
    HELP
  };
  static const struct option long_options[] = {
      {"scenario", required_argument, NULL, SCENARIO},
      {"variant", required_argument, NULL, VARIANT},
      {"iterations", required_argument, NULL, ITERATIONS},
      {"seconds", required_argument, NULL, SECONDS},
      {"affinity", required_argument, NULL, AFFINITY},
      {"json", required_argument, NULL, JSON},
      {"self-test", no_argument, NULL, SELF_TEST},
      {"list", no_argument, NULL, LIST},
      {"batch", required_argument, NULL, BATCH},
      {"stride", required_argument, NULL, STRIDE},
      {"stagger", required_argument, NULL, STAGGER},
      {"help", no_argument, NULL, HELP},
      {NULL, 0, NULL, 0},
  };
  bool iterations_given = false, seconds_given = false;
  *options = (struct options){.all_scenarios = true,
                              .all_variants = true,
                              .pin = true,
                              .batch = DEFAULT_BATCH,
                              .stride = DEFAULT_STRIDE,
                              .stagger = DEFAULT_STAGGER};
  opterr = 0;
  int option, status;
  while ((option = getopt_long(argc, argv, ":", long_options, NULL)) != -1) {
    uint64_t count;
    char *end;
    switch (option) {
    case SCENARIO:
      if ((status = parse_scenarios(optarg, options)) >= 0)
        return status;
      break;
    case VARIANT:
      if ((status = parse_variants(optarg, options)) >= 0)
        return status;
      break;
    case ITERATIONS:
      if (!parse_count(optarg, 1, MAX_ITERATIONS, &count))
        return bad("--iterations %s: give a whole number from 1 to 10^12", optarg);
      options->iterations = count;
      iterations_given = true;
      break;
    case SECONDS:
      errno = 0;
      options->seconds = strtod(optarg, &end);
      if (*optarg == '\0' || *end != '\0' || errno || !(options->seconds > 0) ||
          options->seconds > MAX_SECONDS)
        return bad("--seconds %s: give a time above 0 and at most 86400 (a day)", optarg);
      seconds_given = true;
      break;
    case AFFINITY:
      if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "none") != 0)
        return bad("--affinity %s: give 'auto' or 'none'", optarg);
      options->pin = strcmp(optarg, "auto") == 0;
      break;
    case JSON:
      options->json_path = optarg;
      break;
    case SELF_TEST:
      options->self_test = true;
      break;
    case LIST:
      options->list = true;
      break;
    case BATCH:
      if (!parse_count(optarg, 1, LITMUS_MAX_INSTANCES, &count))
        return bad("--batch %s: give a whole number from 1 to 8192", optarg);
      options->batch = (size_t)count;
      break;
    case STRIDE:
      if (!parse_count(optarg, 1, LITMUS_MAX_STRIDE, &count))
        return bad("--stride %s: give a whole number from 1 to 16", optarg);
      options->stride = (size_t)count;
      break;
    case STAGGER:
      if (!parse_count(optarg, 0, MAX_STAGGER, &count))
        return bad("--stagger %s: give a whole number from 0 to 1000000", optarg);
      options->stagger = (unsigned)count;
      break;
    case HELP:
      fputs(usage, stdout);
      return EXIT_OK;
    case ':':
      return bad("%s needs a value", argv[optind - 1]);
    default:
      return bad("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc)
    return bad("unexpected argument '%s'", argv[optind]);
  /* Either limit alone means "run to it"; neither means both defaults. The
   * self-test runs until the first witness, within the time limit. */
  if (options->self_test) {
    if (!iterations_given)
      options->iterations = 0;
    if (!seconds_given)
      options->seconds = DEFAULT_SECONDS;
  } else if (!iterations_given && !seconds_given) {
    options->iterations = DEFAULT_ITERATIONS;
    options->seconds = DEFAULT_SECONDS;
  }
  return -1;
}
