/* Site files: an engine's program as versioned text, and merging one
 * program into another.
 *
 * Every front end that sees only part of a program (a translation unit, a
 * worker thread of `barrierpair check --jobs`, the plugin with
 * -fplugin-arg-barrierpair-sites-dir) hands its program on as a site file or
 * an engine; the whole program is their merge, and bp_analyze runs once over
 * it. Reading a file builds a fresh engine (ids as the file numbers them) and
 * merges that, so reading and merging share one remapping.
 *
 * The format, one record a line:
 *
 *   barrierpair-sites 1
 *   file 0 "src/ring.c"
 *   object 0 "struct ring.head" "ring.head"
 *   unit "@src/ring.c#9F2A..."      (the unit of the functions that follow)
 *   function "reader" 0:12:5 blocks=3 exit=0 contract-only=0 boot-only=0 callers=0 keeps=0
 *            returns-fresh=0
 *   edge 0 1
 *   loop-edge 1 1
 *   event 1 type=0 function=0 location=0:14:9 primitive=CMM_LOAD_SHARED ...
 *   end
 *   annotation kind=0 macro=0 location=0:20:6 lines=20-20 next=21 name="weak-barrier" reason="..."
 *   address-taken "on_event"        (bp_add_address_taken)
 *   field-taken "tcp_release_cb" "proto.release_cb"   (bp_add_field_taken; of the last unit)
 *   field-escape "sock.sk_backlog_rcv"               (bp_add_field_escape)
 *   field-open "proto.close"                        (bp_add_field_open)
 *
 * Strings are quoted with C escapes; a location is file:line:column (file
 * from the file records) or "-" for nowhere.
 */
#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The one list of bp_event's fields ----
 *
 * Every field of bp_event, in the order a site file writes them, with how
 * it is written and remapped. A field missing here is lost by site files and
 * by merges; tests/engine/test_sitefile.c compares this list with the
 * fields clang finds in bp_event and fails when one is missing. Adding a
 * field here changes the format: bump BP_SITES_VERSION. */
#define BP_EVENT_FIELDS(X)                                                                         \
  X(type, ENUM)                                                                                    \
  X(function, FUNCTION)                                                                            \
  X(location, LOCATION)                                                                            \
  X(primitive, PRIMITIVE)                                                                          \
  X(object, OBJECT)                                                                                \
  X(kind, ENUM)                                                                                    \
  X(marked, BOOL)                                                                                  \
  X(strength, UINT)                                                                                \
  X(implicit, BOOL)                                                                                \
  X(statement, LOCATION)                                                                           \
  X(own_begin, LOCATION)                                                                           \
  X(own_end, LOCATION)                                                                             \
  X(indentation, NAME)                                                                             \
  X(guards, GUARDS)                                                                                \
  X(address_sources, GUARDS)                                                                       \
  X(value_sources, GUARDS)                                                                         \
  X(access_begin, LOCATION)                                                                        \
  X(access_end, LOCATION)                                                                          \
  X(lvalue_text, NAME)                                                                             \
  X(value_text, NAME)                                                                              \
  X(callee, NAME)                                                                                  \
  X(contract, NAME)                                                                                \
  X(thread_own, BOOL)                                                                              \
  X(marked_region, BOOL)                                                                           \
  X(unpublished, BOOL)                                                                             \
  X(after_unnamed_stores, BOOL)                                                                    \
  X(after_publication, BOOL)                                                                       \
  X(reference_put, BOOL)                                                                           \
  X(after_unlock_lock, BOOL)                                                                       \
  X(value_unused, BOOL)                                                                            \
  X(value_known, BOOL)                                                                             \
  X(stored_value, UINT)                                                                            \
  X(address_known, BOOL)                                                                           \
  X(stored_address, OBJECT)                                                                        \
  X(bits, UINT)                                                                                    \
  X(value_guard, LOCATION)                                                                         \
  X(value_guard_object, OBJECT)                                                                    \
  X(value_guard_bits, UINT)                                                                        \
  X(value_guard_zero, BOOL)                                                                        \
  X(outer_guard, LOCATION)                                                                         \
  X(outer_guard_object, OBJECT)                                                                    \
  X(outer_guard_bits, UINT)                                                                        \
  X(outer_guard_zero, BOOL)                                                                        \
  X(stored_increment, BOOL)                                                                        \
  X(stored_nonzero, BOOL)                                                                          \
  X(root, UINT)                                                                                    \
  X(root_type, NAME)                                                                               \
  X(value_root, UINT)                                                                              \
  X(subtype, NAME)                                                                                 \
  X(set_up_flag, FLAG)                                                                             \
  X(after_set_up, FLAG)                                                                            \
  X(inlined, BOOL)                                                                                 \
  X(unpublished_parameter, UINT)                                                                   \
  X(unpublished_allocation, UINT)                                                                  \
  X(allocation_source, NAME)                                                                       \
  X(call_arguments, UINT)

typedef enum {
  FIELD_ENUM,      /* a small enum, written as its number */
  FIELD_UINT,      /* an unsigned number */
  FIELD_BOOL,      /* 0 or 1 */
  FIELD_FUNCTION,  /* the event's function: implied by where the event is */
  FIELD_LOCATION,  /* a bp_location; its file is remapped */
  FIELD_PRIMITIVE, /* a primitive table index, written as the primitive's name */
  FIELD_OBJECT,    /* an object id (accesses only), remapped */
  FIELD_FLAG,      /* an object id or BP_NO_OBJECT ("-"), remapped */
  FIELD_NAME,      /* an id of the names interner, written as the string */
  FIELD_GUARDS     /* BP_GUARDS_MAX object ids, remapped: "3,5" or "-" for none */
} field_kind;

typedef struct {
  const char *name;
  field_kind kind;
  size_t offset, size;
} field_info;

