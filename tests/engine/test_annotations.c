/* Annotations: the comment and macro grammar read from a file's text, and
 * what the analysis does with them. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "barrierpair/barrierpair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bp_engine *engine_with_file(uint32_t *file) {
  bp_engine *engine = bp_engine_create();
  *file = bp_intern_file(engine, "/src/a.c");
  return engine;
}

static size_t scan(bp_engine *engine, uint32_t file, const char *text) {
  return bp_scan_annotations(engine, file, text, strlen(text));
}

static bp_annotation get(const bp_engine *engine, uint32_t index) {
  bp_annotation annotation;
  assert_true(bp_annotation_get(engine, index, &annotation));
  return annotation;
}

static void test_block_and_line_comments(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  const char *text =
      "int x;\n"
      "  /* barrierpair: ignore weak-barrier: the LKMM proves this cycle safe */\n"
      "\n"
      "  cmm_smp_rmb();\n"
      "  cmm_smp_wmb(); // BarrierPair: ignore   missing-barrier:pinned to one CPU\n";
  assert_int_equal(scan(engine, file, text), 2);
  bp_annotation first = get(engine, 0);
  assert_int_equal(first.kind, BP_ANNOTATION_IGNORE);
  assert_false(first.macro);
  assert_string_equal(first.name, "weak-barrier");
  assert_string_equal(first.reason, "the LKMM proves this cycle safe");
  assert_int_equal(first.location.file, file);
  assert_int_equal(first.location.line, 2);
  assert_int_equal(first.location.column, 6);
  assert_int_equal(first.first_line, 2);
  assert_int_equal(first.last_line, 2);
  assert_int_equal(first.next_code_line, 4); /* the blank line is no code */
  const bp_event *event = bp_event_get(engine, first.event);
  assert_int_equal(event->type, BP_EVENT_ANNOTATION);
  assert_int_equal(event->function, BP_NO_FUNCTION);
  assert_int_equal(event->location.line, 2);

  bp_annotation second = get(engine, 1);
  assert_string_equal(second.name, "missing-barrier");
  assert_string_equal(second.reason, "pinned to one CPU");
  assert_int_equal(second.location.line, 5);
  assert_int_equal(second.location.column, 21);
  assert_int_equal(second.next_code_line, 0); /* the file ends */
  bp_engine_destroy(engine);
}

static void test_multi_line_comment_and_reasons(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  const char *text = "/*\n"
                     " * Some prose first.\n"
                     " * barrierpair: ignore transitive-weak-barrier: the middle link is\n"
                     " * a full barrier\n"
                     " */\n"
                     "/* barrierpair: ignore weak-barrier */\n"
                     "/* barrierpair: ignore weak barrier: a space, not a hyphen */\n"
                     "/* barrierpair: ignore */\n"
                     "/* barrierpair: both threads are pinned, so this is prose */\n"
                     "f();\n";
  assert_int_equal(scan(engine, file, text), 4);
  bp_annotation multi = get(engine, 0);
  assert_string_equal(multi.name, "transitive-weak-barrier");
  assert_string_equal(multi.reason, "the middle link is a full barrier");
  assert_int_equal(multi.location.line, 3);
  assert_int_equal(multi.first_line, 1);
  assert_int_equal(multi.last_line, 5);
  assert_int_equal(multi.next_code_line, 10); /* comment lines are no code */
  assert_string_equal(get(engine, 1).name, "weak-barrier");
  assert_string_equal(get(engine, 1).reason, "");
  assert_string_equal(get(engine, 2).name, "weak");
  assert_string_equal(get(engine, 3).name, "");
  bp_engine_destroy(engine);
}

