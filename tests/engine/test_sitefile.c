/* Site files and merging: a program written and read back is the same
 * program, field by field; merges unify objects by key; corrupt files are
 * clear errors that name the file and line. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "barrierpair/barrierpair.h"
#include "event_fields.h" /* generated from barrierpair.h by event_fields.py */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every field of bp_event as clang sees it. */
typedef struct {
  const char *name;
  size_t offset, size;
} real_field;

#define REAL_FIELD(field) {#field, offsetof(bp_event, field), sizeof(((bp_event *)0)->field)},
static const real_field real_fields[] = {BP_TEST_EVENT_FIELDS(REAL_FIELD)};
#undef REAL_FIELD
#define REAL_FIELD_COUNT (sizeof real_fields / sizeof real_fields[0])

/* Fields whose values are ids of one engine; the test compares what they
 * name. Every other field is compared byte for byte. */
static const char *const id_fields[] = {
    "function",       "location",    "object",      "statement",          "own_begin",
    "own_end",        "indentation", "guards",      "address_sources",    "value_sources",
    "access_begin",   "access_end",  "lvalue_text", "value_text",         "callee",
    "contract",       "value_guard", "outer_guard", "value_guard_object", "outer_guard_object",
    "stored_address", "root_type",   "subtype",     "allocation_source",  "set_up_flag",
    "after_set_up"};

static bool is_id_field(const char *name) {
  for (size_t i = 0; i < sizeof id_fields / sizeof id_fields[0]; i++) {
    if (strcmp(id_fields[i], name) == 0)
      return true;
  }
  return false;
}

/* Fields the test builds through the API with real values. */
// clang-format off
static const char *const built_fields[] = {
    "type",         "function",    "location",    "primitive",  "object",
    "kind",         "marked",      "strength",    "implicit",   "statement",
    "own_begin",    "own_end",     "indentation", "guards",     "address_sources",
    "value_sources",
    "access_begin", "access_end",  "lvalue_text", "value_text", "callee", "contract",
    "thread_own",   "marked_region", "unpublished", "after_unnamed_stores", "after_publication",
    "reference_put", "after_unlock_lock", "value_unused", "value_known", "stored_value", "address_known",
    "stored_address", "bits", "value_guard",
    "value_guard_object", "value_guard_bits", "value_guard_zero", "outer_guard",
    "outer_guard_object", "outer_guard_bits", "outer_guard_zero", "stored_increment", "stored_nonzero",
    "root", "root_type", "value_root", "subtype", "inlined", "allocation_source", "set_up_flag",
    "after_set_up"};
// clang-format on

static bool is_built_field(const char *name) {
  for (size_t i = 0; i < sizeof built_fields / sizeof built_fields[0]; i++) {
    if (strcmp(built_fields[i], name) == 0)
      return true;
  }
  return false;
}

static int primitive(const char *name) {
  return bp_primitive_find(name, strlen(name));
}

static bp_location at(uint32_t file, uint32_t line, uint32_t column) {
  return (bp_location){file, line, column};
}

/* A program with two files, global, static and field objects, branches, a
 * loop, implicit barriers and fix-it texts (including odd characters). */