#define BP_FIELD_INFO(field, kind)                                                                 \
  {#field, FIELD_##kind, offsetof(bp_event, field), sizeof(((bp_event *)0)->field)},
static const field_info fields[] = {BP_EVENT_FIELDS(BP_FIELD_INFO)};
#undef BP_FIELD_INFO
#define FIELD_COUNT (sizeof fields / sizeof fields[0])

size_t bp_sites_field_count(void) {
  return FIELD_COUNT;
}

const char *bp_sites_field_name(size_t index) {
  return index < FIELD_COUNT ? fields[index].name : NULL;
}

static uint64_t get_number(const bp_event *event, const field_info *field) {
  const char *at = (const char *)event + field->offset;
  switch (field->size) {
  case 1: {
    uint8_t value;
    memcpy(&value, at, 1);
    return value;
  }
  case 2: {
    uint16_t value;
    memcpy(&value, at, 2);
    return value;
  }
  case 4: {
    uint32_t value;
    memcpy(&value, at, 4);
    return value;
  }
  default: {
    uint64_t value;
    memcpy(&value, at, 8);
    return value;
  }
  }
}

static void set_number(bp_event *event, const field_info *field, uint64_t number) {
  char *at = (char *)event + field->offset;
  switch (field->size) {
  case 1: {
    uint8_t value = (uint8_t)number;
    memcpy(at, &value, 1);
    break;
  }
  case 2: {
    uint16_t value = (uint16_t)number;
    memcpy(at, &value, 2);
    break;
  }
  case 4: {
    uint32_t value = (uint32_t)number;
    memcpy(at, &value, 4);
    break;
  }
  default:
    memcpy(at, &number, 8);
    break;
  }
}

/* Accesses name the object they access, lock events the lock. */
static bool has_object(const bp_event *event) {
  return event->type == BP_EVENT_ACCESS || event->type == BP_EVENT_LOCK ||
         event->type == BP_EVENT_UNLOCK;
}

static uint32_t *guards_field(bp_event *event, const field_info *field) {
  return (uint32_t *)(void *)((char *)event + field->offset);
}

static bp_location *location_field(bp_event *event, const field_info *field) {
  return (bp_location *)(void *)((char *)event + field->offset);
}

static int64_t get_signed(const bp_event *event, const field_info *field) {
  int value;
  memcpy(&value, (const char *)event + field->offset, sizeof value);
  return value;
}

/* ---- Writing ---- */

static void write_string(FILE *out, const char *string) {
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)string; *c; c++) {
    switch (*c) {
    case '"':
      fputs("\\\"", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    default:
      if (*c < 0x20 || *c == 0x7f)
        fprintf(out, "\\x%02x", *c);
      else
        fputc(*c, out);
    }
  }
  fputc('"', out);
}

static void write_location(FILE *out, bp_location location) {
  if (location.line == 0)
    fputc('-', out);
  else
    fprintf(out, "%u:%u:%u", (unsigned)location.file, (unsigned)location.line,
            (unsigned)location.column);
}

static void write_field(FILE *out, const bp_engine *engine, const bp_event *event,
                        const field_info *field) {
  fprintf(out, " %s=", field->name);
  switch (field->kind) {
  case FIELD_ENUM:
  case FIELD_UINT:
  case FIELD_BOOL:
  case FIELD_FUNCTION:
    fprintf(out, "%llu", (unsigned long long)get_number(event, field));
    break;
  case FIELD_LOCATION:
    write_location(out, *location_field((bp_event *)event, field));
    break;
  case FIELD_PRIMITIVE: {
    const bp_primitive *primitive = bp_primitive_get((int)get_signed(event, field));
    if (primitive)
      fputs(primitive->name, out);
    else
      fputc('-', out);
    break;
  }
  case FIELD_OBJECT:
    if (has_object(event))
      fprintf(out, "%llu", (unsigned long long)get_number(event, field));
    else
      fputc('-', out);
    break;
  case FIELD_FLAG:
    if (get_number(event, field) != BP_NO_OBJECT)
      fprintf(out, "%llu", (unsigned long long)get_number(event, field));
    else
      fputc('-', out);
    break;
  case FIELD_NAME:
    write_string(out, bp_interner_get(&engine->names, (uint32_t)get_number(event, field)));
    break;
  case FIELD_GUARDS: {
    const uint32_t *guards = guards_field((bp_event *)event, field);
    if (guards[0] == BP_NO_OBJECT)
      fputc('-', out);
    for (size_t g = 0; g < BP_GUARDS_MAX && guards[g] != BP_NO_OBJECT; g++)
      fprintf(out, g ? ",%u" : "%u", (unsigned)guards[g]);
    break;
  }
  }
}

