/* barrierpair engine: the one interface between the front ends (Clang plugin,
 * command-line driver) and the analysis. C11, no LLVM dependency.
 *
 * A front end lowers each function into blocks of events (shared-memory
 * accesses and barriers) joined by control-flow edges, then asks the engine
 * for findings. The engine names events by dense ids, so a front end can keep
 * its own per-event data (source ranges for fix-its) in an array.
 */
#ifndef BARRIERPAIR_BARRIERPAIR_H
#define BARRIERPAIR_BARRIERPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The primitive table (primitives.def) ---- */

typedef enum {
#define BP_FAMILY(id, name, mb, rmb, wmb) BP_FAMILY_##id,
#include "barrierpair/primitives.def"
#undef BP_FAMILY
  BP_FAMILY_COUNT,
  /* Families of primitive files follow BP_FAMILY_COUNT; this keeps them in
   * the enumeration's range for C++ too. */
  BP_FAMILY_LAST = 0x7fffffff
} bp_family;

typedef enum { BP_ACCESS_LOAD, BP_ACCESS_STORE } bp_access_kind;

typedef enum {
  BP_OP_FENCE,
  BP_OP_LOAD,
  BP_OP_STORE,
  BP_OP_RMW,
  BP_OP_ACCESS,
  BP_OP_LOCK,   /* takes the lock its argument points to */
  BP_OP_UNLOCK, /* releases it */
  BP_OP_SPAWN,  /* starts a thread running the function its arguments name */
  BP_OP_JOIN,   /* waits for the thread its first argument names to end */
  /* Read-modify-writes that change only some bits of their object, given
   * by their second argument: */
  BP_OP_OR,  /* sets its bits */
  BP_OP_AND, /* clears the bits it does not have */
  BP_OP_XOR, /* flips its bits */
  BP_OP_BIT, /* sets, clears or flips the bit it numbers */
  /* Locks again: */
  BP_OP_READ_LOCK, /* takes the lock its argument points to as one of its readers */
  BP_OP_LOCK_HELD, /* states that the lock its argument points to is held */
  /* A race the code says it means (the kernel's data_race()): */
  BP_OP_EXCUSE, /* what it wraps needs no marking and takes part in no ordering */
  /* Locks that may fail, taken where the call's value says so: */
  BP_OP_TRYLOCK,      /* where it returns non-zero (the kernel's spin_trylock()) */
  BP_OP_TRYLOCK_ZERO, /* where it returns zero (POSIX's pthread_mutex_trylock()) */
  /* and as one of the lock's readers: */
  BP_OP_READ_TRYLOCK,      /* where it returns non-zero (down_read_trylock()) */
  BP_OP_READ_TRYLOCK_ZERO, /* where it returns zero (pthread_rwlock_tryrdlock()) */
  /* Accesses that the kernel's race detector (KCSAN) takes as marked: */
  BP_OP_MARKED_BEGIN, /* those that follow, until a MARKED_END (kcsan_nestable_atomic_begin()) */
  BP_OP_MARKED_END,   /* ends what a MARKED_BEGIN began */
  BP_OP_MARKED_NEXT,  /* those that follow, where its argument is not 0; 0 ends them
                       * (kcsan_atomic_next(), a seqcount's read section) */
  BP_OP_SELF,         /* returns the running thread's own object (the kernel's `current`) */
  BP_OP_INIT          /* sets up the lock its first argument points to: what holds it is
                       * nobody else's yet */
} bp_op;

/* RMW, OR, AND, XOR and BIT: a load and a store of one object, as one
 * operation. */
bool bp_op_is_rmw(bp_op op);
/* LOCK, READ_LOCK, UNLOCK, LOCK_HELD and the trylocks: what a lock event is made of. */
bool bp_op_is_lock(bp_op op);
/* TRYLOCK and its kin: a lock taken only where the call's value says so. */
bool bp_op_is_trylock(bp_op op);
/* A lock taken as one of its readers (READ_LOCK, READ_TRYLOCK...). */
bool bp_op_is_reader_lock(bp_op op);

typedef enum {
  BP_ORDER_COMPILER,
  BP_ORDER_RELAXED,
  BP_ORDER_RMB,
  BP_ORDER_WMB,
  BP_ORDER_MB,
  BP_ORDER_CONSUME,
  BP_ORDER_ACQUIRE,
  BP_ORDER_RELEASE,
  BP_ORDER_ACQ_REL,
  BP_ORDER_SEQ_CST,
  BP_ORDER_PUBLISH,
  BP_ORDER_FROM_ARG,
  /* a full barrier on every thread that runs (the membarrier() system
   * call, a signal every reader handles): against it, another thread's
   * compiler barrier orders as a full one */
  BP_ORDER_MEMBARRIER,
  /* a FENCE that orders nothing alone: it makes the lock it follows and an
   * earlier unlock a full barrier (the kernel's smp_mb__after_unlock_lock(),
   * bp_set_after_unlock_lock) */
  BP_ORDER_UNLOCK_LOCK
} bp_order;

typedef struct {
  const char *name;
  bp_family family;
  bp_op op;
  bp_order order;
} bp_primitive;

/* Index of the primitive called `name` (not NUL-terminated: `len` bytes),
 * or -1. The built-in primitives come first, in primitives.def's order, then
 * those of primitive files in the order they were loaded. */
int bp_primitive_find(const char *name, size_t len);
const bp_primitive *bp_primitive_get(int index);
size_t bp_primitive_count(void);
/* A compare-and-swap that returns whether it stored (C11's and GCC's
 * compare_exchange, __sync_bool_compare_and_swap, Concurrency Kit's
 * ck_pr_cas_*, DPDK's cmpset), not the old value (uatomic_cmpxchg()): where
 * its result is tested, the branch where it failed made no store. */
bool bp_primitive_reports_store(int index);
/* A read-modify-write that writes its argument and returns the old value
 * (uatomic_xchg(), C11's and GCC's exchange, Concurrency Kit's
 * ck_pr_fas_*), not a compare-and-swap. */
bool bp_primitive_exchanges(int index);

/* Families: the built-in ones (bp_family's enumerators), then those primitive
 * files declare, numbered from BP_FAMILY_COUNT on. */
size_t bp_family_count(void);
/* The group of BP_EXCLUSIVE rows (primitives.def, primitive files) that
 * `function` is in: functions a library's contract runs under mutual
 * exclusion with each other on one object. NULL when it is in none. */
const char *bp_exclusive_group(const char *function);
/* A library's contract with its callers (BP_CONTRACT rows of primitives.def
 * and primitive files): what `function` orders between its own accesses
 * and its caller's before the call (ENTRY) or after it (EXIT), or between
 * its caller's before and after the call (BARRIER: it is a barrier itself).
 * `order` is BP_ORDER_MB, RMB, WMB, RELEASE (ENTRY only) or ACQUIRE (EXIT
 * only). */
