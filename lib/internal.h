/* The engine's own data; front ends see only barrierpair.h. */
#ifndef BARRIERPAIR_INTERNAL_H
#define BARRIERPAIR_INTERNAL_H

#include "barrierpair/barrierpair.h"

/* For qsort comparators: returns from the comparator when x and y differ. */
#define BP_COMPARE(x, y)                                                                           \
  if ((x) != (y))                                                                                  \
  return (x) < (y) ? -1 : 1

/* A growable array of fixed-size items. */
typedef struct {
  void *items;
  size_t count, capacity, item_size;
} bp_vec;

void bp_vec_init(bp_vec *vec, size_t item_size);
void *bp_vec_push(bp_vec *vec); /* zeroed new item */
void *bp_vec_at(const bp_vec *vec, size_t index);
void bp_vec_free(bp_vec *vec);

/* tables.c: a family of the primitive table. */
typedef struct {
  const char *id;          /* as primitive rows name it: URCU, KERNEL, ... */
  const char *name;        /* as messages name it */
  const char *spelling[3]; /* the fix-it's mb, rmb and wmb */
  const char *marking[2];  /* BP_MARKING's load and store formats; NULL: liburcu's */
} bp_family_row;

const bp_family_row *bp_family_get(bp_family family); /* NULL when there is none */
size_t bp_builtin_primitive_count(void);

/* Rows primitive files add (primitive_file.c); the strings are copied. A file
 * with an error is undone by truncating the table back to its counts before. */
int bp_table_add_primitive(const char *name, bp_family family, bp_op op, bp_order order);
bp_family bp_table_add_family(const char *id, const char *name, const char *const spelling[3]);
void bp_table_truncate(size_t primitive_count, size_t family_count);
/* Sets a family's markings; false when the family has other ones already. */
bool bp_table_set_marking(bp_family family, const char *load, const char *store);

/* Strings interned to dense ids. */
typedef struct {
  bp_vec strings;  /* char * */
  uint32_t *slots; /* open addressing: id + 1, 0 = empty */
  size_t slot_count;
} bp_interner;

void bp_interner_init(bp_interner *interner);
uint32_t bp_interner_add(bp_interner *interner, const char *string);
const char *bp_interner_get(const bp_interner *interner, uint32_t id);
void bp_interner_free(bp_interner *interner);

/* A successor reached by a loop's back edge (bp_add_loop_edge). */
#define BP_LOOP_EDGE 0x80000000u

typedef struct {
  bp_vec events;     /* uint32_t event ids, in program order */
  bp_vec successors; /* uint32_t block indexes, local to the function, maybe | BP_LOOP_EDGE */
} bp_block;

typedef struct {
  uint32_t name; /* interned */
  bp_location location;
  bp_vec blocks; /* bp_block */
} bp_function;

/* Two accesses of one function in program order and what orders them. */
typedef struct {
  uint32_t function;
  uint32_t first, second; /* events */
  uint32_t first_object, second_object;
  bp_access_kind first_kind, second_kind;
  unsigned strength;
  uint32_t barrier;
} bp_ordering;

/* An annotation as the engine keeps it: its strings are names ids. */
typedef struct {
  bp_annotation_kind kind;
  bool macro;
  bp_location location;
  uint32_t first_line, last_line, next_code_line;
  uint32_t name, reason;
  uint32_t event;
} bp_annotation_record;

struct bp_engine {
  bp_interner files, objects, names; /* names: functions, object displays, annotation words */
  bp_vec object_displays;            /* uint32_t: object id -> names id */
  bp_vec functions;                  /* bp_function */
  bp_vec events;                     /* bp_event */
  bp_vec annotations;                /* bp_annotation_record */
  bool building;
};

/* ordering.c: every pair of accesses of one function to two objects, with
 * the weakest ordering over all paths between them. */
void bp_collect_orderings(const bp_engine *engine, uint32_t function, bp_vec *orderings);

/* One run of the analysis: every check reads the orderings and adds
 * candidate findings; findings.c merges and sorts them. */
typedef struct {
  const bp_engine *engine;
  const bp_options *options;
  bp_vec orderings;  /* bp_ordering, sorted by (first_object, second_object, function, ...) */
  bp_vec candidates; /* bp_finding */
  bool *paired;      /* per event: a barrier that some pairing or cycle uses */
  struct bp_marking_index *marking; /* marking.c */
  uint32_t *held; /* locks.c: per event, BP_HELD_MAX locks held there (BP_NO_OBJECT: none) */
  bp_vec *spawned, *joined; /* threads.c: per function, the names of the threads it starts, joins */
  uint32_t *after_spawn;    /* per event, bit i: it can run after the start of thread i */
  uint32_t *before_join;    /* per event, bit i: it can run before (or without) joining thread i */
  struct bp_concurrency *concurrency; /* concurrency.c */
} bp_analysis;

/* Every function's orderings, sorted as `orderings` says. */
void bp_collect_program_orderings(bp_analysis *analysis);
/* Sets up a run: the orderings of every function, the locks held at each
 * access, the index missing-access-once reads; bp_analysis_end frees it all
 * but the candidates. */