static bp_engine *build_program(void) {
  bp_engine *engine = bp_engine_create();
  uint32_t a = bp_intern_file(engine, "/src/dir with space/a.c");
  uint32_t b = bp_intern_file(engine, "/src/b\"quote\\.c");
  uint32_t x = bp_intern_object(engine, "x", "x");
  uint32_t s = bp_intern_object(engine, "/src/dir with space/a.c:s", "s");
  uint32_t head = bp_intern_object(engine, "struct ring.head", "ring.head");

  bp_function_begin(engine, "writer", at(a, 3, 6));
  uint32_t entry = bp_add_block(engine), body = bp_add_block(engine), exit = bp_add_block(engine);
  bp_add_edge(engine, entry, body);
  bp_add_loop_edge(engine, body, body);
  bp_add_edge(engine, body, exit);
  uint32_t e = bp_add_access(engine, body, x, BP_ACCESS_STORE, true, primitive("CMM_STORE_SHARED"),
                             at(a, 5, 3));
  bp_set_event_text(engine, e, at(a, 5, 3), "\t  ", at(0, 0, 0), at(0, 0, 0));
  e = bp_add_barrier(engine, body, BP_STRENGTH_STORES, primitive("cmm_smp_wmb"), false,
                     at(a, 6, 3));
  bp_set_event_text(engine, e, at(a, 6, 3), "  ", at(a, 6, 3), at(a, 6, 16));
  bp_set_after_unnamed_stores(engine, e);
  e = bp_add_access(engine, exit, s, BP_ACCESS_STORE, false, BP_NO_PRIMITIVE, at(a, 7, 3));
  bp_set_stored_value(engine, e, -3);
  bp_set_stored_address(engine, e, head);
  bp_set_access_bits(engine, e, UINT64_C(0x8000000000000004));
  bp_add_call(engine, exit, "claim \"slot\"", at(a, 8, 3));
  bp_function_exit(engine, exit);
  bp_function_end(engine);

  bp_function_begin(engine, "reader", at(b, 10, 5));
  entry = bp_add_block(engine);
  bp_add_access(engine, entry, head, BP_ACCESS_LOAD, true, primitive("CMM_LOAD_SHARED"),
                at(b, 11, 9));
  e = bp_add_barrier(engine, entry, BP_STRENGTH_FULL, primitive("__atomic_load_n"), true,
                     at(b, 12, 9));
  bp_set_event_text(engine, e, at(b, 12, 1), "\x01odd\n", at(0, 0, 0), at(0, 0, 0));
  e = bp_add_access(engine, entry, x, BP_ACCESS_LOAD, false, BP_NO_PRIMITIVE, at(b, 13, 2));
  bp_add_guard(engine, e, head);
  bp_set_value_guard(engine, e, head, at(b, 11, 9), 0x4, true);
  bp_set_outer_value_guard(engine, e, s, at(b, 10, 3), 0x8, false);
  bp_add_address_source(engine, e, s);
  bp_set_access_text(engine, e, at(b, 13, 2), at(b, 13, 3), "x", NULL);
  e = bp_add_access(engine, entry, s, BP_ACCESS_STORE, false, BP_NO_PRIMITIVE, at(b, 14, 2));
  bp_set_access_text(engine, e, at(b, 14, 2), at(b, 14, 7), "s", "\"1\"");
  bp_add_value_source(engine, e, head);
  bp_set_access_root(engine, e, 7, "struct \"ring\"");
  bp_set_access_subtype(engine, e, "tcp_sock.inet>inet_sock.sk>sock");
  bp_set_allocation_source(engine, e, "ring_\"new\"");
  bp_set_value_root(engine, e, 3);
  bp_set_set_up_flag(engine, e, head);
  bp_set_after_set_up(engine, e, x);
  bp_set_event_callee(engine, e, "set_s");
  bp_set_event_contract(engine, e, "publish_s");
  bp_set_thread_own(engine, e);
  bp_set_marked_region(engine, e);
  bp_set_unpublished(engine, e);
  bp_set_after_publication(engine, e);
  bp_set_reference_put(engine, e);
  bp_set_value_unused(engine, e);
  bp_set_call_inlined(engine, e);
  bp_set_after_unlock_lock(
      engine, bp_add_lock(engine, entry, s, true, primitive("spin_lock"), at(b, 15, 2)));
  bp_function_end(engine);

  bp_function_begin(engine, "checked_for_its_contract", at(b, 20, 13));
  bp_add_barrier(engine, bp_add_block(engine), BP_STRENGTH_LOADS, primitive("cmm_smp_rmb"), false,
                 at(b, 21, 3));
  bp_set_contract_only(engine);
  bp_function_end(engine);

  bp_function_begin(engine, "called_where_seen", at(b, 24, 13));
  bp_add_barrier(engine, bp_add_block(engine), BP_STRENGTH_STORES, primitive("cmm_smp_wmb"), false,
                 at(b, 25, 3));
  bp_set_callers(engine, BP_CALLERS_IN_PROGRAM);
  bp_set_boot_only(engine);
  bp_set_returns_fresh(engine);
  bp_function_end(engine);

  bp_function_begin(engine, "barrier_by_contract_emptied", at(b, 28, 13));
  bp_add_place(engine, bp_add_block(engine), at(b, 29, 1));
  bp_function_end(engine);

  bp_function_begin(engine, "empty", at(0, 0, 0));
  bp_function_end(engine);
  bp_add_address_taken(engine, "on_\"event\"");
  return engine;
}