typedef enum { BP_CONTRACT_ENTRY, BP_CONTRACT_EXIT, BP_CONTRACT_BARRIER } bp_contract_side;
typedef struct {
  const char *function;
  bp_contract_side side;
  bp_order order;
} bp_contract;
size_t bp_contract_count(void);
const bp_contract *bp_contract_get(size_t index);
/* Whether some contract names `function` (`len` bytes). */
bool bp_has_contract(const char *function, size_t len);
/* The contract of `function` (`len` bytes) at `side`, or NULL. */
const bp_contract *bp_contract_find(const char *function, size_t len, bp_contract_side side);
/* The family whose identifier (URCU, KERNEL, ...) is `id` (`len` bytes), or -1. */
int bp_family_find(const char *id, size_t len);
const char *bp_family_id(bp_family family);
const char *bp_family_name(bp_family family);

/* ---- Primitive files: a project's own names for barriers and accesses ----
 *
 * A primitive file has the form of primitives.def: BP_FAMILY(...) and
 * BP_PRIMITIVE(...) declarations, `#`, `//` and block comments
 * (docs/primitives.md). Loading one adds its rows to the table, all of them
 * or, when the file has an error, none. Load every file before lowering
 * starts: afterwards the table is only read, and threads may share it. */

typedef struct {
  uint32_t line, column; /* from 1; line 0: the file as a whole (cannot be read) */
  char message[256];
} bp_primitive_error;

/* Adds the declarations of `text` (`length` bytes). Returns the number of
 * errors and stores the first `max_errors` of them. */
size_t bp_primitives_add_text(const char *text, size_t length, bp_primitive_error *errors,
                              size_t max_errors);
/* The same for the file at `path`. */
size_t bp_primitives_load(const char *path, bp_primitive_error *errors, size_t max_errors);
/* Forgets every loaded row: the table is the built-in one again. */
void bp_primitives_reset(void);

/* C11 memory_order values as <stdatomic.h> and __ATOMIC_* number them. */
bp_order bp_order_from_c11(int memory_order);

/* ---- Barrier strength: what the barriers on a path between two accesses
 * order. rmb and wmb are not transitive, so a full barrier is its own bit. */
enum {
  BP_STRENGTH_NONE = 0,
  BP_STRENGTH_LOADS = 1,  /* rmb: earlier loads before later loads */
  BP_STRENGTH_STORES = 2, /* wmb: earlier stores before later stores */
  BP_STRENGTH_FULL = 7,   /* mb: everything, transitively */
  /* The implicit barriers of acquire and release operations order one
   * access only, as C11 and the Linux-kernel memory model have them: a
   * release orders everything before it before its own store, an acquire
   * its own load before everything after it, and a consume (rcu_dereference)
   * its own load before the accesses made through the pointer it returns.
   * A barrier event carries one of these with BP_STRENGTH_FULL. */
  BP_STRENGTH_RELEASE = 8,
  BP_STRENGTH_ACQUIRE = 16,
  BP_STRENGTH_CONSUME = 32,
  /* What an acquire or a release orders: loads and stores both ways, but
   * only for the threads that read from each other, not cumulatively as a
   * full barrier does: enough where at most one link of a pair's or a
   * cycle's communication is not a reads-from (rules/missing_barrier.c). */
  BP_STRENGTH_LOCAL = 64,
  /* A membarrier (BP_ORDER_MEMBARRIER), with BP_STRENGTH_FULL: it makes a
   * partner's compiler barrier a full one for the pairing (liburcu's
   * "slave barriers are only guaranteed to be ordered wrt master
   * barriers"). */
  BP_STRENGTH_MEMBARRIER = 128
};
/* The part of a barrier event's strength that orders memory. */
#define BP_STRENGTH_ORDER(strength) ((strength)&BP_STRENGTH_FULL)

/* The strength a fence of this order gives (0 for compiler-only). */
unsigned bp_order_strength(bp_order order);
/* Spelling of the barrier that gives `strength` in `family`. */
const char *bp_barrier_spelling(bp_family family, unsigned strength);
/* The printf format that marks a plain access in `family`: "%s" is the
 * lvalue, and for a store a second "%s" the value. */
const char *bp_marking_spelling(bp_family family, bp_access_kind kind);

/* ---- The scenario table (scenarios.def) ---- */

typedef struct {
  int number;
  const char *name;    /* the article's name, or "" */
  char barrier[2];     /* weakest barrier per CPU: 'r', 'w' or 'm' */
  const char *code[4]; /* CPU 0..3 as the article writes them */
  const char *bug_on;  /* the forbidden outcome */
  const char *story;   /* the forbidden outcome in words */
} bp_scenario;

#define BP_SCENARIO_COUNT 16

const bp_scenario *bp_scenario_get(int number);
/* 8*[X0 is a store] + 4*[Y0 is a store] + 2*[Y1 is a store] + [X1 is a store] */
int bp_scenario_number(bool x0_store, bool y0_store, bool y1_store, bool x1_store);
/* The same scenario with CPU 0 and CPU 1 (and x and y) swapped. */
int bp_scenario_mirror(int number);
/* The strength CPU `cpu` (0 or 1) of `number` needs. */
unsigned bp_scenario_need(int number, int cpu);
/* Whether the forbidden outcome of `number` has CPU `cpu`'s first access,
 * a load, read the value another CPU stored (r1 == 1, r3 == 1). */
bool bp_scenario_reads_new_first(int number, int cpu);
/* Whether a third CPU's store takes part in `number` (the article's CPU 2
 * and CPU 3 columns: WRC, IRIW, RWC). */
bool bp_scenario_third_cpu(int number);
/* Whether the two CPUs of `number` see its forbidden outcome in their own
 * loads: no third CPU's store takes part, and the outcome names no final
 * value of an object both store (`x == 2`, which only a later reader
 * sees). Message passing, Dekker and inverse Dekker (3, 5, 10, 12). */
bool bp_scenario_seen_by_pair(int number);

/* ---- Rules ---- */

typedef enum {
  BP_RULE_MISSING_BARRIER,
  BP_RULE_WEAK_BARRIER,
  BP_RULE_TRANSITIVE_WEAK_BARRIER,
  BP_RULE_UNPAIRED_BARRIER,
  BP_RULE_MISSING_ACCESS_ONCE,
  BP_RULE_STORE_AFTER_PUBLICATION,
  BP_RULE_BROKEN_CONTRACT,  /* a function that does not order what its contract says */
  BP_RULE_STALE_ANNOTATION, /* an annotation that is malformed or does not hold */
  BP_RULE_COUNT
} bp_rule;

const char *bp_rule_name(bp_rule rule);
/* The rule called `name`, or -1. */
int bp_rule_find(const char *name);

/* ---- Building the program ---- */

typedef struct bp_engine bp_engine;

/* A place in a source file, as the file is written (not #line-adjusted);
 * lines and columns count from 1, so line 0 means "nowhere". */
