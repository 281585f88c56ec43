/* Building the program's functions and events, and reading them back. */
#include "internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bp_engine *bp_engine_create(void) {
  bp_engine *engine = calloc(1, sizeof *engine);
  if (!engine)
    return NULL;
  bp_interner_init(&engine->files);
  bp_interner_init(&engine->objects);
  bp_interner_init(&engine->names);
  bp_vec_init(&engine->object_displays, sizeof(uint32_t));
  bp_vec_init(&engine->functions, sizeof(bp_function));
  bp_vec_init(&engine->events, sizeof(bp_event));
  bp_vec_init(&engine->annotations, sizeof(bp_annotation_record));
  bp_vec_init(&engine->address_taken, sizeof(uint32_t));
  bp_vec_init(&engine->field_taken, sizeof(bp_field_take));
  bp_vec_init(&engine->field_escapes, sizeof(uint32_t));
  bp_vec_init(&engine->field_opens, sizeof(uint32_t));
  engine->unit = BP_NO_UNIT;
  return engine;
}

void bp_engine_destroy(bp_engine *engine) {
  if (!engine)
    return;
  for (size_t f = 0; f < engine->functions.count; f++) {
    bp_function *function = bp_vec_at(&engine->functions, f);
    for (size_t b = 0; b < function->blocks.count; b++) {
      bp_block *block = bp_vec_at(&function->blocks, b);
      bp_vec_free(&block->events);
      bp_vec_free(&block->successors);
    }
    bp_vec_free(&function->blocks);
  }
  bp_vec_free(&engine->functions);
  bp_vec_free(&engine->events);
  bp_vec_free(&engine->annotations);
  bp_vec_free(&engine->address_taken);
  bp_vec_free(&engine->field_taken);
  bp_vec_free(&engine->field_escapes);
  bp_vec_free(&engine->field_opens);
  bp_vec_free(&engine->object_displays);
  free(engine->instance_objects);
  free(engine->kernel_units);
  bp_interner_free(&engine->files);
  bp_interner_free(&engine->objects);
  bp_interner_free(&engine->names);
  free(engine);
}

uint32_t bp_intern_file(bp_engine *engine, const char *path) {
  return bp_interner_add(&engine->files, path);
}

uint32_t bp_intern_object(bp_engine *engine, const char *key, const char *display) {
  uint32_t id = bp_interner_add(&engine->objects, key);
  if (id == engine->object_displays.count)
    *(uint32_t *)bp_vec_push(&engine->object_displays) = bp_interner_add(&engine->names, display);
  return id;
}

static bp_function *current_function(bp_engine *engine) {
  return bp_vec_at(&engine->functions, engine->functions.count - 1);
}

/* Every object id events hold, through `canonical`. */
static void rename_objects(bp_engine *engine, const uint32_t *canonical) {
  for (size_t e = 0; e < engine->events.count; e++) {
    bp_event *event = bp_vec_at(&engine->events, e);
    if (event->type == BP_EVENT_ACCESS || event->type == BP_EVENT_LOCK ||
        event->type == BP_EVENT_UNLOCK)
      event->object = canonical[event->object];
    if (event->type == BP_EVENT_ACCESS && event->value_guard.line)
      event->value_guard_object = canonical[event->value_guard_object];
    if (event->type == BP_EVENT_ACCESS && event->outer_guard.line)
      event->outer_guard_object = canonical[event->outer_guard_object];
    if (event->type == BP_EVENT_ACCESS && event->address_known)
      event->stored_address = canonical[event->stored_address];
    if (event->set_up_flag != BP_NO_OBJECT)
      event->set_up_flag = canonical[event->set_up_flag];
    if (event->after_set_up != BP_NO_OBJECT)
      event->after_set_up = canonical[event->after_set_up];
    for (size_t g = 0; g < BP_GUARDS_MAX; g++) {
      if (event->guards[g] != BP_NO_OBJECT)
        event->guards[g] = canonical[event->guards[g]];
      if (event->address_sources[g] != BP_NO_OBJECT)
        event->address_sources[g] = canonical[event->address_sources[g]];
      if (event->value_sources[g] != BP_NO_OBJECT)
        event->value_sources[g] = canonical[event->value_sources[g]];
    }
  }
}

/* Keeps, per access, the instance object that `canonical` renames, for
 * bp_event_instance_object. */
static void remember_instances(bp_engine *engine, const uint32_t *canonical) {
  size_t count = engine->events.count;
  if (engine->instance_object_count < count) {
    uint32_t *grown = realloc(engine->instance_objects, count * sizeof *grown);
    if (!grown)
      abort();
    for (size_t e = engine->instance_object_count; e < count; e++)
      grown[e] = BP_NO_OBJECT;
    engine->instance_objects = grown;
    engine->instance_object_count = count;
  }
  for (size_t e = 0; e < count; e++) {
    const bp_event *event = bp_vec_at(&engine->events, e);
    if (event->type == BP_EVENT_ACCESS && canonical[event->object] != event->object)
      engine->instance_objects[e] = event->object;
  }
}

void bp_unify_instances(bp_engine *engine) {
  size_t objects = engine->objects.strings.count;
  uint32_t *canonical = malloc((objects + 1) * sizeof *canonical);
  if (!canonical)
    abort();
  bool any = false;
  for (uint32_t o = 0; o < objects; o++) {
    canonical[o] = o;
    const char *key = bp_interner_get(&engine->objects, o);
    const char *at = strchr(key, BP_INSTANCE_SEPARATOR);
    if (!at)
      continue;
    size_t length = (size_t)(at - key);
    char *type = malloc(length + 1);
    if (!type)
      abort();
    memcpy(type, key, length);
    type[length] = '\0';
    uint32_t type_object = bp_interner_find(&engine->objects, type);
    free(type);
    if (type_object != UINT32_MAX) {
      canonical[o] = type_object;
      any = true;
    }
  }
  if (any) {
    remember_instances(engine, canonical);
    rename_objects(engine, canonical);
  }
  free(canonical);
}