/* Sets every field the test does not build to a value no front end leaves
 * at zero, so a field the format forgets comes back different. */
static void fill_unbuilt_fields(bp_engine *engine) {
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    bp_event *event = (bp_event *)bp_event_get(engine, id);
    for (size_t f = 0; f < REAL_FIELD_COUNT; f++) {
      if (!is_built_field(real_fields[f].name))
        memset((char *)event + real_fields[f].offset, 1 + (int)(id % 2), real_fields[f].size);
    }
  }
}

static char *write_to_string(const bp_engine *engine) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  assert_non_null(out);
  assert_true(bp_program_write(engine, out));
  fclose(out);
  return text;
}

static bool read_from_string(bp_engine *engine, const char *text, char *error, size_t size) {
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  assert_non_null(in);
  bool ok = bp_program_read(engine, in, "test.sites", error, size);
  fclose(in);
  return ok;
}

static void assert_same_location(const bp_engine *a, bp_location la, const bp_engine *b,
                                 bp_location lb, const char *what) {
  if (la.line != lb.line || la.column != lb.column ||
      (la.line && strcmp(bp_file_path(a, la.file), bp_file_path(b, lb.file)) != 0)) {
    print_error("%s: %s:%u:%u became %s:%u:%u\n", what, bp_file_path(a, la.file), la.line,
                la.column, bp_file_path(b, lb.file), lb.line, lb.column);
    fail();
  }
}

/* Compares events of two engines field by field: ids by what they name,
 * everything else byte for byte. */
static void assert_same_event(const bp_engine *a, uint32_t ia, const bp_engine *b, uint32_t ib) {
  const bp_event *ea = bp_event_get(a, ia), *eb = bp_event_get(b, ib);
  for (size_t f = 0; f < REAL_FIELD_COUNT; f++) {
    const real_field *field = &real_fields[f];
    const char *name = field->name;
    if (!is_id_field(name)) {
      if (memcmp((const char *)ea + field->offset, (const char *)eb + field->offset, field->size) !=
          0) {
        print_error("bp_event field '%s' of event %u did not survive the site file: add it to "
                    "BP_EVENT_FIELDS in lib/model/sitefile.c (and bump BP_SITES_VERSION)\n",
                    name, ia);
        fail();
      }
    } else if (strcmp(name, "function") == 0) {
      assert_string_equal(bp_function_name(a, ea->function), bp_function_name(b, eb->function));
      assert_int_equal(bp_function_contract_only(a, ea->function),
                       bp_function_contract_only(b, eb->function));
      assert_int_equal(bp_function_callers(a, ea->function), bp_function_callers(b, eb->function));
      assert_int_equal(bp_function_returns_fresh(a, ea->function),
                       bp_function_returns_fresh(b, eb->function));
      assert_int_equal(bp_function_runs_alone(a, ea->function),
                       bp_function_runs_alone(b, eb->function));
      assert_int_equal(bp_function_exit_block(a, ea->function),
                       bp_function_exit_block(b, eb->function));
    } else if (strcmp(name, "object") == 0 || strcmp(name, "value_guard_object") == 0 ||
               strcmp(name, "outer_guard_object") == 0 || strcmp(name, "stored_address") == 0 ||
               strcmp(name, "set_up_flag") == 0 || strcmp(name, "after_set_up") == 0) {
      uint32_t oa, ob;
      memcpy(&oa, (const char *)ea + field->offset, sizeof oa);
      memcpy(&ob, (const char *)eb + field->offset, sizeof ob);
      if ((oa == BP_NO_OBJECT) != (ob == BP_NO_OBJECT)) {
        print_error("bp_event field '%s' of event %u: an object on one side only\n", name, ia);
        fail();
      } else if (ea->type == BP_EVENT_ACCESS && oa != BP_NO_OBJECT)
        assert_string_equal(bp_object_display(a, oa), bp_object_display(b, ob));
    } else if (strcmp(name, "indentation") == 0) {
      assert_string_equal(bp_event_indentation(a, ia), bp_event_indentation(b, ib));
    } else if (strcmp(name, "lvalue_text") == 0) {
      assert_string_equal(bp_event_lvalue_text(a, ia), bp_event_lvalue_text(b, ib));
    } else if (strcmp(name, "callee") == 0) {
      assert_string_equal(bp_event_callee(a, ia), bp_event_callee(b, ib));
    } else if (strcmp(name, "contract") == 0) {
      assert_string_equal(bp_event_contract(a, ia), bp_event_contract(b, ib));
    } else if (strcmp(name, "root_type") == 0) {
      assert_string_equal(bp_event_root_type(a, ia), bp_event_root_type(b, ib));
    } else if (strcmp(name, "subtype") == 0) {
      assert_string_equal(bp_event_subtype(a, ia), bp_event_subtype(b, ib));
    } else if (strcmp(name, "allocation_source") == 0) {
      assert_string_equal(bp_event_allocation_source(a, ia), bp_event_allocation_source(b, ib));
    } else if (strcmp(name, "value_text") == 0) {
      assert_string_equal(bp_event_value_text(a, ia), bp_event_value_text(b, ib));
    } else if (strcmp(name, "guards") == 0 || strcmp(name, "address_sources") == 0 ||
               strcmp(name, "value_sources") == 0) {
      const uint32_t *ga = (const uint32_t *)((const char *)ea + field->offset);
      const uint32_t *gb = (const uint32_t *)((const char *)eb + field->offset);
      for (size_t g = 0; g < BP_GUARDS_MAX; g++) {
        assert_int_equal(ga[g] == BP_NO_OBJECT, gb[g] == BP_NO_OBJECT);
        if (ga[g] != BP_NO_OBJECT)
          assert_string_equal(bp_object_display(a, ga[g]), bp_object_display(b, gb[g]));
      }
    } else {
      bp_location la, lb;
      memcpy(&la, (const char *)ea + field->offset, sizeof la);
      memcpy(&lb, (const char *)eb + field->offset, sizeof lb);
      assert_same_location(a, la, b, lb, name);
    }
  }
}