typedef struct {
  uint32_t file; /* from bp_intern_file */
  uint32_t line, column;
} bp_location;

#define BP_NO_EVENT UINT32_MAX
#define BP_NO_FUNCTION UINT32_MAX
#define BP_NO_PRIMITIVE (-1)
#define BP_NO_OBJECT UINT32_MAX
/* The most objects an access records as guarding it. */
#define BP_GUARDS_MAX 6

bp_engine *bp_engine_create(void);
void bp_engine_destroy(bp_engine *engine);

uint32_t bp_intern_file(bp_engine *engine, const char *path);
/* A shared object: `key` identifies it (unique per program), `display` is how
 * messages name it. A key "T@I" names instance I of the object T (a field of
 * a global variable, "struct ring.head@ring.head"): the analysis keeps it
 * apart from other instances, unless the program also accesses T itself (a
 * field through a pointer, which may point to any instance). */
uint32_t bp_intern_object(bp_engine *engine, const char *key, const char *display);
#define BP_INSTANCE_SEPARATOR '@'
/* Replaces, in every event, each instance object whose type object the
 * program accesses by that object. bp_analyze does it first. */
void bp_unify_instances(bp_engine *engine);
/* The object a global pointer variable points to (`*q` with q =
 * READ_ONCE(gp), or `*gp`), whose key is "*(" + the pointer's key + ")".
 * bp_resolve_pointees replaces it, in every event, by the one object whose
 * address the program's stores into the pointer write
 * (bp_set_stored_address; `WRITE_ONCE(gp, &x)`); a store of an address it
 * cannot tell, or of two objects' addresses, leaves it as it is. */
uint32_t bp_intern_pointee(bp_engine *engine, const char *pointer_key, const char *pointer_display);
void bp_resolve_pointees(bp_engine *engine);

/* The translation unit the functions begun from now on belong to:
 * "@<main file>#<hash of the command line's macros>" (NULL: none known).
 * Two units of one main file built with other macros (liburcu's flavours,
 * urcu.c built with -DRCU_MB and with -DRCU_SIGNAL) are two builds of one
 * source: a function of one never runs against a function of the other on
 * one object, and the same function of both is two functions. */
void bp_set_unit(bp_engine *engine, const char *identity);
/* Functions are built one at a time, between begin and end. Blocks are
 * numbered from 0 in the order they are added. */
uint32_t bp_function_begin(bp_engine *engine, const char *name, bp_location location);
uint32_t bp_add_block(bp_engine *engine);
void bp_add_edge(bp_engine *engine, uint32_t from_block, uint32_t to_block);
/* An edge back to the head of a loop. Control flows along it, but an order
 * between accesses of two iterations is not counted: retry loops (a seqlock
 * reader, a ring's full check) would otherwise pair one iteration's last
 * access with the next one's first. */
void bp_add_loop_edge(bp_engine *engine, uint32_t from_block, uint32_t to_block);
uint32_t bp_add_access(bp_engine *engine, uint32_t block, uint32_t object, bp_access_kind kind,
                       bool marked, int primitive, bp_location location);
/* Taking (`acquire`) or releasing a lock, named like a shared object. Code
 * that holds one lock on all four accesses of a pairing runs in mutual
 * exclusion with its partner: nothing pairs there. */
uint32_t bp_add_lock(bp_engine *engine, uint32_t block, uint32_t lock, bool acquire, int primitive,
                     bp_location location);
/* Starting a thread that runs the function called `thread`
 * (pthread_create()): what the spawning function did before can only
 * happen before anything the thread does, so it pairs with nothing there. */
uint32_t bp_add_spawn(bp_engine *engine, uint32_t block, const char *thread, int primitive,
                      bp_location location);
/* Waiting for the end of a thread running `thread` (pthread_join()): what
 * the function does only after it, everything the thread did happens
 * before. */
uint32_t bp_add_join(bp_engine *engine, uint32_t block, const char *thread, int primitive,
                     bp_location location);
/* A call of the function called `callee` whose code the front end did not
 * lower here (defined in another file, or past the depth calls are
 * followed). The analysis looks the function up in the program; where it
 * orders (a barrier or an ordering atomic, itself or through its calls),
 * the call ends the windows that reach it: its accesses and the strength of
 * its order are not known here, so nothing past it is claimed. */
uint32_t bp_add_call(bp_engine *engine, uint32_t block, const char *callee, bp_location location);
/* `implicit`: the barrier half of an acquire load or release store. */
uint32_t bp_add_barrier(bp_engine *engine, uint32_t block, unsigned strength, int primitive,
                        bool implicit, bp_location location);
/* A place in `block` that holds no access and orders nothing: the body of
 * a function a library's contract makes a barrier (BP_CONTRACT(f,
 * BARRIER, ...)) whose code lowers to no event at all (its only barrier
 * deleted), so that broken-contract has somewhere to point. */
uint32_t bp_add_place(bp_engine *engine, uint32_t block, bp_location location);
void bp_function_end(bp_engine *engine);
/* The function being built is a helper lowered on its own only to check
 * its library contract (BP_CONTRACT): its code runs where its callers call
 * it, and their lowering holds it there, so on its own it pairs with
 * nothing and races with nothing. */
void bp_set_contract_only(bp_engine *engine);
bool bp_function_contract_only(const bp_engine *engine, uint32_t function);
/* Whether `function` returns only fresh memory (bp_set_returns_fresh). */
bool bp_function_returns_fresh(const bp_engine *engine, uint32_t function);
/* The function being built runs at boot or at exit, when nothing it shares
 * memory with runs (the kernel's `__init` and `__exit` functions): it pairs
 * with nothing and races with nothing. */
void bp_set_boot_only(bp_engine *engine);
/* Contract-only or boot-only: no other function runs at the same time. */
bool bp_function_runs_alone(const bp_engine *engine, uint32_t function);
/* Where the calls of a function are, all of them: it runs under the locks
 * held at every one (its callers' locks are its own). */
typedef enum {
  BP_CALLERS_UNKNOWN,
  /* a `static` function whose address its unit never takes: its unit's
   * call events */
  BP_CALLERS_IN_UNIT,
  /* an external function whose address its unit never takes (an exported
   * one's is: modules call it): the program's call events by its name,
   * unless another unit takes its address (bp_add_address_taken) */
  BP_CALLERS_IN_PROGRAM
} bp_callers;
/* For the function being built. */
void bp_set_callers(bp_engine *engine, bp_callers callers);
bp_callers bp_function_callers(const bp_engine *engine, uint32_t function);
/* The unit takes the address of the external function `function` (a
 * callback, a thread's start): it may run anywhere, under any locks. */
void bp_add_address_taken(bp_engine *engine, const char *function);
/* The index-th of them (site files); NULL past the last. */
const char *bp_address_taken(const bp_engine *engine, size_t index);
/* The unit stores function `function` (its own `static` one of that name,
 * or the program's external one) into the function-pointer field `field`
 * of a structure's initializer ("proto.release_cb" of `struct proto
 * tcp_prot = { .release_cb = tcp_release_cb }`), and takes its address no
 * other way: it runs where code calls through that field (a call event
 * whose callee is the field's name), under the locks held there, unless a
 * unit keeps or hands on the field's value (bp_add_field_escape). */