bool bp_program_write(const bp_engine *engine, FILE *out) {
  fprintf(out, "barrierpair-sites %d\n", BP_SITES_VERSION);
  for (size_t f = 0; f < engine->files.strings.count; f++) {
    fprintf(out, "file %zu ", f);
    write_string(out, bp_interner_get(&engine->files, (uint32_t)f));
    fputc('\n', out);
  }
  for (size_t o = 0; o < engine->objects.strings.count; o++) {
    fprintf(out, "object %zu ", o);
    write_string(out, bp_interner_get(&engine->objects, (uint32_t)o));
    fputc(' ', out);
    write_string(out, bp_object_display(engine, (uint32_t)o));
    fputc('\n', out);
  }

  /* Events of a function are contiguous (they are added between
   * bp_function_begin and bp_function_end), so writing each function's events
   * in id order keeps every id. */
  uint32_t *block_of = calloc(engine->events.count ? engine->events.count : 1, sizeof *block_of);
  if (!block_of)
    return false;
  uint32_t written_unit = BP_NO_UNIT;
  for (size_t f = 0; f < engine->functions.count; f++) {
    const bp_function *function = bp_vec_at(&engine->functions, f);
    uint32_t first = UINT32_MAX, last = 0;
    for (size_t b = 0; b < function->blocks.count; b++) {
      const bp_block *block = bp_vec_at(&function->blocks, b);
      for (size_t i = 0; i < block->events.count; i++) {
        uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
        block_of[id] = (uint32_t)b;
        first = id < first ? id : first;
        last = id > last ? id : last;
      }
    }
    if (function->unit != written_unit) {
      fputs("unit ", out);
      write_string(
          out, function->unit == BP_NO_UNIT ? "" : bp_interner_get(&engine->names, function->unit));
      fputc('\n', out);
      written_unit = function->unit;
    }
    fputs("function ", out);
    write_string(out, bp_interner_get(&engine->names, function->name));
    fputc(' ', out);
    write_location(out, function->location);
    fprintf(out, " blocks=%zu", function->blocks.count);
    if (function->exit == BP_NO_BLOCK)
      fputs(" exit=-", out);
    else
      fprintf(out, " exit=%u", function->exit);
    fprintf(out, " contract-only=%d boot-only=%d callers=%d keeps=%u returns-fresh=%d\n",
            function->contract_only ? 1 : 0, function->boot_only ? 1 : 0, (int)function->callers,
            (unsigned)function->keeps, function->returns_fresh ? 1 : 0);
    for (size_t b = 0; b < function->blocks.count; b++) {
      const bp_block *block = bp_vec_at(&function->blocks, b);
      for (size_t s = 0; s < block->successors.count; s++) {
        uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
        fprintf(out, "%s %zu %u\n", successor & BP_LOOP_EDGE ? "loop-edge" : "edge", b,
                successor & ~BP_LOOP_EDGE);
      }
    }
    for (uint32_t id = first; first != UINT32_MAX && id <= last; id++) {
      bp_event_text(engine, id, BP_TEXT_ACCESS);
      const bp_event *event = bp_event_text(engine, id, BP_TEXT_PLACE);
      fprintf(out, "event %u", block_of[id]);
      for (size_t i = 0; i < FIELD_COUNT; i++)
        write_field(out, engine, event, &fields[i]);
      fputc('\n', out);
    }
    fputs("end\n", out);
  }
  free(block_of);
  for (uint32_t a = 0; a < bp_annotation_count(engine); a++) {
    bp_annotation annotation;
    bp_annotation_get(engine, a, &annotation);
    fprintf(out, "annotation kind=%u macro=%u location=", (unsigned)annotation.kind,
            (unsigned)annotation.macro);
    write_location(out, annotation.location);
    fprintf(out, " lines=%u-%u next=%u name=", (unsigned)annotation.first_line,
            (unsigned)annotation.last_line, (unsigned)annotation.next_code_line);
    write_string(out, annotation.name);
    fputs(" reason=", out);
    write_string(out, annotation.reason);
    fputc('\n', out);
  }
  for (size_t i = 0; bp_address_taken(engine, i); i++) {
    fputs("address-taken ", out);
    write_string(out, bp_address_taken(engine, i));
    fputc('\n', out);
  }
  const char *unit, *function, *field;
  for (size_t i = 0; bp_field_taken(engine, i, &unit, &function, &field); i++) {
    /* the unit whose `static` function the record names: a merged
     * program's records come from many */
    uint32_t take_unit = ((const bp_field_take *)bp_vec_at(&engine->field_taken, i))->unit;
    if (take_unit != written_unit) {
      fputs("unit ", out);
      write_string(out, unit ? unit : "");
      fputc('\n', out);
      written_unit = take_unit;
    }
    fputs("field-taken ", out);
    write_string(out, function);
    fputc(' ', out);
    write_string(out, field);
    fputc('\n', out);
  }
  for (size_t i = 0; bp_field_escape(engine, i); i++) {
    fputs("field-escape ", out);
    write_string(out, bp_field_escape(engine, i));
    fputc('\n', out);
  }
  for (size_t i = 0; bp_field_open(engine, i); i++) {
    fputs("field-open ", out);
    write_string(out, bp_field_open(engine, i));
    fputc('\n', out);
  }
  fflush(out);
  return !ferror(out);
}

/* ---- Merging ---- */

typedef struct {
  uint32_t *files, *objects;
} id_maps;

static uint64_t hash_mix(uint64_t hash, uint64_t value) {
  return (hash ^ value) * 1099511628211ull;
}

static uint64_t hash_text(uint64_t hash, const char *text) {
  for (; *text; text++)
    hash = hash_mix(hash, (unsigned char)*text);
  return hash;
}

/* A function is known by its name and where it is defined: the same
 * translation unit compiled twice (PIC and not, two build variants) defines
 * it twice, but it is one function of the program; the same function of two
 * builds with other macros (bp_set_unit) is two. */
static uint64_t function_hash(const bp_engine *engine, const bp_function *function) {
  uint64_t hash =
      hash_text(1469598103934665603ull, bp_interner_get(&engine->names, function->name));
  hash = hash_mix(hash, 0);
  if (function->location.line)
    hash = hash_text(hash, bp_file_path(engine, function->location.file));
  if (function->unit != BP_NO_UNIT)
    hash = hash_text(hash, bp_interner_get(&engine->names, function->unit));
  hash = hash_mix(hash, function->location.line);
  return hash_mix(hash, function->location.column);
}