static void test_pairs_with(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  const char *text = "cmm_smp_wmb(); /* barrierpair: pairs with reader() */\n"
                     "// barrierpair: pairs with\n";
  assert_int_equal(scan(engine, file, text), 2);
  assert_int_equal(get(engine, 0).kind, BP_ANNOTATION_PAIRS_WITH);
  assert_string_equal(get(engine, 0).name, "reader");
  assert_int_equal(get(engine, 0).location.column, 19);
  assert_string_equal(get(engine, 1).name, "");
  bp_engine_destroy(engine);
}

static void test_macros(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  const char *text = "#define BARRIERPAIR_IGNORE(...) ((void)0)\n"
                     "  BARRIERPAIR_IGNORE(\"weak-barrier\", \"the reader is \"\n"
                     "                     \"pinned\");\n"
                     "  cmm_smp_rmb();\n"
                     "  BARRIERPAIR_PAIRS_WITH(reader); cmm_smp_wmb();\n"
                     "  BARRIERPAIR_IGNORE(\"missing-barrier\");\n"
                     "  BARRIERPAIR_IGNORE(weak_barrier, \"not a string: not an annotation\");\n"
                     "  x = 1;\n";
  assert_int_equal(scan(engine, file, text), 3);
  bp_annotation ignore = get(engine, 0);
  assert_int_equal(ignore.kind, BP_ANNOTATION_IGNORE);
  assert_true(ignore.macro);
  assert_string_equal(ignore.name, "weak-barrier");
  assert_string_equal(ignore.reason, "the reader is pinned");
  assert_int_equal(ignore.location.line, 2);
  assert_int_equal(ignore.location.column, 3);
  assert_int_equal(ignore.last_line, 3);
  assert_int_equal(ignore.next_code_line, 4);
  bp_annotation pairs = get(engine, 1);
  assert_int_equal(pairs.kind, BP_ANNOTATION_PAIRS_WITH);
  assert_string_equal(pairs.name, "reader");
  assert_int_equal(pairs.first_line, 5);
  assert_string_equal(get(engine, 2).name, "missing-barrier");
  assert_string_equal(get(engine, 2).reason, "");
  assert_int_equal(get(engine, 2).next_code_line, 7);
  bp_engine_destroy(engine);
}

static void test_strings_are_not_comments(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  const char *text = "const char *s = \"/* barrierpair: ignore weak-barrier: no */\";\n"
                     "char c = '\"'; /* barrierpair: ignore weak-barrier: yes */\n"
                     "puts(\"BARRIERPAIR_IGNORE(\\\"weak-barrier\\\", \\\"no\\\")\");\n";
  assert_int_equal(scan(engine, file, text), 1);
  assert_string_equal(get(engine, 0).reason, "yes");
  assert_int_equal(get(engine, 0).location.line, 2);
  bp_engine_destroy(engine);
}

/* A function with a full barrier on each of `lines`, so that kernel-style
 * comments beside them are kept. */
static void add_barriers(bp_engine *engine, uint32_t file, const uint32_t *lines, size_t count) {
  bp_function_begin(engine, "f", (bp_location){file, 1, 1});
  uint32_t block = bp_add_block(engine);
  for (size_t i = 0; i < count; i++)
    bp_add_barrier(engine, block, BP_STRENGTH_FULL, bp_primitive_find("smp_mb", 6), false,
                   (bp_location){file, lines[i], 3});
  bp_function_end(engine);
}