uint32_t bp_event_instance_object(const bp_engine *engine, uint32_t event) {
  if (event < engine->instance_object_count && engine->instance_objects[event] != BP_NO_OBJECT)
    return engine->instance_objects[event];
  return bp_event_get(engine, event)->object;
}

const char *bp_event_object_display(const bp_engine *engine, uint32_t event) {
  return bp_object_display(engine, bp_event_instance_object(engine, event));
}

static bool type_named(const char *key) {
  return strncmp(key, "struct ", 7) == 0 || strncmp(key, "union ", 6) == 0;
}

const char *bp_event_instance_path(const bp_engine *engine, uint32_t event) {
  const char *key = bp_interner_get(&engine->objects, bp_event_instance_object(engine, event));
  const char *at = strchr(key, BP_INSTANCE_SEPARATOR);
  if (!at || !type_named(at + 1))
    return NULL;
  /* the container's type, then its file's tag in braces, which may hold dots */
  const char *path = at + 1 + strcspn(at + 1, "{.");
  if (*path == '{' && (path = strchr(path, '}')) != NULL)
    path++;
  return path && *path == '.' ? path : NULL;
}

const char *bp_event_variable_path(const bp_engine *engine, uint32_t event) {
  const char *key = bp_interner_get(&engine->objects, bp_event_instance_object(engine, event));
  const char *at = strchr(key, BP_INSTANCE_SEPARATOR);
  if (!type_named(key) || !at || type_named(at + 1))
    return NULL;
  /* a static's "file:name@/unit.c#hash": the path starts after the hash,
   * since the unit's file name has dots of its own */
  const char *name = strrchr(at + 1, '#');
  const char *path = strchr(name ? name : at + 1, '.');
  return path ? path : NULL;
}

const char *bp_event_instance_container(const bp_engine *engine, uint32_t event, size_t *length) {
  const char *path = bp_event_instance_path(engine, event);
  if (!path)
    return NULL;
  const char *key = bp_interner_get(&engine->objects, bp_event_instance_object(engine, event));
  const char *container = strchr(key, BP_INSTANCE_SEPARATOR) + 1;
  *length = (size_t)(path - container);
  return container;
}

bool bp_variable_object(const bp_engine *engine, uint32_t object) {
  const char *key = bp_interner_get(&engine->objects, object);
  if (!type_named(key))
    return true;
  const char *instance = strchr(key, BP_INSTANCE_SEPARATOR);
  return instance && !type_named(instance + 1);
}

bool bp_same_structure(const bp_engine *engine, uint32_t a, uint32_t b) {
  if (a == b)
    return true;
  const char *key_a = bp_interner_get(&engine->objects, a);
  const char *key_b = bp_interner_get(&engine->objects, b);
  if (!type_named(key_a) || !type_named(key_b))
    return false;
  size_t length = strcspn(key_a, ".");
  return key_a[length] == '.' && strncmp(key_a, key_b, length + 1) == 0;
}

bool bp_one_location(const bp_engine *engine, uint32_t object) {
  const char *key = bp_interner_get(&engine->objects, object);
  size_t length = strlen(key);
  return !(length >= 2 && strcmp(key + length - 2, "[]") == 0) &&
         bp_variable_object(engine, object);
}

uint32_t bp_intern_pointee(bp_engine *engine, const char *pointer_key,
                           const char *pointer_display) {
  size_t key_length = strlen(pointer_key), display_length = strlen(pointer_display);
  char *key = malloc(key_length + 4), *display = malloc(display_length + 2);
  if (!key || !display)
    abort();
  snprintf(key, key_length + 4, "*(%s)", pointer_key);
  snprintf(display, display_length + 2, "*%s", pointer_display);
  uint32_t object = bp_intern_object(engine, key, display);
  free(key);
  free(display);
  return object;
}

/* The pointer object whose pointee `object` is, or UINT32_MAX. */
static uint32_t pointer_of(const bp_engine *engine, uint32_t object) {
  const char *key = bp_interner_get(&engine->objects, object);
  size_t length = strlen(key);
  if (length < 4 || key[0] != '*' || key[1] != '(' || key[length - 1] != ')')
    return UINT32_MAX;
  char *pointer = malloc(length - 2);
  if (!pointer)
    abort();
  memcpy(pointer, key + 2, length - 3);
  pointer[length - 3] = '\0';
  uint32_t found = bp_interner_find(&engine->objects, pointer);
  free(pointer);
  return found;
}