static void test_format_lists_every_event_field(void **state) {
  (void)state;
  for (size_t f = 0; f < REAL_FIELD_COUNT; f++) {
    bool found = false;
    for (size_t i = 0; i < bp_sites_field_count(); i++)
      found = found || strcmp(bp_sites_field_name(i), real_fields[f].name) == 0;
    if (!found) {
      print_error("bp_event has field '%s', which site files do not write: add it to "
                  "BP_EVENT_FIELDS in lib/model/sitefile.c (and bump BP_SITES_VERSION)\n",
                  real_fields[f].name);
      fail();
    }
  }
  assert_int_equal(bp_sites_field_count(), REAL_FIELD_COUNT);
}

static void test_round_trip_keeps_every_field(void **state) {
  (void)state;
  bp_engine *original = build_program();
  fill_unbuilt_fields(original);
  char *text = write_to_string(original);
  bp_engine *copy = bp_engine_create();
  char error[256];
  if (!read_from_string(copy, text, error, sizeof error)) {
    print_error("%s\n%s", error, text);
    fail();
  }
  assert_int_equal(bp_event_count(copy), bp_event_count(original));
  for (uint32_t id = 0; id < bp_event_count(original); id++)
    assert_same_event(original, id, copy, id);
  /* Functions, blocks and edges: the copy writes the same text. */
  char *again = write_to_string(copy);
  assert_string_equal(text, again);
  free(again);
  free(text);
  bp_engine_destroy(copy);
  bp_engine_destroy(original);
}

static void test_merge_remaps_ids(void **state) {
  (void)state;
  bp_engine *original = build_program();
  fill_unbuilt_fields(original);
  /* A program that already has other files, objects and functions. */
  bp_engine *whole = bp_engine_create();
  uint32_t other = bp_intern_file(whole, "/src/other.c");
  uint32_t y = bp_intern_object(whole, "y", "y");
  bp_intern_object(whole, "x", "x");
  bp_function_begin(whole, "first", at(other, 1, 1));
  bp_add_access(whole, bp_add_block(whole), y, BP_ACCESS_LOAD, true, BP_NO_PRIMITIVE,
                at(other, 2, 2));
  bp_function_end(whole);
  size_t before = bp_event_count(whole);

  assert_int_equal(bp_program_merge(whole, original), 6);
  assert_int_equal(bp_event_count(whole), before + bp_event_count(original));
  assert_string_equal(bp_address_taken(whole, 0), "on_\"event\"");
  assert_null(bp_address_taken(whole, 1));
  for (uint32_t id = 0; id < bp_event_count(original); id++)
    assert_same_event(original, id, whole, (uint32_t)before + id);

  /* The same functions again add nothing: one function, wherever it comes from. */
  assert_int_equal(bp_program_merge(whole, original), 0);
  char *text = write_to_string(original);
  char error[256];
  assert_true(read_from_string(whole, text, error, sizeof error));
  assert_int_equal(bp_event_count(whole), before + bp_event_count(original));
  free(text);
  bp_engine_destroy(whole);
  bp_engine_destroy(original);
}

