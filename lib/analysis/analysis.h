/* The analysis of one run, the second stage of the pipeline: the windows
 * and orderings of every function, the locks held, the threads started, the
 * evidence of concurrency and the pairs of barriers. Rules read it and add
 * candidate findings through its sink (candidates.c); nothing here calls a
 * rule or the findings stage. */
#ifndef BARRIERPAIR_ANALYSIS_H
#define BARRIERPAIR_ANALYSIS_H

#include "internal.h"

/* Two accesses of one function in program order and what orders them. */
typedef struct {
  uint32_t function;
  uint32_t first, second; /* events */
  uint32_t first_object, second_object;
  bp_access_kind first_kind, second_kind;
  unsigned strength;
  uint32_t barrier;
  /* the accesses' instance flags, kept here so that the cycle search does
   * not load every event it tries: BP_ACCESS_UNPUBLISHED, BP_ACCESS_THREAD_OWN,
   * BP_ACCESS_BITS (it reads or changes only some bits of its object) */
  unsigned char first_flags, second_flags;
  /* ordered only by plain accesses to _Atomic objects, sequentially
   * consistent by the language's default: enough for this side, but no
   * claim that anybody made (mimalloc's `segment->thread_id == 0`) */
  bool by_default;
  /* ordered only by a kernel unlock followed by a lock: a full barrier
   * (LKMM), but the locks are there to exclude, not to order for another
   * CPU; no claim either (`kfree_rcu_shrink_scan()`'s count) */
  bool by_locks;
  /* its accesses reach instances that go together (ordering.c): a partner
   * that reaches one may reach the other; else it pairs with nothing */
  bool instances_go_together;
} bp_ordering;
enum { BP_ACCESS_UNPUBLISHED = 1, BP_ACCESS_THREAD_OWN = 2, BP_ACCESS_BITS = 4 };

/* calls.c: per event, a call of a function that the program holds and that
 * orders (a barrier or an ordering atomic, itself or through its calls). */
bool *bp_find_ordering_calls(const bp_engine *engine);

/* paths.c: within one function, whether every way on from event `from`
 * that ends meets event `to`; whether `event`'s block ends in the
 * test that sends a loop round again. */
bool bp_always_reaches(const bp_engine *engine, uint32_t from, uint32_t to);
/* bp_always_reaches for many `from` and one `to`: the blocks from whose
 * start every way meets `to`, worked out once. */
typedef struct {
  const bp_function *function;
  size_t block, index; /* where `to` is */
  bool *meets;         /* per block; NULL where `to` is in no function */
} bp_reach_target;
bool bp_reach_target_init(const bp_engine *engine, uint32_t to, bp_reach_target *target);
bool bp_reaches_target(const bp_engine *engine, const bp_reach_target *target, uint32_t from);
void bp_reach_target_free(bp_reach_target *target);
bool bp_decides_next_round(const bp_engine *engine, uint32_t event);
/* A function's blocks' predecessors, for walks back along its edges (loop
 * edges too): block b's are blocks[first[b]] up to blocks[first[b + 1]]. */
typedef struct {
  uint32_t *first, *blocks;
} bp_predecessors;
void bp_predecessors_init(const bp_function *function, bp_predecessors *predecessors);
void bp_predecessors_free(bp_predecessors *predecessors);
/* Within one function, whether every way from event `from` to event `to`
 * passes event `via` (true too where no way leads there). */
bool bp_every_way_passes(const bp_engine *engine, uint32_t from, uint32_t via, uint32_t to);

/* ordering.c: every pair of accesses of one function to two objects, with
 * the weakest ordering over all paths between them; `ordering_calls` (per
 * event, or NULL) are the calls whose order is not known. */
void bp_collect_orderings(const bp_engine *engine, const bool *ordering_calls, uint32_t function,
                          bp_vec *orderings);

/* site.c: the accesses on one side of an event of a function (before it, or
 * after it), following the control flow; adds event ids to `accesses`. */
void bp_accesses_around(const bp_engine *engine, uint32_t event, bool after, bp_vec *accesses);
/* The same, with the calls of functions whose code is not lowered there
 * (BP_EVENT_CALL), which may access memory of their own. */
void bp_events_around(const bp_engine *engine, uint32_t event, bool after, bp_vec *events);

/* Two orderings that mirror each other with a barrier on each side:
 * `cpu0` orders X before Y, `cpu1` Y before X (pairs.c). */
typedef struct {
  size_t cpu0, cpu1; /* indexes into bp_analysis.orderings */
  int scenario;      /* with cpu0 as CPU 0 */
} bp_barrier_pair;

/* One run of the analysis: every rule reads the orderings and adds
 * candidate findings; the findings stage merges and sorts them. */