void bp_resolve_pointees(bp_engine *engine) {
  size_t objects = engine->objects.strings.count;
  /* per pointer object: its pointee object, and the one address stored */
  uint32_t *pointee = malloc((objects + 1) * sizeof *pointee);
  uint32_t *target = malloc((objects + 1) * sizeof *target);
  uint32_t *canonical = malloc((objects + 1) * sizeof *canonical);
  if (!pointee || !target || !canonical)
    abort();
  enum { NO_TARGET = UINT32_MAX, UNKNOWN_TARGET = UINT32_MAX - 1 };
  bool any = false;
  for (uint32_t o = 0; o < objects; o++) {
    pointee[o] = BP_NO_OBJECT;
    target[o] = NO_TARGET;
    canonical[o] = o;
  }
  for (uint32_t o = 0; o < objects; o++) {
    uint32_t pointer = pointer_of(engine, o);
    if (pointer != UINT32_MAX) {
      pointee[pointer] = o;
      any = true;
    }
  }
  for (size_t e = 0; any && e < engine->events.count; e++) {
    const bp_event *event = bp_vec_at(&engine->events, e);
    if (event->type != BP_EVENT_ACCESS || event->kind != BP_ACCESS_STORE ||
        pointee[event->object] == BP_NO_OBJECT)
      continue;
    uint32_t *stored = &target[event->object];
    if (event->address_known && (*stored == NO_TARGET || *stored == event->stored_address))
      *stored = event->stored_address;
    else if (!(event->value_known && event->stored_value == 0)) /* NULL points nowhere */
      *stored = UNKNOWN_TARGET;
  }
  bool resolved = false;
  for (uint32_t o = 0; any && o < objects; o++) {
    if (pointee[o] != BP_NO_OBJECT && target[o] != NO_TARGET && target[o] != UNKNOWN_TARGET) {
      canonical[pointee[o]] = target[o];
      resolved = true;
    }
  }
  if (resolved)
    rename_objects(engine, canonical);
  free(pointee);
  free(target);
  free(canonical);
}

void bp_set_contract_only(bp_engine *engine) {
  if (engine->building && engine->functions.count)
    ((bp_function *)bp_vec_at(&engine->functions, engine->functions.count - 1))->contract_only =
        true;
}

void bp_set_callers(bp_engine *engine, bp_callers callers) {
  if (engine->building && engine->functions.count)
    ((bp_function *)bp_vec_at(&engine->functions, engine->functions.count - 1))->callers = callers;
}

bp_callers bp_function_callers(const bp_engine *engine, uint32_t function) {
  return function < engine->functions.count
             ? ((const bp_function *)bp_vec_at(&engine->functions, function))->callers
             : BP_CALLERS_UNKNOWN;
}

void bp_add_address_taken(bp_engine *engine, const char *function) {
  *(uint32_t *)bp_vec_push(&engine->address_taken) = bp_interner_add(&engine->names, function);
}

void bp_add_field_taken(bp_engine *engine, const char *function, const char *field) {
  bp_field_take *take = bp_vec_push(&engine->field_taken);
  take->unit = engine->unit;
  take->function = bp_interner_add(&engine->names, function);
  take->field = bp_interner_add(&engine->names, field);
}

bool bp_field_taken(const bp_engine *engine, size_t index, const char **unit, const char **function,
                    const char **field) {
  if (index >= engine->field_taken.count)
    return false;
  const bp_field_take *take = bp_vec_at(&engine->field_taken, index);
  *unit = take->unit == BP_NO_UNIT ? NULL : bp_interner_get(&engine->names, take->unit);
  *function = bp_interner_get(&engine->names, take->function);
  *field = bp_interner_get(&engine->names, take->field);
  return true;
}

void bp_add_field_escape(bp_engine *engine, const char *field) {
  *(uint32_t *)bp_vec_push(&engine->field_escapes) = bp_interner_add(&engine->names, field);
}

const char *bp_field_escape(const bp_engine *engine, size_t index) {
  return index < engine->field_escapes.count
             ? bp_interner_get(&engine->names,
                               *(const uint32_t *)bp_vec_at(&engine->field_escapes, index))
             : NULL;
}

void bp_add_field_open(bp_engine *engine, const char *field) {
  *(uint32_t *)bp_vec_push(&engine->field_opens) = bp_interner_add(&engine->names, field);
}

const char *bp_field_open(const bp_engine *engine, size_t index) {
  return index < engine->field_opens.count
             ? bp_interner_get(&engine->names,
                               *(const uint32_t *)bp_vec_at(&engine->field_opens, index))
             : NULL;
}

const char *bp_address_taken(const bp_engine *engine, size_t index) {
  return index < engine->address_taken.count
             ? bp_interner_get(&engine->names,
                               *(const uint32_t *)bp_vec_at(&engine->address_taken, index))
             : NULL;
}

void bp_set_boot_only(bp_engine *engine) {
  if (engine->building && engine->functions.count)
    ((bp_function *)bp_vec_at(&engine->functions, engine->functions.count - 1))->boot_only = true;
}

bool bp_function_runs_alone(const bp_engine *engine, uint32_t function) {
  if (function >= engine->functions.count)
    return false;
  const bp_function *stored = bp_vec_at(&engine->functions, function);
  return stored->contract_only || stored->boot_only;
}

bool bp_function_returns_fresh(const bp_engine *engine, uint32_t function) {
  return function < engine->functions.count &&
         ((const bp_function *)bp_vec_at(&engine->functions, function))->returns_fresh;
}

bool bp_function_contract_only(const bp_engine *engine, uint32_t function) {
  return function < engine->functions.count &&
         ((const bp_function *)bp_vec_at(&engine->functions, function))->contract_only;
}

void bp_set_unit(bp_engine *engine, const char *identity) {
  engine->unit = identity && *identity ? bp_interner_add(&engine->names, identity) : BP_NO_UNIT;
}

uint32_t bp_function_begin(bp_engine *engine, const char *name, bp_location location) {
  bp_function *function = bp_vec_push(&engine->functions);
  function->name = bp_interner_add(&engine->names, name);
  function->unit = engine->unit;
  function->location = location;
  function->contract_only = false;
  function->boot_only = false;
  function->callers = BP_CALLERS_UNKNOWN;
  function->exit = BP_NO_BLOCK;
  bp_vec_init(&function->blocks, sizeof(bp_block));
  engine->building = true;
  return (uint32_t)engine->functions.count - 1;
}