static bool same_function(const bp_engine *a, const bp_function *fa, const bp_engine *b,
                          const bp_function *fb) {
  if (strcmp(bp_interner_get(&a->names, fa->name), bp_interner_get(&b->names, fb->name)) != 0)
    return false;
  if (fa->location.line != fb->location.line || fa->location.column != fb->location.column)
    return false;
  if ((fa->unit == BP_NO_UNIT) != (fb->unit == BP_NO_UNIT) ||
      (fa->unit != BP_NO_UNIT &&
       strcmp(bp_interner_get(&a->names, fa->unit), bp_interner_get(&b->names, fb->unit)) != 0))
    return false;
  if (fa->location.line == 0)
    return true;
  return strcmp(bp_file_path(a, fa->location.file), bp_file_path(b, fb->location.file)) == 0;
}

typedef struct {
  uint32_t *slots; /* function index + 1 */
  size_t count;
} function_set;

static bool function_set_init(function_set *set, const bp_engine *engine, size_t extra) {
  size_t need = (engine->functions.count + extra) * 2 + 16, count = 16;
  while (count < need)
    count *= 2;
  set->slots = calloc(count, sizeof *set->slots);
  set->count = count;
  return set->slots != NULL;
}

/* Whether `into` already has `function` of `from`. */
static bool function_set_find(function_set *set, const bp_engine *into, const bp_engine *from,
                              const bp_function *function) {
  size_t mask = set->count - 1;
  for (size_t slot = function_hash(from, function) & mask; set->slots[slot];
       slot = (slot + 1) & mask) {
    const bp_function *known = bp_vec_at(&into->functions, set->slots[slot] - 1);
    if (same_function(into, known, from, function))
      return true;
  }
  return false;
}

static void function_set_add(function_set *set, const bp_engine *engine, uint32_t index) {
  size_t mask = set->count - 1;
  size_t slot = function_hash(engine, bp_vec_at(&engine->functions, index)) & mask;
  while (set->slots[slot])
    slot = (slot + 1) & mask;
  set->slots[slot] = index + 1;
}

static bp_location remap_location(bp_location location, const id_maps *maps) {
  if (location.line == 0)
    return (bp_location){0, 0, 0};
  location.file = maps->files[location.file];
  return location;
}

/* `event` of `from`, with its ids in `into`'s numbering. */
static void remap_event(bp_engine *into, const bp_engine *from, const id_maps *maps,
                        bp_event *event, uint32_t function) {
  for (size_t i = 0; i < FIELD_COUNT; i++) {
    const field_info *field = &fields[i];
    switch (field->kind) {
    case FIELD_ENUM:
    case FIELD_UINT:
    case FIELD_BOOL:
    case FIELD_PRIMITIVE:
      break;
    case FIELD_FUNCTION:
      set_number(event, field, function);
      break;
    case FIELD_LOCATION: {
      bp_location *location = location_field(event, field);
      *location = remap_location(*location, maps);
      break;
    }
    case FIELD_OBJECT:
      set_number(event, field, has_object(event) ? maps->objects[get_number(event, field)] : 0);
      break;
    case FIELD_FLAG:
      if (get_number(event, field) != BP_NO_OBJECT)
        set_number(event, field, maps->objects[get_number(event, field)]);
      break;
    case FIELD_NAME: {
      const char *text = bp_interner_get(&from->names, (uint32_t)get_number(event, field));
      set_number(event, field, bp_interner_add(&into->names, text));
      break;
    }
    case FIELD_GUARDS: {
      uint32_t *guards = guards_field(event, field);
      for (size_t g = 0; g < BP_GUARDS_MAX; g++) {
        if (guards[g] != BP_NO_OBJECT)
          guards[g] = maps->objects[guards[g]];
      }
      break;
    }
    }
  }
}

static uint32_t push_event(bp_engine *engine, uint32_t block, const bp_event *event) {
  bp_function *function = bp_vec_at(&engine->functions, engine->functions.count - 1);
  bp_event *stored = bp_vec_push(&engine->events);
  *stored = *event;
  stored->function = (uint32_t)engine->functions.count - 1;
  uint32_t id = (uint32_t)engine->events.count - 1;
  bp_block *target = bp_vec_at(&function->blocks, block);
  *(uint32_t *)bp_vec_push(&target->events) = id;
  return id;
}