/* A writer in one engine, a reader without its barrier in another: only the
 * merge sees the pair, and the finding names both files. */
static void test_merged_program_pairs_across_files(void **state) {
  (void)state;
  bp_engine *parts[2], *whole = bp_engine_create();
  const char *names[2] = {"writer", "reader"};
  for (int i = 0; i < 2; i++) {
    parts[i] = bp_engine_create();
    uint32_t file = bp_intern_file(parts[i], i ? "/src/reader.c" : "/src/writer.c");
    uint32_t message = bp_intern_object(parts[i], "message", "message");
    uint32_t ready = bp_intern_object(parts[i], "ready", "ready");
    bp_function_begin(parts[i], names[i], at(file, 1, 6));
    uint32_t block = bp_add_block(parts[i]);
    bp_access_kind kind = i ? BP_ACCESS_LOAD : BP_ACCESS_STORE;
    bp_add_access(parts[i], block, i ? ready : message, kind, true, BP_NO_PRIMITIVE,
                  at(file, 2, 3));
    if (!i)
      bp_add_barrier(parts[i], block, BP_STRENGTH_STORES, primitive("cmm_smp_wmb"), false,
                     at(file, 3, 3));
    uint32_t second = bp_add_access(parts[i], block, i ? message : ready, kind, true,
                                    BP_NO_PRIMITIVE, at(file, 4, 3));
    if (i)
      bp_add_guard(parts[i], second, ready); /* the reader reads the message on the flag */
    bp_function_end(parts[i]);

    bp_finding *findings;
    size_t count = bp_analyze(parts[i], NULL, &findings);
    for (size_t f = 0; f < count; f++)
      assert_int_not_equal(findings[f].rule, BP_RULE_MISSING_BARRIER);
    free(findings);
    bp_program_merge(whole, parts[i]);
  }
  bp_finding *findings;
  size_t count = bp_analyze(whole, NULL, &findings);
  size_t missing = 0;
  for (size_t f = 0; f < count; f++) {
    if (findings[f].rule != BP_RULE_MISSING_BARRIER)
      continue;
    missing++;
    assert_string_equal(bp_function_name(whole, findings[f].side.function), "reader");
    assert_string_equal(bp_function_name(whole, findings[f].partner.function), "writer");
    const bp_event *event = bp_event_get(whole, findings[f].at);
    assert_string_equal(bp_file_path(whole, event->location.file), "/src/reader.c");
    const bp_event *partner = bp_event_get(whole, findings[f].partner.barrier);
    assert_string_equal(bp_file_path(whole, partner->location.file), "/src/writer.c");
  }
  assert_int_equal(missing, 1);
  free(findings);
  for (int i = 0; i < 2; i++)
    bp_engine_destroy(parts[i]);
  bp_engine_destroy(whole);
}

/* A merged program holds the field records of many units: written and read
 * back, each record keeps its own unit (which of two `static` functions of
 * one name a call through the field runs). */