void bp_add_field_taken(bp_engine *engine, const char *function, const char *field);
/* The index-th of them (site files): false past the last; `unit` NULL
 * when not known. */
bool bp_field_taken(const bp_engine *engine, size_t index, const char **unit, const char **function,
                    const char **field);
/* The unit reads function-pointer field `field` to keep or hand on its
 * value, not only to call or test it: what the field holds may run
 * anywhere. */
void bp_add_field_escape(bp_engine *engine, const char *field);
/* The index-th of them; NULL past the last. */
const char *bp_field_escape(const bp_engine *engine, size_t index);
/* The unit may store into function-pointer field `field` a function that
 * no field-taken record names (an assignment at run time, an initializer
 * in a function's body, or a function whose address it also takes another
 * way): a call through the field may run any function, and may publish
 * what it is handed. */
void bp_add_field_open(bp_engine *engine, const char *field);
/* The index-th of them; NULL past the last. */
const char *bp_field_open(const bp_engine *engine, size_t index);
/* The function being built starts at `entry`: the edges out of blocks no
 * path from it reaches (code after a call that does not return, a helper's
 * exit that every return bypasses) are dropped, so that no analysis takes
 * such a block for a second way into the function. */
void bp_function_entry(bp_engine *engine, uint32_t entry);
/* The function being built returns from block `exit`: every other block
 * with no way on ends in a call that does not return. */
void bp_function_exit(bp_engine *engine, uint32_t exit);
/* Its exit block; BP_NO_BLOCK when not known. */
#define BP_NO_BLOCK UINT32_MAX
uint32_t bp_function_exit_block(const bp_engine *engine, uint32_t function);

/* `object`'s value decides whether access `event` runs (a check of a flag
 * that dominates it and that some path leaves without reaching it: an `if`
 * around it, a spin loop or an early return before it), or computes its
 * address (`p = rcu_dereference(gp); p->field`). Beyond BP_GUARDS_MAX
 * guards, the first ones are kept. */
void bp_add_guard(bp_engine *engine, uint32_t event, uint32_t object);

/* `object`'s value is the pointer (or index) through which access `event`
 * reaches its memory (`p = atomic_load(&slots[i]); p->field`): the access
 * is to whichever instance that load found. Also a guard (bp_add_guard). */
void bp_add_address_source(bp_engine *engine, uint32_t event, uint32_t object);

/* `object`'s value is part of what store `event` writes (`r->epoch =
 * g_epoch` after `g_epoch = load(&global.epoch)`): the store hands on what
 * was read. Also a guard (bp_add_guard). */
void bp_add_value_source(bp_engine *engine, uint32_t event, uint32_t object);

/* The text of access `event` as written, for a fix-it that marks it: the
 * range [begin, end) to replace, the accessed lvalue's text and, for a store
 * written `lvalue = value`, the value's text (NULL for a load). */
void bp_set_access_text(bp_engine *engine, uint32_t event, bp_location begin, bp_location end,
                        const char *lvalue, const char *value);

/* Where fix-its for `event` go: the start of the statement that holds it and
 * that line's indentation, and, for a barrier written on its own, its text
 * [own_begin, own_end). Any location may be nowhere (line 0). */
void bp_set_event_text(bp_engine *engine, uint32_t event, bp_location statement,
                       const char *indentation, bp_location own_begin, bp_location own_end);

/* A front end that sets events' text only where a finding reads it (a
 * fix-it, a message), not for every event as it lowers: the engine calls
 * `source` for an event each time before it reads that event's text of
 * one kind, and `source` sets it (the first time). It must stay callable
 * while the engine reads findings; NULL: the text set is all there is. */
typedef enum {
  BP_TEXT_PLACE, /* bp_set_event_text: the statement, its indentation, own text */
  BP_TEXT_ACCESS /* bp_set_access_text */
} bp_text_kind;
typedef void (*bp_text_source)(void *context, bp_engine *engine, uint32_t event, bp_text_kind kind);
void bp_set_text_source(bp_engine *engine, bp_text_source source, void *context);

/* ---- Reading the program back ---- */

/* An annotation event is the place of an annotation (bp_scan_annotations):
 * it belongs to no function (function == BP_NO_FUNCTION) and no block, so
 * the analysis never walks it; findings about the annotation point at it. */
typedef enum {
  BP_EVENT_ACCESS,
  BP_EVENT_BARRIER,
  BP_EVENT_ANNOTATION,
  BP_EVENT_LOCK,   /* takes the lock `object` */
  BP_EVENT_UNLOCK, /* releases it */
  BP_EVENT_SPAWN,  /* starts a thread running function `callee` */
  BP_EVENT_JOIN,   /* waits for the end of a thread running function `callee` */
  BP_EVENT_CALL,   /* calls function `callee`, whose code is not lowered here */
  BP_EVENT_PLACE   /* a place in the function's code and nothing more (bp_add_place) */
} bp_event_type;

/* Fields by size, so that the flags do not each pad: a large program holds
 * millions of events. */
