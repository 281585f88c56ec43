#include "synthetic.h"

#include "rng.h"

#include <stdio.h>
#include <string.h>

enum {
  OBJECTS_PER_MODULE = 8,
  FUNCTIONS_PER_MODULE = 6,
  GLOBAL_OBJECTS = 16,
  GLOBAL_PERCENT = 3, /* accesses that go to a global object */
  FILES = 1024,
};

static const unsigned barrier_strengths[] = {BP_STRENGTH_FULL, BP_STRENGTH_LOADS,
                                             BP_STRENGTH_STORES};
/* primitives.def's spelling of each strength, found once */
static int barrier_primitives[3];

static uint32_t object_of(bp_engine *engine, rng *r, size_t module) {
  char key[48];
  if (rng_percent(r, GLOBAL_PERCENT))
    snprintf(key, sizeof key, "global_flag%u", rng_between(r, 0, GLOBAL_OBJECTS - 1));
  else
    snprintf(key, sizeof key, "struct m%zu.field%u", module,
             rng_between(r, 0, OBJECTS_PER_MODULE - 1));
  return bp_intern_object(engine, key, key);
}

/* Accesses with barriers between some of them; with some luck the middle
 * sits on one arm of an if, so paths meet. Returns the events added. */
static size_t build_function(bp_engine *engine, rng *r, size_t module, size_t index,
                             uint32_t file, uint32_t *line) {
  char name[48];
  snprintf(name, sizeof name, "m%zu_f%zu", module, index);
  bp_function_begin(engine, name, (bp_location){file, (*line)++, 1});
  bool branch = rng_percent(r, 30);
  uint32_t entry = bp_add_block(engine);
  uint32_t then = branch ? bp_add_block(engine) : entry;
  uint32_t join = branch ? bp_add_block(engine) : entry;
  if (branch) {
    bp_add_edge(engine, entry, then);
    bp_add_edge(engine, entry, join);
    bp_add_edge(engine, then, join);
  }
  unsigned accesses = rng_between(r, 2, 6);
  size_t events = 0;
  for (unsigned a = 0; a < accesses; a++) {
    uint32_t block = a == 0 ? entry : a + 1 == accesses ? join : then;
    bp_access_kind kind = rng_percent(r, 50) ? BP_ACCESS_STORE : BP_ACCESS_LOAD;
    bp_location at = {file, (*line)++, 3};
    bp_add_access(engine, block, object_of(engine, r, module), kind, true, BP_NO_PRIMITIVE, at);
    events++;
    if (a + 1 < accesses && rng_percent(r, 60)) {
      unsigned which = rng_between(r, 0, 2);
      at = (bp_location){file, (*line)++, 3};
      uint32_t barrier = bp_add_barrier(engine, block, barrier_strengths[which],
                                        barrier_primitives[which], false, at);
      bp_set_event_text(engine, barrier, at, "  ", at, (bp_location){file, at.line, 16});
      events++;
    }
  }
  bp_function_end(engine);
  return events;
}

void synthetic_build(bp_engine *engine, size_t sites, uint64_t seed, synthetic_shape *shape) {
  static const char *const spellings[] = {"cmm_smp_mb", "cmm_smp_rmb", "cmm_smp_wmb"};
  for (int i = 0; i < 3; i++)
    barrier_primitives[i] = bp_primitive_find(spellings[i], strlen(spellings[i]));
  rng r;
  rng_seed(&r, seed);
  uint32_t files[FILES];
  for (unsigned f = 0; f < FILES; f++) {
    char path[48];
    snprintf(path, sizeof path, "/src/module%u.c", f);
    files[f] = bp_intern_file(engine, path);
  }
  uint32_t lines[FILES];
  for (unsigned f = 0; f < FILES; f++)
    lines[f] = 1;
  size_t events = 0, functions = 0, module = 0;
  while (events < sites) {
    uint32_t file = files[module % FILES];
    for (size_t f = 0; f < FUNCTIONS_PER_MODULE && events < sites; f++, functions++)
      events += build_function(engine, &r, module, f, file, &lines[module % FILES]);
    module++;
  }
  shape->functions = functions;
  shape->objects = 0;
  while (bp_object_display(engine, (uint32_t)shape->objects)[0])
    shape->objects++;
}