size_t bp_program_merge(bp_engine *into, const bp_engine *from) {
  uint32_t unit = into->unit;
  id_maps maps;
  size_t file_count = from->files.strings.count, object_count = from->objects.strings.count;
  maps.files = malloc((file_count + 1) * sizeof *maps.files);
  maps.objects = malloc((object_count + 1) * sizeof *maps.objects);
  function_set known;
  if (!maps.files || !maps.objects || !function_set_init(&known, into, from->functions.count))
    abort();
  for (size_t f = 0; f < file_count; f++)
    maps.files[f] = bp_intern_file(into, bp_interner_get(&from->files, (uint32_t)f));
  for (size_t o = 0; o < object_count; o++)
    maps.objects[o] = bp_intern_object(into, bp_interner_get(&from->objects, (uint32_t)o),
                                       bp_object_display(from, (uint32_t)o));
  for (uint32_t f = 0; f < into->functions.count; f++)
    function_set_add(&known, into, f);

  size_t added = 0;
  uint32_t *block_of = calloc(from->events.count ? from->events.count : 1, sizeof *block_of);
  if (!block_of)
    abort();
  for (size_t f = 0; f < from->functions.count; f++) {
    const bp_function *function = bp_vec_at(&from->functions, f);
    if (function_set_find(&known, into, from, function))
      continue;
    uint32_t first = UINT32_MAX, last = 0;
    for (size_t b = 0; b < function->blocks.count; b++) {
      const bp_block *block = bp_vec_at(&function->blocks, b);
      for (size_t i = 0; i < block->events.count; i++) {
        uint32_t id = *(uint32_t *)bp_vec_at(&block->events, i);
        block_of[id] = (uint32_t)b;
        first = id < first ? id : first;
        last = id > last ? id : last;
      }
    }
    bp_set_unit(into, function->unit == BP_NO_UNIT ? NULL
                                                   : bp_interner_get(&from->names, function->unit));
    uint32_t index = bp_function_begin(into, bp_interner_get(&from->names, function->name),
                                       remap_location(function->location, &maps));
    if (function->contract_only)
      bp_set_contract_only(into);
    if (function->boot_only)
      bp_set_boot_only(into);
    bp_set_callers(into, function->callers);
    for (unsigned j = 0; j < BP_UNPUBLISHED_PARAMETERS; j++)
      if (function->keeps & (1u << j))
        bp_set_keeps_parameter(into, j);
    if (function->returns_fresh)
      bp_set_returns_fresh(into);
    for (size_t b = 0; b < function->blocks.count; b++)
      bp_add_block(into);
    if (function->exit != BP_NO_BLOCK)
      bp_function_exit(into, function->exit);
    for (size_t b = 0; b < function->blocks.count; b++) {
      const bp_block *block = bp_vec_at(&function->blocks, b);
      for (size_t s = 0; s < block->successors.count; s++) {
        uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s);
        if (successor & BP_LOOP_EDGE)
          bp_add_loop_edge(into, (uint32_t)b, successor & ~BP_LOOP_EDGE);
        else
          bp_add_edge(into, (uint32_t)b, successor);
      }
    }
    for (uint32_t id = first; first != UINT32_MAX && id <= last; id++) {
      bp_event event = *(const bp_event *)bp_vec_at(&from->events, id);
      remap_event(into, from, &maps, &event, index);
      push_event(into, block_of[id], &event);
    }
    bp_function_end(into);
    function_set_add(&known, into, index);
    added++;
  }
  free(block_of);
  for (uint32_t a = 0; a < bp_annotation_count(from); a++) {
    bp_annotation annotation;
    bp_annotation_get(from, a, &annotation);
    annotation.location = remap_location(annotation.location, &maps);
    bp_add_annotation(into, &annotation);
  }
  for (size_t i = 0; bp_address_taken(from, i); i++)
    bp_add_address_taken(into, bp_address_taken(from, i));
  const char *take_unit, *take_function, *take_field;
  for (size_t i = 0; bp_field_taken(from, i, &take_unit, &take_function, &take_field); i++) {
    bp_set_unit(into, take_unit); /* the function's unit, for a `static` one */
    bp_add_field_taken(into, take_function, take_field);
  }
  for (size_t i = 0; bp_field_escape(from, i); i++)
    bp_add_field_escape(into, bp_field_escape(from, i));
  for (size_t i = 0; bp_field_open(from, i); i++)
    bp_add_field_open(into, bp_field_open(from, i));
  free(known.slots);
  free(maps.files);
  free(maps.objects);
  into->unit = unit; /* the caller's unit, not the last merged function's */
  return added;
}

/* ---- Reading ---- */

typedef struct {
  const char *name;
  size_t line;
  char *error;
  size_t error_size;
  bool failed;
} reader;

static bool fail(reader *r, const char *format, ...) {
  if (r->failed)
    return false;
  r->failed = true;
  if (r->error && r->error_size) {
    int prefix = snprintf(r->error, r->error_size, "%s:%zu: ", r->name, r->line);
    if (prefix >= 0 && (size_t)prefix < r->error_size) {
      va_list arguments;
      va_start(arguments, format);
      vsnprintf(r->error + prefix, r->error_size - (size_t)prefix, format, arguments);
      va_end(arguments);
    }
  }
  return false;
}

static void skip_spaces(const char **at) {
  while (**at == ' ')
    (*at)++;
}

static bool expect_word(reader *r, const char **at, const char *word) {
  skip_spaces(at);
  size_t length = strlen(word);
  if (strncmp(*at, word, length) != 0)
    return fail(r, "expected '%s'", word);
  *at += length;
  return true;
}