static void test_kernel_comments(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  static const struct {
    const char *comment;
    const char *function; /* NULL: the comment names none */
  } cases[] = {
      {"/* Pairs with smp_wmb() in foo() */", "foo"},
      {"/* pairs with bar() */", "bar"},
      {"/* Pairs with smp_wmb in alloc_swap_info. */", "alloc_swap_info"},
      {"/* See the smp_mb() in baz(). */", "baz"},
      {"/* Matches the smp_rmb() in qux() */", "qux"},
      {"/* paired with the smp_store_mb() on x in wait_woken(). */", "wait_woken"},
      {"/*\n * Pairs with the smp_wmb() in\n * finish_lock_switch().\n */", "finish_lock_switch"},
      {"/* pairs with smp_store_release() below */", NULL},
      {"/* Paired with the WRITE_ONCE() in this function. */", NULL},
      {"/* See the comment above. */", NULL},
      {"/* See comment in pmd_install() */", NULL},
      {"/* See the comments in do_exit(). */", NULL},
      {"/* Pairs with a dependency in READ_ONCE() in lookup_entry(). */", "lookup_entry"},
      {"/* This pairs with the full barrier within has_sleeper(). */", "has_sleeper"},
      {"/* This pairs with wake_klogd:A. */", "wake_klogd"},
      {"/* This pairs with the load of the flag below. */", NULL},
      {"/* pairs with the implied barrier in WRITE_ONCE() below. */", NULL},
      {"/* Pairs with set_state() barrier (A) in wait_loop(). */", "wait_loop"},
      {"/* order the flag before the data */", NULL},
      {"/* See wake_up_bit() for which memory barrier you need to use. */", NULL},
      {"/* See css_release_work_fn() for details. */", NULL},
      {"/* see try_to_wake_up() */", "try_to_wake_up"},
      {"/* See the smp_rmb() in svc_xprt_ready() for the reader. */", "svc_xprt_ready"},
  };
  size_t count = sizeof cases / sizeof cases[0];
  char text[4096] = "";
  uint32_t lines[32], line = 1;
  for (size_t i = 0; i < count; i++) {
    strcat(text, cases[i].comment);
    strcat(text, "\n  smp_mb();\n\n");
    for (const char *c = cases[i].comment; *c; c++)
      line += *c == '\n';
    lines[i] = line + 1;
    line += 3;
  }
  /* a comment beside no barrier is not kept */
  strcat(text, "/* pairs with nothing_here() */\nx = 1;\n");
  add_barriers(engine, file, lines, count);
  scan(engine, file, text);
  size_t found = 0;
  for (size_t i = 0; i < count; i++) {
    if (!cases[i].function)
      continue;
    assert_true(found < bp_annotation_count(engine));
    bp_annotation annotation = get(engine, (uint32_t)found++);
    assert_int_equal(annotation.kind, BP_ANNOTATION_COMMENT);
    assert_int_equal(annotation.next_code_line, lines[i]);
    if (strcmp(annotation.name, cases[i].function) != 0) {
      print_error("'%s' named '%s', not '%s'\n", cases[i].comment, annotation.name,
                  cases[i].function);
      fail();
    }
  }
  assert_int_equal(bp_annotation_count(engine), found);
  bp_engine_destroy(engine);
}

static void test_rescanning_adds_nothing(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  const char *text = "/* barrierpair: ignore weak-barrier: why */\nf();\n";
  assert_int_equal(scan(engine, file, text), 1);
  size_t events = bp_event_count(engine);
  assert_int_equal(scan(engine, file, text), 0);
  assert_int_equal(bp_event_count(engine), events);
  /* not while a function is being built: its events must stay together */
  bp_function_begin(engine, "g", (bp_location){file, 9, 1});
  assert_int_equal(scan(engine, file, "// barrierpair: ignore weak-barrier: x\n"), 0);
  bp_annotation annotation = get(engine, 0);
  assert_int_equal(bp_add_annotation(engine, &annotation), BP_NO_ANNOTATION);
  bp_function_end(engine);
  bp_engine_destroy(engine);
}

static void test_truncated_text_is_no_crash(void **state) {
  (void)state;
  static const char *const texts[] = {"/* barrierpair: ignore weak-barrier: unterminated",
                                      "\"unterminated string",
                                      "BARRIERPAIR_IGNORE(\"weak-barrier\"",
                                      "BARRIERPAIR_PAIRS_WITH(",
                                      "// barrierpair: pairs with",
                                      "/* pairs with (",
                                      "",
                                      "/",
                                      "'"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    uint32_t file;
    bp_engine *engine = engine_with_file(&file);
    scan(engine, file, texts[i]);
    bp_engine_destroy(engine);
  }
  uint32_t file;
  bp_engine *engine = engine_with_file(&file);
  assert_int_equal(bp_scan_annotations(engine, file, NULL, 10), 0);
  /* the unterminated comment still counts up to the end of the text */
  assert_int_equal(scan(engine, file, texts[0]), 1);
  assert_string_equal(get(engine, 0).reason, "unterminated");
  bp_engine_destroy(engine);
}