uint32_t bp_add_block(bp_engine *engine) {
  bp_function *function = current_function(engine);
  bp_block *block = bp_vec_push(&function->blocks);
  bp_vec_init(&block->events, sizeof(uint32_t));
  bp_vec_init(&block->successors, sizeof(uint32_t));
  return (uint32_t)function->blocks.count - 1;
}

static bp_block *block_at(bp_engine *engine, uint32_t index) {
  bp_function *function = current_function(engine);
  if (index >= function->blocks.count)
    abort(); /* a front-end bug: blocks must be added before use */
  return bp_vec_at(&function->blocks, index);
}

void bp_add_edge(bp_engine *engine, uint32_t from_block, uint32_t to_block) {
  block_at(engine, to_block);
  *(uint32_t *)bp_vec_push(&block_at(engine, from_block)->successors) = to_block;
}

void bp_add_loop_edge(bp_engine *engine, uint32_t from_block, uint32_t to_block) {
  block_at(engine, to_block);
  *(uint32_t *)bp_vec_push(&block_at(engine, from_block)->successors) = to_block | BP_LOOP_EDGE;
}

static uint32_t add_event(bp_engine *engine, uint32_t block, const bp_event *event) {
  bp_event *stored = bp_vec_push(&engine->events);
  *stored = *event;
  stored->function = (uint32_t)engine->functions.count - 1;
  for (size_t i = 0; i < BP_GUARDS_MAX; i++)
    stored->guards[i] = stored->address_sources[i] = stored->value_sources[i] = BP_NO_OBJECT;
  stored->root = stored->value_root = BP_NO_ROOT;
  stored->set_up_flag = stored->after_set_up = BP_NO_OBJECT;
  stored->lvalue_text = stored->value_text = stored->callee = stored->contract = stored->root_type =
      stored->subtype = stored->allocation_source = bp_interner_add(&engine->names, "");
  uint32_t id = (uint32_t)engine->events.count - 1;
  *(uint32_t *)bp_vec_push(&block_at(engine, block)->events) = id;
  return id;
}

uint32_t bp_add_access(bp_engine *engine, uint32_t block, uint32_t object, bp_access_kind kind,
                       bool marked, int primitive, bp_location location) {
  bp_event event = {.type = BP_EVENT_ACCESS,
                    .location = location,
                    .primitive = primitive,
                    .object = object,
                    .kind = kind,
                    .marked = marked};
  return add_event(engine, block, &event);
}

uint32_t bp_add_lock(bp_engine *engine, uint32_t block, uint32_t lock, bool acquire, int primitive,
                     bp_location location) {
  bp_event event = {.type = acquire ? BP_EVENT_LOCK : BP_EVENT_UNLOCK,
                    .location = location,
                    .primitive = primitive,
                    .object = lock};
  return add_event(engine, block, &event);
}

static uint32_t add_thread_event(bp_engine *engine, uint32_t block, bp_event_type type,
                                 const char *thread, int primitive, bp_location location) {
  bp_event event = {.type = type, .location = location, .primitive = primitive};
  uint32_t id = add_event(engine, block, &event);
  bp_set_event_callee(engine, id, thread);
  return id;
}

uint32_t bp_add_spawn(bp_engine *engine, uint32_t block, const char *thread, int primitive,
                      bp_location location) {
  return add_thread_event(engine, block, BP_EVENT_SPAWN, thread, primitive, location);
}

uint32_t bp_add_join(bp_engine *engine, uint32_t block, const char *thread, int primitive,
                     bp_location location) {
  return add_thread_event(engine, block, BP_EVENT_JOIN, thread, primitive, location);
}

uint32_t bp_add_call(bp_engine *engine, uint32_t block, const char *callee, bp_location location) {
  return add_thread_event(engine, block, BP_EVENT_CALL, callee, BP_NO_PRIMITIVE, location);
}

uint32_t bp_add_barrier(bp_engine *engine, uint32_t block, unsigned strength, int primitive,
                        bool implicit, bp_location location) {
  bp_event event = {.type = BP_EVENT_BARRIER,
                    .location = location,
                    .primitive = primitive,
                    .strength = strength,
                    .implicit = implicit};
  return add_event(engine, block, &event);
}

uint32_t bp_add_place(bp_engine *engine, uint32_t block, bp_location location) {
  bp_event event = {.type = BP_EVENT_PLACE, .location = location, .primitive = BP_NO_PRIMITIVE};
  return add_event(engine, block, &event);
}

void bp_function_end(bp_engine *engine) {
  engine->building = false;
}

void bp_function_exit(bp_engine *engine, uint32_t exit) {
  bp_function *function = current_function(engine);
  if (function && exit < function->blocks.count)
    function->exit = exit;
}

uint32_t bp_function_exit_block(const bp_engine *engine, uint32_t function) {
  return function < engine->functions.count
             ? ((const bp_function *)bp_vec_at(&engine->functions, function))->exit
             : BP_NO_BLOCK;
}

void bp_function_entry(bp_engine *engine, uint32_t entry) {
  bp_function *function = current_function(engine);
  size_t count = function->blocks.count;
  if (entry >= count)
    return;
  bool *reached = calloc(count, sizeof *reached);
  uint32_t *stack = malloc(count * sizeof *stack);
  if (!reached || !stack)
    abort();
  size_t depth = 0;
  reached[entry] = true;
  stack[depth++] = entry;
  while (depth) {
    const bp_block *block = bp_vec_at(&function->blocks, stack[--depth]);
    for (size_t s = 0; s < block->successors.count; s++) {
      uint32_t successor = *(uint32_t *)bp_vec_at(&block->successors, s) & ~BP_LOOP_EDGE;
      if (successor < count && !reached[successor]) {
        reached[successor] = true;
        stack[depth++] = successor;
      }
    }
  }
  for (size_t b = 0; b < count; b++)
    if (!reached[b])
      ((bp_block *)bp_vec_at(&function->blocks, b))->successors.count = 0;
  free(reached);
  free(stack);
}