static void test_merged_field_records_keep_their_units(void **state) {
  (void)state;
  bp_engine *whole = bp_engine_create();
  const char *units[2] = {"@net/a.c#1", "@net/b.c#2"};
  for (int i = 0; i < 2; i++) {
    bp_engine *part = bp_engine_create();
    bp_set_unit(part, units[i]);
    bp_function_begin(part, "release", at(bp_intern_file(part, units[i] + 1), 1, 1));
    bp_add_block(part);
    bp_function_end(part);
    bp_add_field_taken(part, "release", i ? "proto_b.release" : "proto_a.release");
    if (i)
      bp_add_field_open(part, "proto_b.close");
    bp_program_merge(whole, part);
    bp_engine_destroy(part);
  }
  char *text = write_to_string(whole);
  bp_engine *copy = bp_engine_create();
  char error[256];
  assert_true(read_from_string(copy, text, error, sizeof error));
  for (size_t i = 0; i < 2; i++) {
    const char *unit, *function, *field;
    assert_true(bp_field_taken(copy, i, &unit, &function, &field));
    assert_string_equal(unit, units[i]);
    assert_string_equal(field, i ? "proto_b.release" : "proto_a.release");
  }
  assert_string_equal(bp_field_open(copy, 0), "proto_b.close");
  assert_null(bp_field_open(copy, 1));
  char *again = write_to_string(copy);
  assert_string_equal(text, again);
  free(again);
  free(text);
  bp_engine_destroy(copy);
  bp_engine_destroy(whole);
}

/* Each corrupt input: the error names the file and line and says what is
 * wrong, and the engine is left as it was. */
static void expect_error(const char *text, const char *expected) {
  bp_engine *engine = bp_engine_create();
  bp_intern_file(engine, "/keep.c");
  char error[256];
  bool ok = read_from_string(engine, text, error, sizeof error);
  if (ok || !strstr(error, expected)) {
    print_error("input:\n%s\nexpected an error with \"%s\", got \"%s\"\n", text, expected,
                ok ? "(no error)" : error);
    fail();
  }
  assert_int_equal(bp_event_count(engine), 0);
  assert_string_equal(bp_file_path(engine, 1), "");
  bp_engine_destroy(engine);
}

#define EVENT_TAIL                                                                                 \
  " primitive=- object=0 kind=0 marked=1 strength=0 implicit=0 statement=- own_begin=- "           \
  "own_end=- indentation=\"\" guards=- address_sources=- value_sources=- access_begin=- "          \
  "access_end=- "                                                                                  \
  "lvalue_text=\"\" "                                                                              \
  "value_text=\"\" callee=\"\" contract=\"\" thread_own=0 marked_region=0 unpublished=0 "          \
  "after_unnamed_stores=0 "                                                                        \
  "after_publication=0 reference_put=0 after_unlock_lock=0 value_unused=0 value_known=0 "          \
  "stored_value=0 "                                                                                \
  "address_known=0 stored_address=- bits=0 "                                                       \
  "value_guard=- value_guard_object=- value_guard_bits=0 value_guard_zero=0 "                      \
  "outer_guard=- outer_guard_object=- outer_guard_bits=0 outer_guard_zero=0 "                      \
  "stored_increment=0 stored_nonzero=0 root=0 root_type=\"\" value_root=0 subtype=\"\" "           \
  "set_up_flag=- after_set_up=- "                                                                  \
  "inlined=0 unpublished_parameter=0 unpublished_allocation=0 allocation_source=\"\" "             \
  "call_arguments=0\n"

#define STRING_OF(x) #x
#define VERSION_TEXT(x) STRING_OF(x)
#define SITES_HEADER "barrierpair-sites " VERSION_TEXT(BP_SITES_VERSION) "\n"

