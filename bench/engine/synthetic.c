#include "synthetic.h"

#include "rng.h"

#include <stdio.h>
#include <string.h>

enum {
  OBJECTS_PER_MODULE = 8,
  FUNCTIONS_PER_MODULE = 6,
  GLOBAL_OBJECTS = 16,
  GLOBAL_PERCENT = 5, /* functions that test a global flag first */
  BROKEN_PERCENT = 2, /* barriers missing or of the wrong kind */
  FILES = 1024,
};

static const unsigned barrier_strengths[] = {BP_STRENGTH_FULL, BP_STRENGTH_LOADS,
                                             BP_STRENGTH_STORES};
/* primitives.def's spelling of each strength, found once */
static int barrier_primitives[3];

static uint32_t object(bp_engine *engine, size_t module, unsigned field) {
  char key[48];
  snprintf(key, sizeof key, "struct m%zu.field%u", module, field);
  return bp_intern_object(engine, key, key);
}

static uint32_t global_flag(bp_engine *engine, rng *r) {
  char key[48];
  snprintf(key, sizeof key, "global_flag%u", rng_between(r, 0, GLOBAL_OBJECTS - 1));
  return bp_intern_object(engine, key, key);
}

typedef struct {
  bp_engine *engine;
  rng *r;
  uint32_t file, *line;
  size_t events;
} writer;

static void record_access(writer *w, uint32_t block, uint32_t object, bp_access_kind kind) {
  bp_add_access(w->engine, block, object, kind, true, BP_NO_PRIMITIVE,
                (bp_location){w->file, (*w->line)++, 3});
  w->events++;
}

/* The barrier a pattern needs; in BROKEN_PERCENT of them missing or of the
 * wrong kind, as bugs are. */
static void barrier(writer *w, uint32_t block, unsigned which) {
  if (rng_percent(w->r, BROKEN_PERCENT)) {
    if (rng_percent(w->r, 50))
      return;
    which = (which + 1) % 3;
  }
  bp_location at = {w->file, (*w->line)++, 3};
  uint32_t id = bp_add_barrier(w->engine, block, barrier_strengths[which],
                               barrier_primitives[which], false, at);
  bp_set_event_text(w->engine, id, at, "  ", at, (bp_location){w->file, at.line, 16});
  w->events++;
}

/* Functions come in partners, as in a ring, a flag or a seqlock: a writer
 * (x; wmb; y) and its reader (y; rmb; x), Dekker's two sides (x; mb; y and
 * y; mb; x). Some start by testing a global flag, some update plain
 * statistics, some have the pattern on one arm of an if. */
static void build_function(writer *w, size_t module, size_t index) {
  enum { WRITER, READER, DEKKER0, DEKKER1 };
  static const unsigned roles[] = {WRITER, READER, DEKKER0, DEKKER1, WRITER, READER};
  static const unsigned needs[] = {2, 1, 0, 0}; /* barrier_strengths index */
  unsigned role = roles[index % 6];
  unsigned x = role >= DEKKER0 ? 2 : index < 4 ? 0 : 4, y = x + 1;
  if (role == READER || role == DEKKER1) {
    unsigned swap = x;
    x = y;
    y = swap;
  }
  bp_access_kind first = role == READER ? BP_ACCESS_LOAD : BP_ACCESS_STORE;
  bp_access_kind second = role == WRITER ? BP_ACCESS_STORE : BP_ACCESS_LOAD;

  char name[48];
  snprintf(name, sizeof name, "m%zu_f%zu", module, index);
  bp_function_begin(w->engine, name, (bp_location){w->file, (*w->line)++, 1});
  bool branch = rng_percent(w->r, 30);
  uint32_t entry = bp_add_block(w->engine);
  uint32_t then = branch ? bp_add_block(w->engine) : entry;
  uint32_t join = branch ? bp_add_block(w->engine) : entry;
  if (branch) {
    bp_add_edge(w->engine, entry, then);
    bp_add_edge(w->engine, entry, join);
    bp_add_edge(w->engine, then, join);
  }
  if (rng_percent(w->r, GLOBAL_PERCENT))
    record_access(w, entry, global_flag(w->engine, w->r), BP_ACCESS_LOAD);
  unsigned extra = rng_between(w->r, 0, 2); /* more payload of the message */
  for (unsigned e = 0; e < extra && role == WRITER; e++)
    record_access(w, then, object(w->engine, module, 6), BP_ACCESS_STORE);
  record_access(w, then, object(w->engine, module, x), first);
  barrier(w, then, needs[role]);
  record_access(w, then, object(w->engine, module, y), second);
  for (unsigned e = 0; e < extra && role == READER; e++)
    record_access(w, then, object(w->engine, module, 6), BP_ACCESS_LOAD);
  if (rng_percent(w->r, 50))
    record_access(w, join, object(w->engine, module, 7), BP_ACCESS_STORE); /* statistics */
  bp_function_end(w->engine);
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
    writer w = {engine, &r, file, &lines[module % FILES], 0};
    for (size_t f = 0; f < FUNCTIONS_PER_MODULE && events < sites; f++, functions++) {
      w.events = 0;
      build_function(&w, module, f);
      events += w.events;
    }
    module++;
  }
  shape->functions = functions;
  shape->objects = 0;
  while (bp_object_display(engine, (uint32_t)shape->objects)[0])
    shape->objects++;
}