typedef struct {
  const bp_engine *engine;
  const bp_options *options;
  bp_vec orderings;       /* bp_ordering, sorted by (first_object, second_object, function, ...) */
  bp_vec barrier_pairs;   /* bp_barrier_pair, in the order bp_pair_barriers found them */
  bp_vec candidates;      /* bp_finding, one per rule and place (candidates.c) */
  bp_vec merged_pairings; /* uint32_t per candidate: partners of candidates merged into it */
  struct bp_candidate_index *candidate_index; /* candidates.c */
  bool *paired;                  /* per event: a barrier that some pairing or cycle uses */
  bool *ordering_calls;          /* calls.c: per event, a call of a function that orders */
  struct bp_store_index *stores; /* pairs.c */
  uint32_t *held; /* locks.c: per event, BP_HELD_MAX locks held there (BP_NO_OBJECT: none) */
  bp_vec *spawned, *joined; /* threads.c: per function, the names of the threads it starts, joins */
  uint32_t *after_spawn;    /* per event, bit i: it can run after the start of thread i */
  uint32_t *before_join;    /* per event, bit i: it can run before (or without) joining thread i */
  struct bp_concurrency *concurrency; /* concurrency.c */
  bool *counters;                     /* counters.c: per object */
  bool *reference_counts;             /* counters.c: per object */
} bp_analysis;

/* analysis.c: sets up a run: the threads, the concurrency evidence, the
 * orderings of every function that may run concurrently, the locks held at
 * each access; bp_analysis_end frees it all but the candidates. */
void bp_analysis_begin(bp_analysis *analysis, const bp_engine *engine, const bp_options *options);
void bp_analysis_end(bp_analysis *analysis);
/* Marks the barrier events of an ordering's path as paired. */
void bp_mark_paired(bp_analysis *analysis, uint32_t barrier);
/* The whole program is analysed: unpaired-barrier runs only then, so a
 * name missing from the program is missing, not in another file. */
bool bp_whole_program(const bp_analysis *analysis);
/* Whether the rules report a pairing of `scenario`: scenario 0 (IRIW) only
 * with --beta. Its pairings are still found, so the barriers they use are
 * paired. */
bool bp_scenario_reported(const bp_analysis *analysis, int scenario);

/* ordering.c: the orderings of every function that may run concurrently,
 * sorted as `orderings` says; then those from `first_object` to
 * `second_object` are [*begin, end), and the call returns end. */
void bp_collect_program_orderings(bp_analysis *analysis);
size_t bp_orderings_between(const bp_analysis *analysis, uint32_t first_object,
                            uint32_t second_object, size_t *begin);

/* candidates.c: the sink of the rules. A new zeroed candidate of `rule`, or
 * NULL when the rule is disabled; the rule fills it before it adds the next
 * one, and it is merged with the candidate of the same rule and place then
 * (or when the candidates are next read through bp_settle_candidates or
 * bp_keep_candidates). */
bp_finding *bp_add_candidate(bp_analysis *analysis, bp_rule rule);
void bp_settle_candidates(bp_analysis *analysis);
/* Keeps the candidates from index `first` on for which `keep` says so. */
typedef bool (*bp_candidate_filter)(const bp_analysis *analysis, const bp_finding *candidate,
                                    void *context);
void bp_keep_candidates(bp_analysis *analysis, size_t first, bp_candidate_filter keep,
                        void *context);
/* The order of findings: by place, rule, then what tells apart candidates
 * of one place, whatever the ids (the same program gives the same
 * findings in `check` and `link`). */
int bp_compare_candidates(const bp_analysis *analysis, const bp_finding *a, const bp_finding *b);
void bp_free_candidate_index(bp_analysis *analysis);
/* A stale-annotation candidate for annotation `index` (the rule and the
 * suppressions both report them): `barrier` is the one it stands beside
 * (BP_NO_EVENT: none), `partner` one it names (NULL: none). */
void bp_add_annotation_candidate(bp_analysis *analysis, uint32_t index,
                                 bp_annotation_problem problem, uint32_t barrier,
                                 const bp_side *partner, uint32_t other_partners);

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
/* f and g both store `object` and one of them also reads it plainly: a
 * single-writer design, whose writers something else serialises. */
bool bp_serialised_writers(const bp_analysis *analysis, uint32_t f, uint32_t g, uint32_t object);

/* pairs.c: orderings that mirror each other across functions. After
 * bp_analysis_begin and before the rules, bp_pair_barriers finds every pair
 * of barriered sides that can meet, records it in `barrier_pairs` and
 * makes its two functions partners. */
void bp_pair_barriers(bp_analysis *analysis);
void bp_free_pairs(bp_analysis *analysis);
/* The pair's objects, accesses and functions can meet at all. */
bool bp_can_pair(const bp_analysis *analysis, const bp_ordering *cpu0, const bp_ordering *cpu1);
/* pairs.c: two accesses to one type's field, each within a container of
 * its own (`sk->sk_refcnt` and `sk->sk_rmem_alloc`, both `atomic_t.counter`
 * by type), or one path from containers of two types: two memories. */
bool bp_distinct_instances(const bp_engine *engine, uint32_t a, uint32_t b);
/* Both accesses start from structures the code says are parts of two
 * different outer types (bp_set_access_subtype): a TCP socket's `sk` and a
 * UNIX socket's. */