static void test_corrupt_files_are_clear_errors(void **state) {
  (void)state;
  const char *header = SITES_HEADER "file 0 \"/a.c\"\nobject 0 \"x\" \"x\"\n";
  char text[2048];
  expect_error("", "test.sites:1: empty file");
  expect_error("{\"version\": 1}\n", "test.sites:1: not a barrierpair site file");
  expect_error("barrierpair-sites 99\n", "test.sites:1: site file version 99; this barrierpair "
                                         "reads version " VERSION_TEXT(BP_SITES_VERSION));
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 keeps=0 "
           "returns-fresh=0\n",
           header);
  expect_error(text, "test.sites:5: the file ends inside a function");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nevent 0 "
           "type=0 function=0 "
           "location=0:2:2" EVENT_TAIL,
           header);
  *strstr(text, "guards=-") = '\0';
  strcat(text, "guards=0,7 address_sources=- value_sources=- access_begin=- access_end=- "
               "lvalue_text=\"\" value_text=\"\" "
               "callee=\"\" contract=\"\" thread_own=0 unpublished=0 after_unnamed_stores=0 "
               "after_publication=0 "
               "reference_put=0 value_unused=0\n");
  expect_error(text, "test.sites:5: object 7 is not defined by an object record");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nevent 0 "
           "type=0 function=0 "
           "location=0:2:2 primitive=- object=0 kind=0\nend\n",
           header);
  expect_error(text, "test.sites:5: missing field 'marked'");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nevent 0 "
           "type=0 function=0 "
           "location=7:2:2" EVENT_TAIL "end\n",
           header);
  expect_error(text, "test.sites:5: location names file 7");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nevent 0 "
           "type=0 function=0 "
           "location=0:2:2 "
           "primitive=no_such_barrier object=0 kind=0 marked=1 strength=0 implicit=0 "
           "statement=- own_begin=- own_end=- indentation=\"\"\nend\n",
           header);
  expect_error(text, "test.sites:5: unknown primitive 'no_such_barrier'");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nevent 3 "
           "type=0 function=0 "
           "location=0:2:2" EVENT_TAIL "end\n",
           header);
  expect_error(text, "test.sites:5: event in block 3");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=2 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nedge 0 "
           "2\nend\n",
           header);
  expect_error(text, "test.sites:5: edge 0 -> 2");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nevent 0 "
           "type=0 function=0 "
           "location=0:2:2 primitive=- object=0 kind=0 marked=1 strength=0 "
           "implicit=0 statement=- own_begin=- own_end=- indentation=\"ab\nend\n",
           header);
  expect_error(text, "test.sites:5: unterminated string for indentation");
  snprintf(text, sizeof text, "%sgarbage here\n", header);
  expect_error(text, "test.sites:4: unknown record 'garbage'");
  expect_error(SITES_HEADER "file 1 \"/a.c\"\n", "test.sites:2: file 1 out of order");
  snprintf(text, sizeof text,
           "%sannotation kind=0 macro=0 location=0:2:2 lines=3-2 next=4 name=\"x\" reason=\"\"\n",
           header);
  expect_error(text, "test.sites:4: lines=3-2 ends before it starts");
  snprintf(text, sizeof text,
           "%sannotation kind=7 macro=0 location=0:2:2 lines=2-2 next=4 name=\"x\" reason=\"\"\n",
           header);
  expect_error(text, "test.sites:4: kind out of range");
  snprintf(text, sizeof text,
           "%sannotation kind=0 macro=0 location=- lines=2-2 next=4 name=\"x\" reason=\"\"\n",
           header);
  expect_error(text, "test.sites:4: an annotation needs a location");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 "
           "callers=0 keeps=0 returns-fresh=0\nannotation kind=0 macro=0 "
           "location=0:2:2 lines=2-2 "
           "next=4 name=\"x\" reason=\"\"\nend\n",
           header);
  expect_error(text, "test.sites:5: annotation record inside a function");
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 "
           "callers=0 keeps=0 returns-fresh=0\nfield-open \"ops.close\"\nend\n",
           header);
  expect_error(text, "test.sites:5: field-open record inside a function");
  snprintf(text, sizeof text, "%sfield-open ops.close\n", header);
  expect_error(text, "test.sites:4: expected a quoted string for the field name");
  snprintf(text, sizeof text,
           "%sannotation kind=0 macro=0 location=0:2:2 lines=2-2 next=4 name=\"x\"\n", header);
  expect_error(text, "test.sites:4: expected 'reason='");
  /* Valid up to a bad line: nothing of it is merged. */
  snprintf(text, sizeof text,
           "%sfunction \"f\" 0:1:1 blocks=1 exit=- contract-only=0 boot-only=0 callers=0 "
           "keeps=0 returns-fresh=0\nevent 0 "
           "type=0 function=0 "
           "location=0:2:2" EVENT_TAIL "end\nfunction \"g\" 0:1:1 blocks=1 exit=- "
           "contract-only=0 boot-only=0 callers=0 keeps=0 returns-fresh=0\nevent 0 type=1 "
           "function=0" EVENT_TAIL "end\n",
           header);
  expect_error(text, "test.sites:8: function=0 is not the function being read");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_format_lists_every_event_field),
      cmocka_unit_test(test_round_trip_keeps_every_field),
      cmocka_unit_test(test_merge_remaps_ids),
      cmocka_unit_test(test_merged_program_pairs_across_files),
      cmocka_unit_test(test_merged_field_records_keep_their_units),
      cmocka_unit_test(test_corrupt_files_are_clear_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