void bp_analysis_begin(bp_analysis *analysis, const bp_engine *engine, const bp_options *options);
void bp_analysis_end(bp_analysis *analysis);

/* The orderings from `first_object` to `second_object` are [*begin, end);
 * returns end. */
size_t bp_orderings_between(const bp_analysis *analysis, uint32_t first_object,
                            uint32_t second_object, size_t *begin);
/* A new zeroed candidate of `rule`, or NULL when the rule is disabled. */
bp_finding *bp_add_candidate(bp_analysis *analysis, bp_rule rule);
/* The family of the primitive of `event` (liburcu when none): how fix-its
 * spell what they add. */
bp_family bp_event_family(const bp_engine *engine, uint32_t event);
/* Marks the barrier events of an ordering's path as paired. */
void bp_mark_paired(bp_analysis *analysis, uint32_t barrier);

/* site.c: the accesses on one side of an event of a function (before it, or
 * after it), following the control flow; adds event ids to `accesses`. */
void bp_accesses_around(const bp_engine *engine, uint32_t event, bool after, bp_vec *accesses);

/* annotation_checks.c: declared pairings count before unpaired-barrier
 * runs; the annotations are checked after every other check; suppressions
 * drop candidates last and report the ones that silenced nothing. */
void bp_honour_declared_pairings(bp_analysis *analysis);
void bp_check_annotations(bp_analysis *analysis);
void bp_apply_suppressions(bp_analysis *analysis);

/* The whole program is analysed: unpaired-barrier runs only then, so a
 * name missing from the program is missing, not in another file. */
bool bp_whole_program(const bp_analysis *analysis);

/* message.c: a growing malloc()ed string, for the texts of findings. */
typedef struct {
  char *text;
  size_t length, capacity;
} bp_text;

void bp_text_append(bp_text *buffer, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* 'cmm_smp_rmb()', or what stands for a barrier with no primitive. */
void bp_text_append_barrier(bp_text *buffer, const bp_engine *engine, uint32_t event);

char *bp_annotation_message(const bp_engine *engine,
                            const bp_finding *finding); /* annotation_message.c */

/* intern.c: the id of `string`, or UINT32_MAX when it was never added. */
uint32_t bp_interner_find(const bp_interner *interner, const char *string);

/* locks.c: the locks held at each access, and whether one lock is held at
 * all of `events`. */
#define BP_HELD_MAX 2
void bp_compute_held_locks(bp_analysis *analysis);
bool bp_hold_common_lock(const bp_analysis *analysis, const uint32_t *events, size_t count);

/* threads.c: whether `event` can only run before its function starts a
 * thread running function `thread`, or only after it joined one. */
void bp_compute_threads(bp_analysis *analysis);
void bp_free_threads(bp_analysis *analysis);
bool bp_before_thread(const bp_analysis *analysis, uint32_t event, uint32_t thread);
bool bp_after_thread(const bp_analysis *analysis, uint32_t event, uint32_t thread);
/* Whether `event`'s function starts threads and `event` runs before them all. */
bool bp_before_all_threads(const bp_analysis *analysis, uint32_t event);

/* concurrency.c: the evidence that two functions run at the same time. */
void bp_compute_concurrency(bp_analysis *analysis); /* after bp_compute_threads */
void bp_free_concurrency(bp_analysis *analysis);
/* A barrier, a marked access or a thread start naming it. */
bool bp_may_run_concurrently(const bp_analysis *analysis, uint32_t function);
/* Both are entries of threads the program starts. */
bool bp_thread_entries(const bp_analysis *analysis, uint32_t f, uint32_t g);
/* f and g pair barriers with barriers somewhere. */
void bp_add_partners(bp_analysis *analysis, uint32_t f, uint32_t g);
bool bp_are_partners(bp_analysis *analysis, uint32_t f, uint32_t g);
/* `function` loads `object` with an unmarked access somewhere. */
bool bp_loads_plainly(const bp_analysis *analysis, uint32_t function, uint32_t object);
/* f and g both store `object` and one of them also reads it plainly: a
 * single-writer design, whose writers something else serialises. */
bool bp_serialised_writers(const bp_analysis *analysis, uint32_t f, uint32_t g, uint32_t object);

void bp_check_pairs(bp_analysis *analysis); /* pairing.c */
/* marking.c: missing-access-once for one pair of orderings, `cpu0` being
 * CPU 0 of `scenario`; the index is built before the pairs are checked. */
void bp_index_marking(bp_analysis *analysis);
void bp_check_marking(bp_analysis *analysis, const bp_ordering *cpu0, const bp_ordering *cpu1,
                      int scenario);
void bp_free_marking(bp_analysis *analysis);
void bp_check_chains(bp_analysis *analysis);        /* chains.c */
void bp_check_unpaired(bp_analysis *analysis);      /* unpaired.c: after pairs and chains */
void bp_check_barrier_kinds(bp_analysis *analysis); /* barrier_kind.c */
size_t bp_merge_findings(bp_analysis *analysis, bp_finding **findings); /* findings.c */

#endif