/* The event a front end fills in after adding it; NULL for an id the engine
 * never gave out. */
static bp_event *event_to_change(bp_engine *engine, uint32_t event) {
  return event < engine->events.count ? bp_vec_at(&engine->events, event) : NULL;
}

void bp_set_event_text(bp_engine *engine, uint32_t event, bp_location statement,
                       const char *indentation, bp_location own_begin, bp_location own_end) {
  bp_event *stored = event_to_change(engine, event);
  if (!stored)
    return;
  stored->statement = statement;
  stored->indentation = bp_interner_add(&engine->names, indentation ? indentation : "");
  stored->own_begin = own_begin;
  stored->own_end = own_end;
}

void bp_set_text_source(bp_engine *engine, bp_text_source source, void *context) {
  engine->text_source = source;
  engine->text_context = context;
}

const bp_event *bp_event_text(const bp_engine *engine, uint32_t event, bp_text_kind kind) {
  if (event >= engine->events.count)
    return NULL;
  if (engine->text_source) {
    /* The engine was made without const: asking for text only fills in
     * what the front end left for later. */
    bp_engine *filling = (bp_engine *)engine;
    filling->text_source(filling->text_context, filling, event, kind);
  }
  return bp_vec_at(&engine->events, event);
}

static void add_object_to(uint32_t set[BP_GUARDS_MAX], uint32_t object) {
  for (size_t i = 0; i < BP_GUARDS_MAX; i++) {
    if (set[i] == object)
      return;
    if (set[i] == BP_NO_OBJECT) {
      set[i] = object;
      return;
    }
  }
}

static bool object_in(const uint32_t set[BP_GUARDS_MAX], uint32_t object) {
  for (size_t i = 0; i < BP_GUARDS_MAX; i++) {
    if (set[i] == object)
      return true;
  }
  return false;
}

void bp_add_guard(bp_engine *engine, uint32_t event, uint32_t object) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    add_object_to(stored->guards, object);
}

/* A guard that is also a source of one kind: `sources` is the offset of
 * its set in bp_event. */
static void add_source(bp_engine *engine, uint32_t event, uint32_t object, size_t sources) {
  bp_event *stored = event_to_change(engine, event);
  if (!stored)
    return;
  add_object_to(stored->guards, object);
  add_object_to((uint32_t *)((char *)stored + sources), object);
}

void bp_add_address_source(bp_engine *engine, uint32_t event, uint32_t object) {
  add_source(engine, event, object, offsetof(bp_event, address_sources));
}

void bp_add_value_source(bp_engine *engine, uint32_t event, uint32_t object) {
  add_source(engine, event, object, offsetof(bp_event, value_sources));
}

bool bp_function_has_event(const bp_engine *engine, uint32_t function, bp_event_test test,
                           const void *context) {
  const bp_function *stored = bp_vec_at(&engine->functions, function);
  for (size_t b = 0; b < stored->blocks.count; b++) {
    const bp_block *block = bp_vec_at(&stored->blocks, b);
    for (size_t i = 0; i < block->events.count; i++) {
      if (test(engine, *(uint32_t *)bp_vec_at(&block->events, i), context))
        return true;
    }
  }
  return false;
}

bool bp_event_writes_value_of(const bp_engine *engine, uint32_t event, uint32_t object) {
  const bp_event *stored = bp_event_get(engine, event);
  return stored && object_in(stored->value_sources, object);
}

bool bp_event_guarded_by(const bp_engine *engine, uint32_t event, uint32_t object) {
  const bp_event *stored = bp_event_get(engine, event);
  return stored && object_in(stored->guards, object);
}

bool bp_event_addressed_through(const bp_engine *engine, uint32_t event, uint32_t object) {
  const bp_event *stored = bp_event_get(engine, event);
  if (!stored)
    return false;
  if (object == BP_NO_OBJECT)
    return stored->address_sources[0] != BP_NO_OBJECT;
  return object_in(stored->address_sources, object);
}

void bp_set_access_text(bp_engine *engine, uint32_t event, bp_location begin, bp_location end,
                        const char *lvalue, const char *value) {
  bp_event *stored = event_to_change(engine, event);
  if (!stored)
    return;
  stored->access_begin = begin;
  stored->access_end = end;
  stored->lvalue_text = bp_interner_add(&engine->names, lvalue ? lvalue : "");
  stored->value_text = bp_interner_add(&engine->names, value ? value : "");
}

/* The flags a front end sets on an event it has added (barrierpair.h says
 * what each means): bp_set_thread_own(), bp_set_marked_region(), bp_set_after_unnamed_stores(),
 * bp_set_after_publication(), bp_set_reference_put(), bp_set_after_unlock_lock(),
 * bp_set_value_unused(), bp_set_unpublished(). */
#define EVENT_FLAG_SETTER(field)                                                                   \
  void bp_set_##field(bp_engine *engine, uint32_t event) {                                         \
    bp_event *stored = event_to_change(engine, event);                                             \
    if (stored)                                                                                    \
      stored->field = true;                                                                        \
  }
EVENT_FLAG_SETTER(thread_own)
EVENT_FLAG_SETTER(marked_region)
EVENT_FLAG_SETTER(after_unnamed_stores)
EVENT_FLAG_SETTER(after_publication)
EVENT_FLAG_SETTER(reference_put)
EVENT_FLAG_SETTER(after_unlock_lock)
EVENT_FLAG_SETTER(value_unused)
EVENT_FLAG_SETTER(unpublished)
#undef EVENT_FLAG_SETTER