/* ---- In the analysis ---- */

/* writer stores x, then y with a read barrier (the wrong kind) on line 11;
 * `text` is the file's text, scanned after lowering as front ends do. */
static bp_engine *wrong_kind_program(const char *text, uint32_t *file) {
  bp_engine *engine = engine_with_file(file);
  uint32_t x = bp_intern_object(engine, "x", "x"), y = bp_intern_object(engine, "y", "y");
  bp_function_begin(engine, "writer", (bp_location){*file, 8, 6});
  uint32_t block = bp_add_block(engine);
  bp_add_access(engine, block, x, BP_ACCESS_STORE, true, BP_NO_PRIMITIVE,
                (bp_location){*file, 10, 3});
  bp_add_barrier(engine, block, BP_STRENGTH_LOADS, bp_primitive_find("cmm_smp_rmb", 11), false,
                 (bp_location){*file, 11, 3});
  bp_add_access(engine, block, y, BP_ACCESS_STORE, true, BP_NO_PRIMITIVE,
                (bp_location){*file, 12, 3});
  bp_function_end(engine);
  scan(engine, *file, text);
  return engine;
}

static size_t analyse(bp_engine *engine, bool whole_program, bp_finding **findings) {
  bp_options options = {0};
  options.disabled[BP_RULE_UNPAIRED_BARRIER] = !whole_program;
  return bp_analyze(engine, &options, findings);
}

static void test_suppression_drops_the_finding(void **state) {
  (void)state;
  uint32_t file;
  char text[512] = "";
  for (int line = 1; line < 10; line++)
    strcat(text, "\n");
  strcat(text, "/* barrierpair: ignore weak-barrier: pinned to one CPU */\n"
               "  cmm_smp_rmb();\n");
  bp_engine *engine = wrong_kind_program(text, &file);
  bp_finding *findings;
  assert_int_equal(analyse(engine, false, &findings), 0);
  free(findings);
  bp_engine_destroy(engine);

  /* without it, the finding is there */
  engine = wrong_kind_program("", &file);
  assert_int_equal(analyse(engine, false, &findings), 1);
  assert_int_equal(findings[0].rule, BP_RULE_WEAK_BARRIER);
  free(findings);
  bp_engine_destroy(engine);
}