typedef struct {
  uint64_t stored_value;     /* stores: see bp_set_stored_value; as two's complement */
  uint64_t bits;             /* accesses: see bp_set_access_bits; 0 when all */
  uint64_t value_guard_bits; /* the bits the value guard tests; 0: all */
  uint64_t outer_guard_bits;
  bp_event_type type;
  uint32_t function;
  bp_location location;
  int primitive;
  /* accesses */
  uint32_t object;
  bp_access_kind kind;
  /* barriers */
  unsigned strength;
  /* fix-it places, see bp_set_event_text */
  bp_location statement, own_begin, own_end;
  uint32_t indentation; /* bp_event_indentation */
  /* accesses: see bp_add_guard; BP_NO_OBJECT fills the unused slots */
  uint32_t guards[BP_GUARDS_MAX];
  /* accesses: see bp_add_address_source; BP_NO_OBJECT fills the unused slots */
  uint32_t address_sources[BP_GUARDS_MAX];
  /* stores: see bp_add_value_source; BP_NO_OBJECT fills the unused slots */
  uint32_t value_sources[BP_GUARDS_MAX];
  /* accesses: see bp_set_access_text; access_begin is nowhere when unknown */
  bp_location access_begin, access_end;
  uint32_t lvalue_text, value_text; /* bp_event_lvalue_text, bp_event_value_text */
  uint32_t callee;                  /* bp_event_callee */
  uint32_t contract;                /* bp_event_contract */
  /* accesses with unpublished_allocation: see bp_set_allocation_source;
   * the empty name when the allocation is the function's own */
  uint32_t allocation_source;
  uint32_t stored_address; /* stores: the object whose address it writes */
  bp_location value_guard; /* accesses: see bp_set_value_guard; nowhere when none */
  uint32_t value_guard_object;
  bp_location outer_guard; /* accesses: see bp_set_outer_value_guard */
  uint32_t outer_guard_object;
  uint32_t root;             /* accesses: see bp_set_access_root; BP_NO_ROOT when unknown */
  uint32_t root_type;        /* accesses: bp_event_root_type */
  uint32_t value_root;       /* accesses: see bp_set_value_root; BP_NO_ROOT when unknown */
  uint32_t subtype;          /* accesses: bp_event_subtype */
  uint32_t set_up_flag;      /* accesses: see bp_set_set_up_flag; BP_NO_OBJECT when none */
  uint32_t after_set_up;     /* accesses: see bp_set_after_set_up; BP_NO_OBJECT when none */
  bool marked;               /* accesses */
  bool implicit;             /* barriers */
  bool thread_own;           /* accesses: see bp_set_thread_own */
  bool marked_region;        /* accesses: see bp_set_marked_region */
  bool unpublished;          /* accesses: see bp_set_unpublished */
  bool after_unnamed_stores; /* barriers: see bp_set_after_unnamed_stores */
  bool after_publication;    /* accesses: see bp_set_after_publication */
  bool reference_put;        /* accesses: see bp_set_reference_put */
  bool after_unlock_lock;    /* locks: see bp_set_after_unlock_lock */
  bool value_unused;         /* accesses: see bp_set_value_unused */
  bool value_known;          /* stores: see bp_set_stored_value */
  bool address_known;        /* stores: see bp_set_stored_address */
  bool value_guard_zero;
  bool outer_guard_zero;
  bool stored_increment; /* stores: see bp_set_stored_increment */
  bool stored_nonzero;   /* stores: see bp_set_stored_nonzero */
  bool inlined;          /* calls: see bp_set_call_inlined */
  /* accesses: 1 + the parameter of bp_set_unpublished_if_fresh; 0 when none */
  uint8_t unpublished_parameter;
  /* accesses: 1 + the allocation of bp_set_unpublished_if_kept; 0 when none */
  uint8_t unpublished_allocation;
  /* calls: per argument, 8 bits from the lowest (bp_set_call_argument): 0
   * nothing known, 2 + j the function's parameter j, 16 + a its allocation
   * a; BP_ARGUMENT_UNPUBLISHED set where nothing has published it yet */
  uint64_t call_arguments;
} bp_event;

size_t bp_event_count(const bp_engine *engine);
const bp_event *bp_event_get(const bp_engine *engine, uint32_t event);
const char *bp_function_name(const bp_engine *engine, uint32_t function);
/* The unit `function` was built in ("" when none is known). */
const char *bp_function_unit(const bp_engine *engine, uint32_t function);
/* Functions `f` and `g` come from two builds of one source file with other
 * macros (bp_set_unit): they share no memory that the analysis could tell
 * from the other build's. */
bool bp_other_builds(const bp_engine *engine, uint32_t f, uint32_t g);
const char *bp_object_display(const bp_engine *engine, uint32_t object);
const char *bp_file_path(const bp_engine *engine, uint32_t file);
const char *bp_event_indentation(const bp_engine *engine, uint32_t event);
/* Access `event` is to the running thread's own instance of its object (a
 * field of a thread-local variable): two such accesses in different
 * functions are to different instances, and neither pair nor race; another
 * thread reaches the instance through a pointer, which is the object. */
void bp_set_thread_own(bp_engine *engine, uint32_t event);
/* Access `event` is in a region that the kernel's race detector (KCSAN)
 * takes as marked, a seqcount's write or read section (the primitive
 * table's MARKED_BEGIN and MARKED_NEXT): it needs no marking of its own,
 * though it orders and pairs as the plain access it is. */
void bp_set_marked_region(bp_engine *engine, uint32_t event);
/* Access `event` is to memory the function has just allocated and not yet
 * published (stored to a shared place or handed to another function): no
 * other thread can reach it yet, so its order with another such access
 * claims nothing and it races with nothing. Its order with the
 * publication is still a message's payload before its flag. */
void bp_set_unpublished(bp_engine *engine, uint32_t event);
/* Access `event` is to memory that parameter `parameter` (counted from 0)
 * of its function points to, before the function publishes it: it is
 * unpublished (bp_set_unpublished) where every call of the function hands
 * that parameter memory its caller has not published yet
 * (bp_set_call_argument); bp_analyze decides that over the program's calls
 * (an initialiser that its allocating callers call,
 * `__percpu_init_rwsem(&s->s_writers.rw_sem[i])` after `s = kzalloc()`).
 * Parameters from BP_UNPUBLISHED_PARAMETERS on are not tracked. */
#define BP_UNPUBLISHED_PARAMETERS 14
void bp_set_unpublished_if_fresh(bp_engine *engine, uint32_t event, unsigned parameter);
/* Access `event` is to memory its function has just allocated (its
 * allocation number `allocation`, counted from 0 within the function),
 * which nothing but calls of functions of other units may have published
 * yet: it is unpublished where none of the function's calls that hand
 * that memory over (bp_set_call_argument) publishes it, as bp_analyze
 * finds from the program's functions (bp_set_keeps_parameter).
 * Allocations from BP_UNPUBLISHED_ALLOCATIONS on are not tracked. */
#define BP_UNPUBLISHED_ALLOCATIONS 112
void bp_set_unpublished_if_kept(bp_engine *engine, uint32_t event, unsigned allocation);
/* The allocation of access `event` (bp_set_unpublished_if_kept) is the
 * memory a call of `callee`, a function of another unit, returned: it is
 * unpublished only where that function returns memory nobody else has
 * seen (bp_set_returns_fresh), which the program's definitions of it say,
 * and where the function does not publish it itself before the access
 * (the front end counts every call it is handed to as its publication). */
void bp_set_allocation_source(bp_engine *engine, uint32_t event, const char *callee);
/* Call `event` hands, as its argument `argument` (counted from 0), memory
 * of its function's parameter `parameter`, or of the function's allocation
 * `allocation` (the other BP_NO_PARAMETER), that no store and no call has
 * published yet (`unpublished`), or that only calls of functions of other
 * units may have (`unpublished` false, an allocation). Arguments from
 * BP_UNPUBLISHED_ARGUMENTS on are not tracked. */
#define BP_NO_PARAMETER UINT32_MAX
#define BP_UNPUBLISHED_ARGUMENTS 8
void bp_set_call_argument(bp_engine *engine, uint32_t event, unsigned argument, unsigned parameter,
                          unsigned allocation, bool unpublished);
/* The function begun last keeps what its parameter `parameter` points to
 * to itself: it never stores it where others find it, nor hands it to an
 * atomic operation, a call through a pointer or a function of its unit
 * that may publish it. Its calls of other units' functions say the rest
 * (bp_set_call_argument). A parameter not said to be kept is published. */
