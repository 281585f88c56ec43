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

typedef struct {
  bp_vec events;     /* uint32_t event ids, in program order */
  bp_vec successors; /* uint32_t block indexes, local to the function */
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

struct bp_engine {
  bp_interner files, objects, names; /* names: functions and object displays */
  bp_vec object_displays;            /* uint32_t: object id -> names id */
  bp_vec functions;                  /* bp_function */
  bp_vec events;                     /* bp_event */
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
} bp_analysis;

/* Every function's orderings, sorted as `orderings` says. */
void bp_collect_program_orderings(bp_analysis *analysis);
/* The orderings from `first_object` to `second_object` are [*begin, end);
 * returns end. */
size_t bp_orderings_between(const bp_analysis *analysis, uint32_t first_object,
                            uint32_t second_object, size_t *begin);
/* A new zeroed candidate of `rule`, or NULL when the rule is disabled. */
bp_finding *bp_add_candidate(bp_analysis *analysis, bp_rule rule);
/* Marks the barrier events of an ordering's path as paired. */
void bp_mark_paired(bp_analysis *analysis, uint32_t barrier);

/* site.c: the accesses on one side of an event of a function (before it, or
 * after it), following the control flow; adds event ids to `accesses`. */
void bp_accesses_around(const bp_engine *engine, uint32_t event, bool after, bp_vec *accesses);

void bp_check_pairs(bp_analysis *analysis);         /* pairing.c */
void bp_check_chains(bp_analysis *analysis);        /* chains.c */
void bp_check_unpaired(bp_analysis *analysis);      /* unpaired.c: after pairs and chains */
void bp_check_barrier_kinds(bp_analysis *analysis); /* barrier_kind.c */
size_t bp_merge_findings(bp_analysis *analysis, bp_finding **findings); /* findings.c */

#endif