void bp_set_set_up_flag(bp_engine *engine, uint32_t event, uint32_t flag) {
  bp_event *stored = event_to_change(engine, event);
  if (stored && stored->type == BP_EVENT_ACCESS)
    stored->set_up_flag = flag;
}

void bp_set_after_set_up(bp_engine *engine, uint32_t event, uint32_t flag) {
  bp_event *stored = event_to_change(engine, event);
  if (stored && stored->type == BP_EVENT_ACCESS)
    stored->after_set_up = flag;
}

void bp_set_unpublished_if_fresh(bp_engine *engine, uint32_t event, unsigned parameter) {
  bp_event *stored = event_to_change(engine, event);
  if (stored && parameter < BP_UNPUBLISHED_PARAMETERS)
    stored->unpublished_parameter = (uint8_t)(parameter + 1);
}

void bp_set_unpublished_if_kept(bp_engine *engine, uint32_t event, unsigned allocation) {
  bp_event *stored = event_to_change(engine, event);
  if (stored && allocation < BP_UNPUBLISHED_ALLOCATIONS)
    stored->unpublished_allocation = (uint8_t)(allocation + 1);
}

void bp_set_allocation_source(bp_engine *engine, uint32_t event, const char *callee) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    stored->allocation_source = bp_interner_add(&engine->names, callee ? callee : "");
}

void bp_set_call_argument(bp_engine *engine, uint32_t event, unsigned argument, unsigned parameter,
                          unsigned allocation, bool unpublished) {
  bp_event *stored = event_to_change(engine, event);
  uint64_t code =
      parameter != BP_NO_PARAMETER ? 2 + (uint64_t)parameter : 16 + (uint64_t)allocation;
  if (!stored || argument >= BP_UNPUBLISHED_ARGUMENTS ||
      (parameter != BP_NO_PARAMETER ? parameter >= BP_UNPUBLISHED_PARAMETERS
                                    : allocation >= BP_UNPUBLISHED_ALLOCATIONS))
    return;
  if (unpublished)
    code |= BP_ARGUMENT_UNPUBLISHED;
  unsigned shift = 8 * argument;
  stored->call_arguments = (stored->call_arguments & ~(UINT64_C(255) << shift)) | code << shift;
}

void bp_set_keeps_parameter(bp_engine *engine, unsigned parameter) {
  if (engine->building && engine->functions.count && parameter < BP_UNPUBLISHED_PARAMETERS)
    ((bp_function *)bp_vec_at(&engine->functions, engine->functions.count - 1))->keeps |=
        (uint16_t)(1u << parameter);
}

void bp_set_returns_fresh(bp_engine *engine) {
  if (engine->building && engine->functions.count)
    ((bp_function *)bp_vec_at(&engine->functions, engine->functions.count - 1))->returns_fresh =
        true;
}

void bp_set_call_inlined(bp_engine *engine, uint32_t event) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    stored->inlined = true;
}

void bp_set_stored_value(bp_engine *engine, uint32_t event, int64_t value) {
  bp_event *stored = event_to_change(engine, event);
  if (stored) {
    stored->value_known = true;
    stored->stored_value = (uint64_t)value;
  }
}

void bp_set_stored_address(bp_engine *engine, uint32_t event, uint32_t object) {
  bp_event *stored = event_to_change(engine, event);
  if (stored && object < engine->objects.strings.count) {
    stored->address_known = true;
    stored->stored_address = object;
  }
}

void bp_set_access_bits(bp_engine *engine, uint32_t event, uint64_t bits) {
  bp_event *access = event_to_change(engine, event);
  if (access)
    access->bits = bits;
}

void bp_set_stored_increment(bp_engine *engine, uint32_t event) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    stored->stored_increment = true;
}

void bp_set_stored_nonzero(bp_engine *engine, uint32_t event) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    stored->stored_nonzero = true;
}

void bp_set_access_root(bp_engine *engine, uint32_t event, uint32_t root, const char *type) {
  bp_event *access = event_to_change(engine, event);
  if (access) {
    access->root = root;
    access->root_type = bp_interner_add(&engine->names, type ? type : "");
  }
}

const char *bp_event_root_type(const bp_engine *engine, uint32_t event) {
  return bp_interner_get(&engine->names, bp_event_get(engine, event)->root_type);
}

void bp_set_access_subtype(bp_engine *engine, uint32_t event, const char *chain) {
  bp_event *access = event_to_change(engine, event);
  if (access)
    access->subtype = bp_interner_add(&engine->names, chain ? chain : "");
}

const char *bp_event_allocation_source(const bp_engine *engine, uint32_t event) {
  const bp_event *stored = bp_event_get(engine, event);
  return stored ? bp_interner_get(&engine->names, stored->allocation_source) : "";
}

const char *bp_event_subtype(const bp_engine *engine, uint32_t event) {
  return bp_interner_get(&engine->names, bp_event_get(engine, event)->subtype);
}

void bp_set_value_root(bp_engine *engine, uint32_t event, uint32_t root) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    stored->value_root = root;
}

static void set_guard(bp_location *at, uint32_t *of, uint64_t *tested, bool *zero, uint32_t object,
                      bp_location load, uint64_t bits, bool when_zero) {
  *at = load;
  *of = object;
  *tested = bits;
  *zero = when_zero;
}