void bp_set_keeps_parameter(bp_engine *engine, unsigned parameter);
/* The function begun last returns only memory it has just allocated and
 * handed to nobody (NULL and error codes aside): an allocator, whose
 * returned memory its callers in other units set up unseen
 * (bp_set_allocation_source). */
void bp_set_returns_fresh(bp_engine *engine);
/* Call `event` marks where a function that is also lowered on its own is
 * lowered into its caller (its code follows as the caller's events): it
 * tells the locks held at its calls, and nothing else (it orders nothing
 * and accesses nothing the events after it do not). */
void bp_set_call_inlined(bp_engine *engine, uint32_t event);
/* Barrier `event` comes after stores the front end names no object for:
 * into memory only a fresh local of the function points to (a map filled
 * in, then ck_pr_fence_store(), then returned to be published), through a
 * pointer it cannot name (`buf[i] = c` of a parameter), or by a call it
 * does not lower that is handed a pointer to writable memory (`memcpy(
 * fifo->data + off, src, n)`, the kernel's kfifo). They are no events, yet
 * they are stores the barrier orders, so a wmb there is of the right kind. */
void bp_set_after_unnamed_stores(bp_engine *engine, uint32_t event);
/* Store `event` goes into memory the function has just allocated, after the
 * function stored a pointer to it into a shared place (`arenas[i] = arena;
 * arena->id = i`): a thread that found the memory through that pointer may
 * read it before this store. */
void bp_set_after_publication(bp_engine *engine, uint32_t event);
/* Store `event` is the write of a reference count's put: a decrement whose
 * result decides handing the counted memory over (`if (dec(&p->ref) == 0)
 * release(p)`). The count's order serves the memory's lifetime: it orders
 * the accesses before a put against those the last put's result lets
 * through, and pairs with nothing else. */
void bp_set_reference_put(bp_engine *engine, uint32_t event);
/* Lock `event` is followed at once by the kernel's
 * smp_mb__after_unlock_lock() (a FENCE of order UNLOCK_LOCK): an unlock
 * earlier on the path and this lock order as a full barrier what comes
 * before the unlock against what comes after the lock, accesses between
 * them or not (LKMM's po-unlock-lock-po with After-unlock-lock). */
void bp_set_after_unlock_lock(bp_engine *engine, uint32_t event);
/* Load `event` is the read of a read-modify-write whose result the code
 * drops (`uatomic_inc(&count);`, `atomic_fetch_add(&readers, 1);`): its
 * value decides nothing, so it claims no order of its own; the write is
 * what the operation does to the others. */
void bp_set_value_unused(bp_engine *engine, uint32_t event);
/* Access `event` is part of a lazy set-up that ends by storing `flag`,
 * run only where a check of the flag found it not yet set up (the kernel's
 * check_init_srcu_struct(): `if (ready(smp_load_acquire(&flag))) return;`,
 * a second check under the lock, then init_srcu_struct_fields(), which
 * ends with `smp_store_release(&flag, 0)`). */
void bp_set_set_up_flag(bp_engine *engine, uint32_t event, uint32_t flag);
/* Access `event` runs after a call that left `flag` set up on every way out
 * of it: the call found the set-up done or did it itself. A set-up access
 * of that flag (bp_set_set_up_flag) happened before it. */
void bp_set_after_set_up(bp_engine *engine, uint32_t event, uint32_t flag);
/* Store `event` writes the constant `value` (`flag = 1`, `xchg(&head,
 * NULL)`). */
void bp_set_stored_value(bp_engine *engine, uint32_t event, int64_t value);
/* Store `event` writes the address of `object` (`gp = &x`). */
void bp_set_stored_address(bp_engine *engine, uint32_t event, uint32_t object);
/* Access `event` concerns only the bits `bits` of its object: a load whose
 * value the code tests only through `& bits` (`uatomic_read(&flags) &
 * PAUSED`), a store that changes only those (`uatomic_or(&flags, STOP)`,
 * `flags &= ~STOP`). A load never tells a store of other bits happened, so
 * the two are no link of a pairing. */
void bp_set_access_bits(bp_engine *engine, uint32_t event, uint64_t bits);
/* Access `event` runs only when the load of `object` written at `load` read zero
 * (`when_zero`: `if (CMM_LOAD_SHARED(ht->in_progress_destroy)) break;`
 * before it) or only when it read something else; with `bits` (0: the
 * whole value), only those bits of it are tested (`if (load(&r->state) &
 * FREE) continue;`). Where every store of the load's object writes a
 * constant the test turns away (a flag only ever set), a scenario whose
 * outcome needs the load to read a store's value never runs the access. */
void bp_set_value_guard(bp_engine *engine, uint32_t event, uint32_t object, bp_location load,
                        uint64_t bits, bool when_zero);
/* The next such test out, one the nearest runs under (liburcu's
 * call_rcu_data_free(): `if (!(load(&flags) & STOPPED)) { ...
 * wake_up(crdp); }`, where the wake-up's own test of another bit is the
 * nearest): a pairing whose first load is that test's is decided by it. */
void bp_set_outer_value_guard(bp_engine *engine, uint32_t event, uint32_t object, bp_location load,
                              uint64_t bits, bool when_zero);
/* Store `event` writes what its value guard's load read plus a positive
 * constant (a nested rcu_read_lock(): `ctr = tmp + COUNT` under `if (!(tmp
 * & NEST_MASK))`'s other branch): the bits the guard found non-zero stay
 * non-zero (barring their overflow), so a load that tests only those bits
 * cannot tell whether it happened. */
void bp_set_stored_increment(bp_engine *engine, uint32_t event);
/* Store `event` writes a value that is not zero, though not a known
 * constant: an address (`CMM_STORE_SHARED(tail->next, &node->next)`, also
 * through the parameters of inlined calls). A load that lets its code on
 * only when it read zero (a null pointer) stops when it reads this store. */
void bp_set_stored_nonzero(bp_engine *engine, uint32_t event);

/* Access `event` reaches its memory from the variable numbered `root`
 * (numbered within the unit, compared only within one function): the
 * pointer or the variable its lvalue starts from, seen through the
 * parameters of inlined calls (`bt->depth` and `bt->wait.head.next`,
 * the latter in a helper called with `&bt->wait`). Two accesses of one
 * function from one root reach one instance of a structure; fields named
 * by their type carry no identity of their own, and the root is what ties
 * two of them together. `type`
 * names what holds the memory, across functions: the structure the
 * nearest pointer on the lvalue's way points to ("tags" for
 * `bt->wait.first`, "io_rings" for `ring->rings->sq_flags`), or a global
 * variable as "T@name". Two functions that reach such a field from
 * containers of one type may reach one instance. */
#define BP_NO_ROOT UINT32_MAX
/* A `type` that ends in BP_BUILDING_BLOCK ("list_head~") is a building
 * block that many structures embed, reached only through a pointer to it
 * (`pos->next` in a list walk): which instance that is depends on what
 * the pointer was handed, so it ties no two functions' accesses. */