static bool parse_number(reader *r, const char **at, uint64_t max, uint64_t *value,
                         const char *what) {
  skip_spaces(at);
  if (**at < '0' || **at > '9')
    return fail(r, "expected a number for %s", what);
  errno = 0;
  char *end;
  unsigned long long number = strtoull(*at, &end, 10);
  if (errno || number > max)
    return fail(r, "%s out of range", what);
  *at = end;
  *value = number;
  return true;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* A quoted string into a malloc()ed buffer. */
static char *parse_string(reader *r, const char **at, const char *what) {
  skip_spaces(at);
  if (**at != '"') {
    fail(r, "expected a quoted string for %s", what);
    return NULL;
  }
  const char *c = *at + 1;
  char *text = malloc(strlen(c) + 1);
  if (!text)
    abort();
  size_t length = 0;
  for (;; c++) {
    if (*c == '\0') {
      free(text);
      fail(r, "unterminated string for %s", what);
      return NULL;
    }
    if (*c == '"')
      break;
    if (*c != '\\') {
      text[length++] = *c;
      continue;
    }
    c++;
    switch (*c) {
    case '"':
    case '\\':
      text[length++] = *c;
      break;
    case 'n':
      text[length++] = '\n';
      break;
    case 't':
      text[length++] = '\t';
      break;
    case 'x': {
      int high = hex_digit(c[1]), low = high < 0 ? -1 : hex_digit(c[2]);
      if (low < 0 || (high == 0 && low == 0)) {
        free(text);
        fail(r, "bad \\x escape in %s", what);
        return NULL;
      }
      text[length++] = (char)(high * 16 + low);
      c += 2;
      break;
    }
    default:
      free(text);
      fail(r, "bad escape in %s", what);
      return NULL;
    }
  }
  text[length] = '\0';
  *at = c + 1;
  return text;
}

static bool parse_location(reader *r, const char **at, const bp_engine *engine,
                           bp_location *location, const char *what) {
  skip_spaces(at);
  if (**at == '-') {
    (*at)++;
    *location = (bp_location){0, 0, 0};
    return true;
  }
  uint64_t file, line, column;
  if (!parse_number(r, at, UINT32_MAX, &file, what) || !expect_word(r, at, ":") ||
      !parse_number(r, at, UINT32_MAX, &line, what) || !expect_word(r, at, ":") ||
      !parse_number(r, at, UINT32_MAX, &column, what))
    return false;
  if (file >= engine->files.strings.count)
    return fail(r, "%s names file %llu, which no file record defines", what,
                (unsigned long long)file);
  if (line == 0)
    return fail(r, "%s has line 0 (write '-' for nowhere)", what);
  *location = (bp_location){(uint32_t)file, (uint32_t)line, (uint32_t)column};
  return true;
}

static bool at_end(reader *r, const char *at) {
  skip_spaces(&at);
  if (*at != '\0')
    return fail(r, "unexpected text '%.20s'", at);
  return true;
}

static bool parse_field(reader *r, const char **at, bp_engine *engine, bp_event *event,
                        const field_info *field) {
  skip_spaces(at);
  size_t length = strlen(field->name);
  if (strncmp(*at, field->name, length) != 0 || (*at)[length] != '=') {
    const char *end = *at;
    while (*end && *end != '=' && *end != ' ')
      end++;
    if (end == *at)
      return fail(r, "missing field '%s'", field->name);
    return fail(r, "expected field '%s', found '%.*s'", field->name, (int)(end - *at), *at);
  }
  *at += length + 1;
  uint64_t number;
  switch (field->kind) {
  case FIELD_ENUM:
  case FIELD_UINT:
  case FIELD_FUNCTION:
    if (!parse_number(r, at, field->size >= 8 ? UINT64_MAX : (1ull << (8 * field->size)) - 1,
                      &number, field->name))
      return false;
    if (field->kind == FIELD_FUNCTION && number != engine->functions.count - 1)
      return fail(r, "%s=%llu is not the function being read", field->name,
                  (unsigned long long)number);
    set_number(event, field, number);
    return true;
  case FIELD_BOOL:
    if (!parse_number(r, at, 1, &number, field->name))
      return false;
    set_number(event, field, number);
    return true;
  case FIELD_LOCATION:
    return parse_location(r, at, engine, location_field(event, field), field->name);
  case FIELD_PRIMITIVE: {
    const char *end = *at;
    while (*end && *end != ' ')
      end++;
    int primitive = BP_NO_PRIMITIVE;
    if (!(end - *at == 1 && **at == '-')) {
      primitive = bp_primitive_find(*at, (size_t)(end - *at));
      if (primitive == BP_NO_PRIMITIVE)
        return fail(r, "unknown primitive '%.*s'", (int)(end - *at), *at);
    }
    memcpy((char *)event + field->offset, &primitive, sizeof primitive);
    *at = end;
    return true;
  }
  case FIELD_OBJECT:
  case FIELD_FLAG:
    skip_spaces(at);
    if (**at == '-') {
      (*at)++;
      set_number(event, field, field->kind == FIELD_FLAG ? BP_NO_OBJECT : 0);
      return true;
    }
    if (!parse_number(r, at, UINT32_MAX, &number, field->name))
      return false;
    if (number >= engine->objects.strings.count)
      return fail(r, "object %llu is not defined by an object record", (unsigned long long)number);
    set_number(event, field, number);
    return true;
  case FIELD_NAME: {
    char *text = parse_string(r, at, field->name);
    if (!text)
      return false;
    set_number(event, field, bp_interner_add(&engine->names, text));
    free(text);
    return true;
  }
  case FIELD_GUARDS: {
    uint32_t *guards = guards_field(event, field);
    for (size_t g = 0; g < BP_GUARDS_MAX; g++)
      guards[g] = BP_NO_OBJECT;
    skip_spaces(at);
    if (**at == '-') {
      (*at)++;
      return true;
    }
    for (size_t g = 0;; g++) {
      if (g == BP_GUARDS_MAX)
        return fail(r, "%s has more than %d objects", field->name, BP_GUARDS_MAX);
      if (!parse_number(r, at, UINT32_MAX - 1, &number, field->name))
        return false;
      if (number >= engine->objects.strings.count)
        return fail(r, "object %llu is not defined by an object record",
                    (unsigned long long)number);
      guards[g] = (uint32_t)number;
      if (**at != ',')
        return true;
      (*at)++;
    }
  }
  }
  return false;
}

/* "kind=0 macro=0 location=0:20:6 lines=20-20 next=21 name=\"...\" reason=\"...\"" */
static bool parse_annotation(reader *r, const char *at, bp_engine *engine) {
  uint64_t kind, macro, first, last, next;
  bp_annotation annotation;
  memset(&annotation, 0, sizeof annotation);
  if (!expect_word(r, &at, "kind=") ||
      !parse_number(r, &at, BP_ANNOTATION_COMMENT, &kind, "kind") ||
      !expect_word(r, &at, "macro=") || !parse_number(r, &at, 1, &macro, "macro") ||
      !expect_word(r, &at, "location=") ||
      !parse_location(r, &at, engine, &annotation.location, "the annotation's location") ||
      !expect_word(r, &at, "lines=") || !parse_number(r, &at, UINT32_MAX, &first, "lines") ||
      !expect_word(r, &at, "-") || !parse_number(r, &at, UINT32_MAX, &last, "lines") ||
      !expect_word(r, &at, "next=") || !parse_number(r, &at, UINT32_MAX, &next, "next"))
    return false;
  if (annotation.location.line == 0)
    return fail(r, "an annotation needs a location");
  if (first > last)
    return fail(r, "lines=%llu-%llu ends before it starts", (unsigned long long)first,
                (unsigned long long)last);
  if (!expect_word(r, &at, "name="))
    return false;
  char *name = parse_string(r, &at, "the annotation's name");
  if (!name)
    return false;
  char *reason = NULL;
  bool valid = expect_word(r, &at, "reason=") &&
               (reason = parse_string(r, &at, "the annotation's reason")) && at_end(r, at);
  if (valid) {
    annotation.kind = (bp_annotation_kind)kind;
    annotation.macro = macro;
    annotation.first_line = (uint32_t)first;
    annotation.last_line = (uint32_t)last;
    annotation.next_code_line = (uint32_t)next;
    annotation.name = name;
    annotation.reason = reason;
    bp_add_annotation(engine, &annotation);
  }
  free(name);
  free(reason);
  return valid;
}

typedef struct {
  bool in_function;
  uint32_t blocks;
} read_state;

/* The records of one quoted name, outside functions. */
typedef struct {
  const char *keyword, *what;
  void (*add)(bp_engine *engine, const char *name);
} name_record;
static const name_record name_records[] = {
    {"address-taken", "the function name", bp_add_address_taken},
    {"field-escape", "the field name", bp_add_field_escape},
    {"field-open", "the field name", bp_add_field_open},
};

static bool parse_line(reader *r, const char *line, bp_engine *engine, read_state *state) {
  const char *at = line;
  uint64_t number, other;
  if (strncmp(at, "file ", 5) == 0) {
    at += 5;
    if (state->in_function)
      return fail(r, "file record inside a function");
    if (!parse_number(r, &at, UINT32_MAX, &number, "the file id"))
      return false;
    if (number != engine->files.strings.count)
      return fail(r, "file %llu out of order (expected %zu)", (unsigned long long)number,
                  engine->files.strings.count);
    char *path = parse_string(r, &at, "the file path");
    if (!path)
      return false;
    size_t before = engine->files.strings.count;
    bp_intern_file(engine, path);
    free(path);
    if (engine->files.strings.count == before)
      return fail(r, "file %llu repeats an earlier file", (unsigned long long)number);
    return at_end(r, at);
  }
  if (strncmp(at, "object ", 7) == 0) {
    at += 7;
    if (state->in_function)
      return fail(r, "object record inside a function");
    if (!parse_number(r, &at, UINT32_MAX, &number, "the object id"))
      return false;
    if (number != engine->objects.strings.count)
      return fail(r, "object %llu out of order (expected %zu)", (unsigned long long)number,
                  engine->objects.strings.count);
    char *key = parse_string(r, &at, "the object key");
    if (!key)
      return false;
    char *display = parse_string(r, &at, "the object's display name");
    if (!display) {
      free(key);
      return false;
    }
    size_t before = engine->objects.strings.count;
    bp_intern_object(engine, key, display);
    free(key);
    free(display);
    if (engine->objects.strings.count == before)
      return fail(r, "object %llu repeats an earlier key", (unsigned long long)number);
    return at_end(r, at);
  }
  if (strncmp(at, "unit ", 5) == 0) {
    at += 5;
    if (state->in_function)
      return fail(r, "unit record inside a function");
    char *unit = parse_string(r, &at, "the unit");
    if (!unit)
      return false;
    bool valid = at_end(r, at);
    if (valid)
      bp_set_unit(engine, unit);
    free(unit);
    return valid;
  }
  if (strncmp(at, "function ", 9) == 0) {
    at += 9;
    if (state->in_function)
      return fail(r, "function record before the previous function's 'end'");
    char *name = parse_string(r, &at, "the function name");
    if (!name)
      return false;
    bp_location location;
    uint64_t contract_only = 0, boot_only = 0, callers = BP_CALLERS_UNKNOWN, exit = BP_NO_BLOCK,
             keeps = 0, returns_fresh = 0;
    bool valid =
        parse_location(r, &at, engine, &location, "the function location") &&
        expect_word(r, &at, "blocks=") && parse_number(r, &at, UINT32_MAX, &number, "blocks") &&
        expect_word(r, &at, "exit=") &&
        (*at == '-' ? (at++, true)
                    : parse_number(r, &at, number ? number - 1 : 0, &exit, "exit")) &&
        expect_word(r, &at, "contract-only=") &&
        parse_number(r, &at, 1, &contract_only, "contract-only") &&
        expect_word(r, &at, "boot-only=") && parse_number(r, &at, 1, &boot_only, "boot-only") &&
        expect_word(r, &at, "callers=") &&
        parse_number(r, &at, BP_CALLERS_IN_PROGRAM, &callers, "callers") &&
        expect_word(r, &at, "keeps=") &&
        parse_number(r, &at, (1u << BP_UNPUBLISHED_PARAMETERS) - 1, &keeps, "keeps") &&
        expect_word(r, &at, "returns-fresh=") &&
        parse_number(r, &at, 1, &returns_fresh, "returns-fresh") && at_end(r, at);
    if (valid) {
      bp_function_begin(engine, name, location);
      if (contract_only)
        bp_set_contract_only(engine);
      if (boot_only)
        bp_set_boot_only(engine);
      bp_set_callers(engine, (bp_callers)callers);
      for (unsigned j = 0; j < BP_UNPUBLISHED_PARAMETERS; j++)
        if (keeps & (1u << j))
          bp_set_keeps_parameter(engine, j);
      if (returns_fresh)
        bp_set_returns_fresh(engine);
      for (uint64_t b = 0; b < number; b++)
        bp_add_block(engine);
      if (exit != BP_NO_BLOCK)
        bp_function_exit(engine, (uint32_t)exit);
      state->in_function = true;
      state->blocks = (uint32_t)number;
    }
    free(name);
    return valid;
  }
  bool loop = strncmp(at, "loop-edge ", 10) == 0;
  if (loop || strncmp(at, "edge ", 5) == 0) {
    at += loop ? 10 : 5;
    if (!state->in_function)
      return fail(r, "edge record outside a function");
    if (!parse_number(r, &at, UINT32_MAX, &number, "the edge's source") ||
        !parse_number(r, &at, UINT32_MAX, &other, "the edge's target") || !at_end(r, at))
      return false;
    if (number >= state->blocks || other >= state->blocks)
      return fail(r, "edge %llu -> %llu names a block the function does not have",
                  (unsigned long long)number, (unsigned long long)other);
    if (loop)
      bp_add_loop_edge(engine, (uint32_t)number, (uint32_t)other);
    else
      bp_add_edge(engine, (uint32_t)number, (uint32_t)other);
    return true;
  }
  if (strncmp(at, "event ", 6) == 0) {
    at += 6;
    if (!state->in_function)
      return fail(r, "event record outside a function");
    if (!parse_number(r, &at, UINT32_MAX, &number, "the event's block"))
      return false;
    if (number >= state->blocks)
      return fail(r, "event in block %llu, which the function does not have",
                  (unsigned long long)number);
    bp_event event;
    memset(&event, 0, sizeof event);
    for (size_t i = 0; i < FIELD_COUNT; i++) {
      if (!parse_field(r, &at, engine, &event, &fields[i]))
        return false;
    }
    if (!at_end(r, at))
      return false;
    if (event.type != BP_EVENT_ACCESS && event.type != BP_EVENT_BARRIER &&
        event.type != BP_EVENT_LOCK && event.type != BP_EVENT_UNLOCK &&
        event.type != BP_EVENT_SPAWN && event.type != BP_EVENT_JOIN &&
        event.type != BP_EVENT_CALL && event.type != BP_EVENT_PLACE)
      return fail(r,
                  "type=%u is not an access (0), a barrier (1), a lock (3), an unlock (4), a "
                  "spawn (5), a join (6), a call (7) or a place (8)",
                  (unsigned)event.type);
    if (event.type == BP_EVENT_ACCESS && event.kind != BP_ACCESS_LOAD &&
        event.kind != BP_ACCESS_STORE)
      return fail(r, "kind=%u is neither a load (0) nor a store (1)", (unsigned)event.kind);
    if (has_object(&event) && engine->objects.strings.count == 0)
      return fail(r, "an access or lock without an object");
    push_event(engine, (uint32_t)number, &event);
    return true;
  }
  if (strncmp(at, "annotation ", 11) == 0) {
    at += 11;
    if (state->in_function)
      return fail(r, "annotation record inside a function");
    return parse_annotation(r, at, engine);
  }
  for (size_t i = 0; i < sizeof name_records / sizeof name_records[0]; i++) {
    const name_record *record = &name_records[i];
    size_t length = strlen(record->keyword);
    if (strncmp(at, record->keyword, length) != 0 || at[length] != ' ')
      continue;
    at += length + 1;
    if (state->in_function)
      return fail(r, "%s record inside a function", record->keyword);
    char *name = parse_string(r, &at, record->what);
    bool valid = name && at_end(r, at);
    if (valid)
      record->add(engine, name);
    free(name);
    return valid;
  }
  if (strncmp(at, "field-taken ", 12) == 0) {
    at += 12;
    if (state->in_function)
      return fail(r, "field-taken record inside a function");
    char *function = parse_string(r, &at, "the function name");
    bool valid = function != NULL;
    char *field = valid ? parse_string(r, &at, "the field name") : NULL;
    valid = valid && field && at_end(r, at);
    if (valid)
      bp_add_field_taken(engine, function, field);
    free(function);
    free(field);
    return valid;
  }
  if (strcmp(at, "end") == 0) {
    if (!state->in_function)
      return fail(r, "'end' outside a function");
    bp_function_end(engine);
    state->in_function = false;
    return true;
  }
  if (*at == '\0' || *at == '#')
    return true;
  const char *end = at;
  while (*end && *end != ' ')
    end++;
  return fail(r, "unknown record '%.*s'", (int)(end - at), at);
}

bool bp_program_read(bp_engine *engine, FILE *in, const char *name, char *error,
                     size_t error_size) {
  reader r = {name ? name : "<site file>", 0, error, error_size, false};
  if (error && error_size)
    error[0] = '\0';
  bp_engine *file = bp_engine_create();
  if (!file)
    abort();
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  read_state state = {false, 0};
  bool valid = true;
  while (valid && (length = getline(&line, &capacity, in)) >= 0) {
    r.line++;
    if ((size_t)length != strlen(line)) {
      valid = fail(&r, "a NUL byte: not a text file");
      break;
    }
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
      line[--length] = '\0';
    if (r.line == 1) {
      int version;
      char tail;
      if (sscanf(line, "barrierpair-sites %d%c", &version, &tail) != 1) {
        r.line = 1;
        valid = fail(&r, "not a barrierpair site file (its first line is not "
                         "'barrierpair-sites <version>')");
      } else if (version != BP_SITES_VERSION) {
        valid = fail(&r,
                     "site file version %d; this barrierpair reads version %d (rebuild the site "
                     "files with this barrierpair's plugin)",
                     version, BP_SITES_VERSION);
      }
      continue;
    }
    valid = parse_line(&r, line, file, &state);
  }
  free(line);
  if (valid && ferror(in)) {
    valid = fail(&r, "read error");
  } else if (valid && r.line == 0) {
    r.line = 1;
    valid = fail(&r, "empty file: not a barrierpair site file");
  } else if (valid && state.in_function) {
    r.line++;
    valid = fail(&r, "the file ends inside a function (truncated?)");
  }
  if (valid)
    bp_program_merge(engine, file);
  bp_engine_destroy(file);
  return valid;
}