static void test_suppression_problems(void **state) {
  (void)state;
  uint32_t file;
  char text[512] = "";
  for (int line = 1; line < 10; line++)
    strcat(text, "\n");
  strcat(text, "/* barrierpair: ignore weak-barrier */\n"                    /* 10: no reason */
               "  cmm_smp_rmb(); // barrierpair: ignore weak-barier: typo\n" /* 11 */
               "// barrierpair: ignore missing-barrier: stale beside code\n" /* 12 */
               "\n"
               "// barrierpair: ignore weak-barrier: stale beside nothing\n"); /* 14 */
  bp_engine *engine = wrong_kind_program(text, &file);
  bp_finding *findings;
  size_t count = analyse(engine, false, &findings);
  /* one scope: code that is fine here may break with other files */
  assert_int_equal(count, 3);
  assert_int_equal(findings[0].problem, BP_PROBLEM_NO_REASON);
  assert_int_equal(findings[1].problem, BP_PROBLEM_UNKNOWN_RULE);
  assert_int_equal(findings[2].problem, BP_PROBLEM_SILENCES_NOTHING);
  assert_int_equal(bp_event_get(engine, findings[2].at)->location.line, 14);
  char *message = bp_finding_message(engine, &findings[1]);
  assert_non_null(strstr(message, "'barrierpair: ignore weak-barier' names no rule"));
  free(message);
  free(findings);

  /* the whole program: the stale one beside code is stale too (and the
   * barrier pairs with nothing) */
  count = analyse(engine, true, &findings);
  assert_int_equal(count, 5);
  assert_int_equal(findings[1].rule, BP_RULE_UNPAIRED_BARRIER);
  assert_int_equal(findings[3].problem, BP_PROBLEM_SILENCES_NOTHING);
  assert_int_equal(bp_event_get(engine, findings[3].at)->location.line, 12);
  assert_int_equal(findings[4].problem, BP_PROBLEM_SILENCES_NOTHING);
  free(findings);

  /* a disabled rule is never stale */
  bp_options options = {0};
  options.disabled[BP_RULE_MISSING_BARRIER] = true;
  options.disabled[BP_RULE_WEAK_BARRIER] = true;
  options.disabled[BP_RULE_UNPAIRED_BARRIER] = true;
  count = bp_analyze(engine, &options, &findings);
  assert_int_equal(count, 2); /* no reason, unknown rule; line 14 is not stale */
  assert_int_equal(findings[0].problem, BP_PROBLEM_NO_REASON);
  assert_int_equal(findings[1].problem, BP_PROBLEM_UNKNOWN_RULE);
  free(findings);
  bp_engine_destroy(engine);
}

static void test_site_files_keep_annotations(void **state) {
  (void)state;
  uint32_t file;
  bp_engine *engine = wrong_kind_program("\n\n/* barrierpair: ignore weak-barrier: \"quoted\"\n"
                                         " * and two lines */\nBARRIERPAIR_PAIRS_WITH(g);\n",
                                         &file);
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  assert_true(bp_program_write(engine, out));
  fclose(out);
  bp_engine *copy = bp_engine_create();
  bp_intern_file(copy, "/elsewhere.c"); /* file ids differ from the original's */
  for (int twice = 0; twice < 2; twice++) {
    FILE *in = fmemopen(text, strlen(text), "r");
    char error[256];
    assert_true(bp_program_read(copy, in, "test.sites", error, sizeof error));
    fclose(in);
  }
  assert_int_equal(bp_annotation_count(copy), bp_annotation_count(engine));
  for (uint32_t a = 0; a < bp_annotation_count(engine); a++) {
    bp_annotation original = get(engine, a), read = get(copy, a);
    assert_int_equal(read.kind, original.kind);
    assert_int_equal(read.macro, original.macro);
    assert_string_equal(bp_file_path(copy, read.location.file),
                        bp_file_path(engine, original.location.file));
    assert_int_equal(read.location.line, original.location.line);
    assert_int_equal(read.location.column, original.location.column);
    assert_int_equal(read.first_line, original.first_line);
    assert_int_equal(read.last_line, original.last_line);
    assert_int_equal(read.next_code_line, original.next_code_line);
    assert_string_equal(read.name, original.name);
    assert_string_equal(read.reason, original.reason);
    assert_int_equal(bp_event_get(copy, read.event)->location.line, original.location.line);
  }
  free(text);
  bp_engine_destroy(copy);
  bp_engine_destroy(engine);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_block_and_line_comments),
      cmocka_unit_test(test_multi_line_comment_and_reasons),
      cmocka_unit_test(test_pairs_with),
      cmocka_unit_test(test_macros),
      cmocka_unit_test(test_strings_are_not_comments),
      cmocka_unit_test(test_kernel_comments),
      cmocka_unit_test(test_rescanning_adds_nothing),
      cmocka_unit_test(test_truncated_text_is_no_crash),
      cmocka_unit_test(test_suppression_drops_the_finding),
      cmocka_unit_test(test_suppression_problems),
      cmocka_unit_test(test_site_files_keep_annotations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