#define BP_BUILDING_BLOCK '~'
void bp_set_access_root(bp_engine *engine, uint32_t event, uint32_t root, const char *type);
/* What holds access `event`'s memory (bp_set_access_root); "" when
 * unknown. */
const char *bp_event_root_type(const bp_engine *engine, uint32_t event);
/* What the code says the structure access `event` starts from is part of
 * (a function that casts its `struct sock *sk` to a `struct tcp_sock *`
 * with tcp_sk(sk) before anything else knows its socket is a TCP one): the
 * structures from that outer type down to the root's own, each with the
 * member that holds the next, joined by '>'
 * ("tcp_sock.inet_conn>inet_connection_sock.icsk_inet>inet_sock.sk>sock").
 * Two accesses whose chains are both known and neither ends the other
 * (a TCP socket's and a UNIX socket's, "unix_sock.sk>sock") reach two
 * different instances. "" when nothing is known. */
void bp_set_access_subtype(bp_engine *engine, uint32_t event, const char *chain);
const char *bp_event_subtype(const bp_engine *engine, uint32_t event);
/* The function of another unit whose returned memory access `event`'s
 * allocation is (bp_set_allocation_source); "" when none. */
const char *bp_event_allocation_source(const bp_engine *engine, uint32_t event);
/* Access `event`'s value is the pointer that root `root` is: a store
 * writes it (`rcu_assign_pointer(q->head, obj)` after `obj->data = 1`: it
 * publishes that memory), a compare-and-swap expects or writes it, a
 * load's value is compared with it (`if (load(&slot->value) == value)`). */
void bp_set_value_root(bp_engine *engine, uint32_t event, uint32_t root);

/* The function whose code holds `event` when a call of it was lowered into
 * the event's function (a helper); "" for the function's own code. */
void bp_set_event_callee(bp_engine *engine, uint32_t event, const char *callee);
const char *bp_event_callee(const bp_engine *engine, uint32_t event);
/* The innermost function a library's contract (BP_CONTRACT) names whose
 * call, lowered into the event's function, holds `event` (its own code or
 * a helper's it calls); "" when none does. */
void bp_set_event_contract(bp_engine *engine, uint32_t event, const char *function);
const char *bp_event_contract(const bp_engine *engine, uint32_t event);
/* The texts of bp_set_access_text; "" when unknown. */
const char *bp_event_lvalue_text(const bp_engine *engine, uint32_t event);
const char *bp_event_value_text(const bp_engine *engine, uint32_t event);
/* Whether `object` guards access `event` (bp_add_guard). */
bool bp_event_guarded_by(const bp_engine *engine, uint32_t event, uint32_t object);
/* Whether access `event` reaches its memory through a pointer loaded from
 * `object` (bp_add_address_source); with BP_NO_OBJECT, through any. */
bool bp_event_addressed_through(const bp_engine *engine, uint32_t event, uint32_t object);
/* Whether store `event` writes a value read from `object` (bp_add_value_source). */
bool bp_event_writes_value_of(const bp_engine *engine, uint32_t event, uint32_t object);

/* ---- Annotations (barrierpair/annotate.h, docs/annotations.md) ----
 *
 * Comments and macros in the source that silence a finding or declare a
 * pairing. A front end hands the engine the text of each file it lowered;
 * the engine reads the annotations from it, so every front end (and every
 * site file) sees the same ones. */

typedef enum {
  BP_ANNOTATION_IGNORE,     /* barrierpair: ignore <rule>: <reason> */
  BP_ANNOTATION_PAIRS_WITH, /* barrierpair: pairs with <function> */
  BP_ANNOTATION_COMMENT     /* a kernel-style comment: "Pairs with smp_wmb() in foo()" */
} bp_annotation_kind;

#define BP_NO_ANNOTATION UINT32_MAX

typedef struct {
  bp_annotation_kind kind;
  bool macro;              /* written as BARRIERPAIR_IGNORE / BARRIERPAIR_PAIRS_WITH */
  bp_location location;    /* where the annotation's words start */
  uint32_t first_line;     /* the lines its comment or macro spans */
  uint32_t last_line;      /* (a block comment may span several) */
  uint32_t next_code_line; /* the first line with code after it; 0: none */
  const char *name;        /* ignore: the rule as written; otherwise the function */
  const char *reason;      /* ignore: why, "" when none given */
  uint32_t event;          /* its BP_EVENT_ANNOTATION event */
} bp_annotation;

/* Reads the annotations in `length` bytes of `text`, the contents of `file`
 * (from bp_intern_file); returns how many it added. Call it after the
 * file's functions are built (not while one is): a kernel-style comment is
 * kept only beside a barrier already there. Scanning the same file twice
 * adds nothing the second time. */
size_t bp_scan_annotations(bp_engine *engine, uint32_t file, const char *text, size_t length);
/* Adds one annotation (its `event` is ignored and made); returns its index,
 * an existing one's when the same annotation is already there, or
 * BP_NO_ANNOTATION while a function is being built. */
uint32_t bp_add_annotation(bp_engine *engine, const bp_annotation *annotation);
size_t bp_annotation_count(const bp_engine *engine);
/* Fills *annotation; false when there is no annotation `index`. */
bool bp_annotation_get(const bp_engine *engine, uint32_t index, bp_annotation *annotation);

/* ---- Analysis ---- */

/* Where the analysis and a kernel-style comment part: the first step of
 * the pairing that the barrier and the function the comment names fail. */
typedef enum {
  BP_COMMENT_AGREES,                 /* the analysis pairs them */
  BP_COMMENT_NOT_IN_PROGRAM,         /* the program defines no such function */
  BP_COMMENT_OWN_FUNCTION,           /* it names the barrier's own function */
  BP_COMMENT_PARTNER_HAS_NO_BARRIER, /* the function has no barrier */
  BP_COMMENT_BARRIER_ORDERS_NOTHING, /* no two accesses of its function on either side */
  BP_COMMENT_PARTNER_ORDERS_NOTHING, /* the function's barriers order no two accesses */
  BP_COMMENT_NO_OBJECT_SHARED,       /* the two sides' orderings share no object */
  BP_COMMENT_ONE_OBJECT_SHARED,      /* they share an object, never two in mirror order */
  BP_COMMENT_PAIRING_REFUSED,        /* a mirror exists; the pairing's checks refused it */
  BP_COMMENT_VERDICT_COUNT
} bp_comment_verdict;

/* The verdict's name in reports ("no-object-shared"). */
const char *bp_comment_verdict_name(bp_comment_verdict verdict);

/* A kernel-style comment beside a barrier ("Pairs with smp_wmb() in
 * foo()"), as the analysis checked it. */