void bp_set_value_guard(bp_engine *engine, uint32_t event, uint32_t object, bp_location load,
                        uint64_t bits, bool when_zero) {
  bp_event *e = event_to_change(engine, event);
  if (e)
    set_guard(&e->value_guard, &e->value_guard_object, &e->value_guard_bits, &e->value_guard_zero,
              object, load, bits, when_zero);
}

void bp_set_outer_value_guard(bp_engine *engine, uint32_t event, uint32_t object, bp_location load,
                              uint64_t bits, bool when_zero) {
  bp_event *e = event_to_change(engine, event);
  if (e)
    set_guard(&e->outer_guard, &e->outer_guard_object, &e->outer_guard_bits, &e->outer_guard_zero,
              object, load, bits, when_zero);
}

void bp_set_event_callee(bp_engine *engine, uint32_t event, const char *callee) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    stored->callee = bp_interner_add(&engine->names, callee ? callee : "");
}

void bp_set_event_contract(bp_engine *engine, uint32_t event, const char *function) {
  bp_event *stored = event_to_change(engine, event);
  if (stored)
    stored->contract = bp_interner_add(&engine->names, function ? function : "");
}

const char *bp_event_contract(const bp_engine *engine, uint32_t event) {
  const bp_event *stored = bp_event_get(engine, event);
  return stored ? bp_interner_get(&engine->names, stored->contract) : "";
}

const char *bp_event_callee(const bp_engine *engine, uint32_t event) {
  const bp_event *stored = bp_event_get(engine, event);
  return stored ? bp_interner_get(&engine->names, stored->callee) : "";
}

const char *bp_event_lvalue_text(const bp_engine *engine, uint32_t event) {
  const bp_event *stored = bp_event_text(engine, event, BP_TEXT_ACCESS);
  return stored ? bp_interner_get(&engine->names, stored->lvalue_text) : "";
}

const char *bp_event_value_text(const bp_engine *engine, uint32_t event) {
  const bp_event *stored = bp_event_text(engine, event, BP_TEXT_ACCESS);
  return stored ? bp_interner_get(&engine->names, stored->value_text) : "";
}

const char *bp_event_indentation(const bp_engine *engine, uint32_t event) {
  const bp_event *stored = bp_event_text(engine, event, BP_TEXT_PLACE);
  if (!stored || stored->statement.line == 0)
    return "";
  return bp_interner_get(&engine->names, stored->indentation);
}

size_t bp_event_count(const bp_engine *engine) {
  return engine->events.count;
}

const bp_event *bp_event_get(const bp_engine *engine, uint32_t event) {
  if (event >= engine->events.count)
    return NULL;
  return bp_vec_at(&engine->events, event);
}

const char *bp_function_name(const bp_engine *engine, uint32_t function) {
  if (function >= engine->functions.count)
    return "";
  const bp_function *f = bp_vec_at(&engine->functions, function);
  return bp_interner_get(&engine->names, f->name);
}

const char *bp_function_unit(const bp_engine *engine, uint32_t function) {
  if (function >= engine->functions.count)
    return "";
  const bp_function *f = bp_vec_at(&engine->functions, function);
  return f->unit == BP_NO_UNIT ? "" : bp_interner_get(&engine->names, f->unit);
}

/* The main file of a unit's identity: what comes before its last '#'. */
static size_t main_file_length(const char *unit) {
  const char *hash = strrchr(unit, '#');
  return hash ? (size_t)(hash - unit) : strlen(unit);
}

bool bp_other_builds(const bp_engine *engine, uint32_t f, uint32_t g) {
  const bp_function *a = bp_vec_at(&engine->functions, f);
  const bp_function *b = bp_vec_at(&engine->functions, g);
  if (a->unit == BP_NO_UNIT || b->unit == BP_NO_UNIT || a->unit == b->unit)
    return false;
  const char *unit_a = bp_interner_get(&engine->names, a->unit);
  const char *unit_b = bp_interner_get(&engine->names, b->unit);
  size_t length = main_file_length(unit_a);
  return length == main_file_length(unit_b) && strncmp(unit_a, unit_b, length) == 0;
}

const char *bp_object_display(const bp_engine *engine, uint32_t object) {
  if (object >= engine->object_displays.count)
    return "";
  return bp_interner_get(&engine->names, *(uint32_t *)bp_vec_at(&engine->object_displays, object));
}

const char *bp_file_path(const bp_engine *engine, uint32_t file) {
  return bp_interner_get(&engine->files, file);
}

bool bp_read_modify_write(const bp_engine *engine, uint32_t event) {
  const bp_primitive *primitive = bp_primitive_get(bp_event_get(engine, event)->primitive);
  return primitive && bp_op_is_rmw(primitive->op);
}

bool bp_barrier_by_default(const bp_engine *engine, uint32_t event) {
  const bp_event *barrier = bp_event_get(engine, event);
  return barrier->type == BP_EVENT_BARRIER && barrier->implicit &&
         barrier->primitive == BP_NO_PRIMITIVE;
}

