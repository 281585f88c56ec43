/* The litmus generator's parts: gen.c walks the table and writes files,
 * emit_test.c writes one test's C source, emit_index.c the files that list
 * all tests (registry, BUG_ON() conditions, manifest for the cross-check). */
#ifndef BARRIERPAIR_LITMUS_GEN_H
#define BARRIERPAIR_LITMUS_GEN_H

#include "scenario_program.h"
#include "variants.h"

#include <stdio.h>

/* One test to generate: a row and one of its variants. */
struct generated_test {
  const struct scenario_program *program;
  const struct variant *variant;
};

/* "s03_weakest.c" (no directory). */
void generated_test_file_name(const struct generated_test *test, char *buffer, size_t size);
/* "litmus_test_s03_weakest": the test's descriptor. */
void generated_test_symbol(const struct generated_test *test, char *buffer, size_t size);
/* "S3+weakest": the test's name in output, litmus7 style. */
void generated_test_name(const struct generated_test *test, char *buffer, size_t size);
/* The CPU's code in the article's notation with the variant's barrier. */
void generated_test_code(const struct generated_test *test, int cpu, char *buffer, size_t size);

void emit_test_source(FILE *out, const struct generated_test *test);

void emit_conditions_header(FILE *out, const struct scenario_program *programs, int count);
void emit_conditions_source(FILE *out, const struct scenario_program *programs, int count);
void emit_registry(FILE *out, const struct generated_test *tests, size_t count);
void emit_manifest(FILE *out, const struct generated_test *tests, size_t count);

/* Writes `text` as a C string literal (or JSON string: the same escapes). */
void emit_string(FILE *out, const char *text);

#endif