typedef struct {
  bp_location location;   /* the comment */
  const char *function;   /* the function it names */
  bool defined;           /* the program defines a function of that name */
  bool agrees;            /* the analysis pairs the barrier with that function */
  uint32_t partner_count; /* functions the analysis pairs the barrier with */
  bp_comment_verdict verdict;
} bp_comment_check;
typedef void (*bp_comment_handler)(void *context, const bp_comment_check *check);

typedef struct {
  bool disabled[BP_RULE_COUNT];
  /* missing-access-once: every unmarked access of a paired site, the
   * payload of message passing and private reads included, as the article
   * marks every access of its litmus tests */
  bool strict_marking;
  /* The Linux-kernel memory model where the article is stricter: an rmb or
   * a wmb that orders its link of a cycle through three or more functions
   * is enough when a full barrier orders another link (the article's
   * three-CPU example, which LKMM proves safe). Nothing else changes. */
  bool model_lkmm;
  /* Checks not yet proven quiet on real code (docs/precision.md): a cycle
   * of three or more functions, every link barriered with a full barrier
   * written in the code but one whose function orders its two marked
   * accesses with nothing (missing-barrier); and the pairings of scenario 0
   * (IRIW), which the article ignores as "so extreme" and "mostly
   * academic". */
  bool beta;
  /* Called for every kernel-style comment beside a barrier, whether or not
   * it is a finding (the agreement of the kernel's "Pairs with" comments
   * with the analysis); NULL: none. */
  bp_comment_handler comment_handler;
  void *comment_context;
} bp_options;

/* What is wrong with an annotation (stale-annotation findings). */
typedef enum {
  BP_PROBLEM_NONE,
  BP_PROBLEM_UNKNOWN_RULE,           /* ignore: names no rule */
  BP_PROBLEM_NO_REASON,              /* ignore: says not why (it still silences) */
  BP_PROBLEM_SILENCES_NOTHING,       /* ignore: no finding of its rule where it applies */
  BP_PROBLEM_BESIDE_NO_BARRIER,      /* pairs with: no barrier where it applies */
  BP_PROBLEM_NO_SUCH_FUNCTION,       /* pairs with: whole program, no function of that name */
  BP_PROBLEM_PARTNER_HAS_NO_BARRIER, /* the named function has no barrier */
  BP_PROBLEM_NOT_A_PARTNER           /* comment: the barrier pairs, but not with that function */
} bp_annotation_problem;

/* One side of a pairing: two accesses of one function, in program order,
 * and the barrier between them (BP_NO_EVENT when none). */
typedef struct {
  uint32_t function;
  uint32_t first, second;
  uint32_t barrier;
  unsigned strength; /* what the path between first and second orders */
} bp_side;

/* The longest cycle of functions transitive-weak-barrier looks for. */
#define BP_CHAIN_MAX 4

typedef struct {
  bp_rule rule;
  uint32_t at;             /* the event the finding points at */
  int scenario;            /* with `side` as CPU 0; -1 for a barrier of the wrong kind alone */
  bp_side side;            /* the broken side */
  bp_side partner;         /* the other side; function BP_NO_FUNCTION when there is none */
  unsigned need;           /* strength `side` needs */
  bp_family family;        /* spelling for the fix */
  uint32_t other_pairings; /* further partners of the same site */
  /* transitive-weak-barrier: the cycle's links in order, chain[0] == side */
  bp_side chain[BP_CHAIN_MAX];
  uint32_t chain_length;
  /* missing-access-once: the access it races with, and the flag whose check
   * before the access would let it stay plain (BP_NO_OBJECT when none) */
  uint32_t race;
  uint32_t check_object;
  /* broken-contract: the contract (bp_contract_get) the function breaks */
  uint32_t contract;
  /* stale-annotation: the annotation (bp_annotation_get) and what is wrong */
  uint32_t annotation;
  bp_annotation_problem problem;
} bp_finding;

/* Runs the analysis; returns the number of findings and stores them, sorted
 * by location, in *findings (free() it). */
size_t bp_analyze(bp_engine *engine, const bp_options *options, bp_finding **findings);

/* A note of a finding: where it points and what it says (malloc()ed). */
typedef struct {
  uint32_t event;
  char *text;
} bp_note;

#define BP_NOTES_MAX (BP_CHAIN_MAX + 1)

/* The notes of a finding, in the order to show them; returns how many. */
size_t bp_finding_notes(const bp_engine *engine, const bp_finding *finding,
                        bp_note notes[BP_NOTES_MAX]);

/* Texts for a finding, malloc()ed; the notes are NULL where a finding has no
 * such note. bp_finding_notes() gives every note. */
char *bp_finding_message(const bp_engine *engine, const bp_finding *finding);
char *bp_finding_partner_note(const bp_engine *engine, const bp_finding *finding);
char *bp_finding_scenario_note(const bp_engine *engine, const bp_finding *finding);
/* missing-access-once: the marked access the fix writes, e.g.
 * "CMM_LOAD_SHARED(data)" (malloc()ed). */
char *bp_finding_marking(const bp_engine *engine, const bp_finding *finding);
/* The barrier the fix inserts or puts in place, e.g. "cmm_smp_rmb()". */
const char *bp_finding_fix_barrier(const bp_finding *finding);

/* A fix-it: replace [begin, end) with `text`; an insertion when begin equals
 * end. */
typedef struct {
  bp_location begin, end;
  char *text; /* malloc()ed */
} bp_fix;

/* Fills *fix and returns true when the finding has a fix-it. */
bool bp_finding_fix(const bp_engine *engine, const bp_finding *finding, bp_fix *fix);

/* ---- Site files: a program as versioned text, and merging programs ----
 *
 * A front end that sees part of a program (one translation unit) writes its
 * program, or hands its engine over; the whole program is their merge, and
 * bp_analyze runs once over it. Merging unifies files by path and objects by
 * key (so `x` of two files is one object, a `static` one stays per file), and
 * adds a function only once when two inputs define it at the same place, an
 * annotation only once when two inputs read it at the same place. */

#define BP_SITES_VERSION 31
/* bp_event.call_arguments: the argument is not published yet */
#define BP_ARGUMENT_UNPUBLISHED 0x80

/* Writes `engine`'s program (files, objects, functions with their blocks and
 * edges, every event field, annotations); false on a write error. */
bool bp_program_write(const bp_engine *engine, FILE *out);

/* Reads a site file and merges its program into `engine`. `name` names the
 * input in errors. A file that is not a site file, has another version or is
 * corrupt leaves `engine` unchanged, returns false and puts
 * "name:line: what is wrong" in `error` (`error_size` bytes). */
bool bp_program_read(bp_engine *engine, FILE *in, const char *name, char *error, size_t error_size);

/* Adds `from`'s program to `into`; returns how many functions it added. */
size_t bp_program_merge(bp_engine *into, const bp_engine *from);

/* The bp_event fields site files write, in order (for tests). */
size_t bp_sites_field_count(void);
const char *bp_sites_field_name(size_t index);

#ifdef __cplusplus
}
#endif

#endif