bool bp_same_location(bp_location a, bp_location b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

uint32_t bp_own_barrier(const bp_engine *engine, uint32_t event, unsigned bits) {
  const bp_event *access = bp_event_get(engine, event);
  size_t count = bp_event_count(engine);
  for (uint32_t other = event > 2 ? event - 2 : 0; other <= event + 2 && other < count; other++) {
    const bp_event *barrier = bp_event_get(engine, other);
    if (other != event && barrier->function == access->function &&
        barrier->type == BP_EVENT_BARRIER && barrier->implicit && (barrier->strength & bits) &&
        barrier->location.file == access->location.file &&
        barrier->location.line == access->location.line &&
        barrier->location.column == access->location.column)
      return other;
  }
  return BP_NO_EVENT;
}

/* How fix-its for `event` are spelled: the family of the code it is in,
 * not of one primitive. Kernel code that uses rcu_dereference() (a name
 * liburcu shares) is kernel code; an access to an _Atomic object takes the
 * family of its function's other primitives, and C11's when there are
 * none: never a library's that the code does not use. */
int bp_compare_locations(const bp_engine *engine, uint32_t a, uint32_t b) {
  const bp_location *la = &bp_event_get(engine, a)->location,
                    *lb = &bp_event_get(engine, b)->location;
  int order = la->file == lb->file
                  ? 0
                  : strcmp(bp_file_path(engine, la->file), bp_file_path(engine, lb->file));
  if (order)
    return order;
  BP_COMPARE(la->line, lb->line);
  BP_COMPARE(la->column, lb->column);
  return 0;
}

bool bp_dependency(const bp_engine *engine, uint32_t barrier) {
  return barrier != BP_NO_EVENT && bp_event_get(engine, barrier)->type == BP_EVENT_ACCESS;
}

/* Barriers and accesses tell kernel code; locks are named alike everywhere
 * (liburcu has a mutex_lock() too). */
static bool kernel_spelling(const bp_primitive *primitive) {
  return primitive && primitive->family == BP_FAMILY_KERNEL && !bp_op_is_lock(primitive->op);
}

/* A unit is the kernel's when it writes a kernel barrier or marking and no
 * liburcu fence, or writes neither in a program that is the kernel's: the
 * RCU primitives (`rcu_dereference()`) are liburcu's rows of the table, but
 * in kernel code the fix-it must be `smp_mb()`. */
void bp_find_unit_families(bp_engine *engine) {
  size_t names = engine->names.strings.count;
  free(engine->kernel_units);
  engine->kernel_units = calloc(names + 1, sizeof *engine->kernel_units);
  bool *urcu_units = calloc(names + 1, sizeof *urcu_units);
  if (!engine->kernel_units || !urcu_units)
    abort();
  for (uint32_t id = 0; id < bp_event_count(engine); id++) {
    const bp_event *event = bp_event_get(engine, id);
    const bp_primitive *primitive = bp_primitive_get(event->primitive);
    if (!primitive || event->function >= engine->functions.count)
      continue;
    uint32_t unit = ((const bp_function *)bp_vec_at(&engine->functions, event->function))->unit;
    if (unit >= names)
      continue;
    if (kernel_spelling(primitive))
      engine->kernel_units[unit] = true;
    else if (primitive->family == BP_FAMILY_URCU && primitive->op == BP_OP_FENCE)
      urcu_units[unit] = true;
  }
  /* A unit that says neither (kernel code that writes only RCU
   * primitives) follows the program, when the program says: the kernel
   * writes no liburcu fence anywhere. */
  bool kernel_program = false, urcu_program = false;
  for (size_t unit = 0; unit < names; unit++) {
    kernel_program |= engine->kernel_units[unit];
    urcu_program |= urcu_units[unit];
  }
  for (size_t unit = 0; unit < names; unit++) {
    bool silent = !engine->kernel_units[unit] && !urcu_units[unit];
    engine->kernel_units[unit] = (engine->kernel_units[unit] && !urcu_units[unit]) ||
                                 (silent && kernel_program && !urcu_program);
  }
  free(urcu_units);
}

static uint32_t unit_of(const bp_engine *engine, uint32_t event) {
  uint32_t function = bp_event_get(engine, event)->function;
  return function < engine->functions.count
             ? ((const bp_function *)bp_vec_at(&engine->functions, function))->unit
             : BP_NO_UNIT;
}

bp_family bp_event_family(const bp_engine *engine, uint32_t event) {
  const bp_event *e = event == BP_NO_EVENT ? NULL : bp_event_get(engine, event);
  if (!e)
    return BP_FAMILY_URCU;
  /* a function's events have contiguous ids */
  uint32_t first = event, last = event, count = (uint32_t)bp_event_count(engine);
  while (first > 0 && bp_event_get(engine, first - 1)->function == e->function)
    first--;
  while (last + 1 < count && bp_event_get(engine, last + 1)->function == e->function)
    last++;
  const bp_primitive *own = bp_primitive_get(e->primitive), *other = NULL;
  for (uint32_t id = first; id <= last; id++) {
    const bp_primitive *primitive = bp_primitive_get(bp_event_get(engine, id)->primitive);
    if (kernel_spelling(primitive))
      return BP_FAMILY_KERNEL;
    if (primitive && !other)
      other = primitive;
  }
  uint32_t unit = unit_of(engine, event);
  /* a function that names no primitive speaks its unit's family: the
   * nearest function of the unit that does (a unit's events are
   * contiguous) */
  for (uint32_t distance = 1; !own && !other; distance++) {
    bool before = first >= distance && unit_of(engine, first - distance) == unit;
    bool after = last + distance < count && unit_of(engine, last + distance) == unit;
    if (!before && !after)
      break;
    if (before)
      other = bp_primitive_get(bp_event_get(engine, first - distance)->primitive);
    if (!other && after)
      other = bp_primitive_get(bp_event_get(engine, last + distance)->primitive);
  }
  if (other && kernel_spelling(other))
    return BP_FAMILY_KERNEL;
  bp_family family = own ? own->family : other ? other->family : BP_FAMILY_C11;
  bool kernel_unit =
      engine->kernel_units && unit < engine->names.strings.count && engine->kernel_units[unit];
  /* code that writes C11 or GCC atomics keeps their spelling */
  if (kernel_unit && (family == BP_FAMILY_URCU || (!own && !other)))
    return BP_FAMILY_KERNEL;
  return family;
}