bool bp_disjoint_subtypes(const bp_engine *engine, uint32_t a, uint32_t b);
/* pairs.c: one of the accesses is part of a lazy set-up of a flag
 * (bp_set_set_up_flag) and the other runs after a call that left that
 * flag set up (bp_set_after_set_up): the set-up happened before it. */
bool bp_set_up_before(const bp_engine *engine, uint32_t a, uint32_t b);
/* pairs.c: in a row with a third CPU's store, every store of the objects
 * both sides only load, by a third function, holds a lock that `partner`
 * holds at both its accesses (and there is such a store): the lock's
 * release and acquire carry the third CPU's store to the partner and on,
 * as one writer's would (ISA2+release+acqrel+acquire). */
bool bp_third_writers_serialised(const bp_analysis *analysis, const bp_ordering *side,
                                 const bp_ordering *partner);
/* Whether accesses `a` and `b` (of two functions) of `object` may reach
 * one instance of it: a variable's object, or a field named by its type
 * that both reach from containers of one type (bp_set_access_root; a
 * pointer to a T may point to the global g of type T). Two functions
 * reaching a `list_head.next` embedded in a `struct sock` and in a
 * `struct kprobe` share no list. */
bool bp_may_reach_one_instance(const bp_engine *engine, uint32_t object, uint32_t a, uint32_t b);
/* `access` loads a node of a list its function took whole from a head
 * (unpublished, reached through a pointer read from that head), and the
 * other side of a link orders it with `other_object`, not that head: the
 * node was not handed over through the other side's object, so the two
 * are not one instance. */
bool bp_taken_elsewhere(const bp_engine *engine, uint32_t access, uint32_t other_object);
/* Accesses `a` and `b` to one object (each with the other object of its
 * ordering) can reach one instance: neither is memory just allocated that
 * the other reaches through another pointer, they are not two threads' own
 * instances, and neither is a load testing bits the other, a store, leaves
 * alone. */
bool bp_accesses_meet(const bp_engine *engine, uint32_t a, uint32_t a_other, uint32_t b,
                      uint32_t b_other);
/* The scenario of the pair, with `cpu0` as CPU 0. */
int bp_pair_scenario(const bp_ordering *cpu0, const bp_ordering *cpu1);
/* pairs.c: what a side needs of its barrier in `scenario`, with `side` as
 * CPU 0. Release and acquire (BP_STRENGTH_LOCAL) are enough where at most
 * one of the pair's two links is not a reads-from. */
bool bp_local_order_suffices(const bp_engine *engine, const bp_ordering *side,
                             const bp_ordering *partner);
/* A dependency orders its load before what depends on it, but is not
 * cumulative (LKMM): where a third function stores the side's first object
 * (the article's CPU 2 column: WRC, IRIW, RWC), the value the side read
 * need not reach the partner before the side's second access does, so the
 * side needs a real barrier (WRC+data+addr is allowed, WRC+release+rmb
 * is not). */
bool bp_dependency_too_weak(const bp_engine *engine, const bp_ordering *side, int scenario);
/* The side's order is as strong as its column of `scenario` asks. */
bool bp_keeps_its_half(const bp_engine *engine, const bp_ordering *side, const bp_ordering *partner,
                       int scenario);
/* A row where a third CPU's store takes part (WRC, IRIW, RWC) is what a
 * side means only where it writes a fence between its two accesses, or its
 * order is as strong as the row asks: a side that orders only locally
 * (a dependency, an acquire load, rcu_dereference(), a compiler barrier)
 * means message passing with its own writers, and two such sides are in one
 * row only because objects named by their type have many writers. Such a
 * side asks nothing of its partner; a pair of two such sides is no pair.
 * Any row of two CPUs is meant. */
bool bp_means_its_half(const bp_engine *engine, const bp_ordering *side, const bp_ordering *partner,
                       int scenario);
/* pairs.c: the ordering is somebody's claim of an order: not only a
 * language's default order (by_default) nor locks' (by_locks). */
bool bp_claimed(const bp_ordering *ordering);
/* Calls `visit` for every two orderings of different functions that
 * mirror each other, each unordered pair once. */
typedef void (*bp_mirror_visitor)(bp_analysis *analysis, const bp_ordering *cpu0,
                                  const bp_ordering *cpu1);
void bp_for_each_mirror(bp_analysis *analysis, bp_mirror_visitor visit);

/* counters.c: the objects every access of the program adds to, subtracts
 * from or reads with relaxed atomics, no order is derived from them; and
 * reference counts (an object with a put, bp_set_reference_put). */
void bp_find_counters(bp_analysis *analysis);
bool bp_counter(const bp_analysis *analysis, uint32_t object);
bool bp_reference_count(const bp_analysis *analysis, uint32_t object);
/* `object` is ordered by a fence written in the code: not a counter. */
void bp_uncount(bp_analysis *analysis, uint32_t object);

#endif
