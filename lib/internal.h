/* The engine's own data, shared by every stage of lib/ (lib/README.md):
 * the program model. Front ends see only barrierpair.h; each later stage has
 * its own header (analysis/analysis.h, rules/rules.h, findings/findings.h). */
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
/* Inline: every walk of the engine reads items through it. */
static inline void *bp_vec_at(const bp_vec *vec, size_t index) {
  return (char *)vec->items + index * vec->item_size;
}
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
void bp_table_truncate(size_t primitive_count, size_t family_count, size_t exclusive_count,
                       size_t contract_count);
void bp_table_add_contract(const char *function, bp_contract_side side, bp_order order);
/* How primitive files and messages spell orders and contract sides. */
#define BP_ORDER_NAME_COUNT (BP_ORDER_UNLOCK_LOCK + 1)
extern const char *const bp_order_names[BP_ORDER_NAME_COUNT];
#define BP_CONTRACT_SIDE_COUNT (BP_CONTRACT_BARRIER + 1)
extern const char *const bp_contract_side_names[BP_CONTRACT_SIDE_COUNT];
void bp_table_add_exclusive(const char *group, const char *function);
size_t bp_exclusive_count(void);
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
  uint32_t unit; /* interned in names; BP_NO_UNIT: none known */
  bp_location location;
  bp_vec blocks;      /* bp_block */
  bool contract_only; /* bp_set_contract_only */
  bool boot_only;     /* bp_set_boot_only */
  bp_callers callers; /* bp_set_callers */
  uint32_t exit;      /* bp_function_exit; BP_NO_BLOCK when not known */
  uint16_t keeps;     /* bit j: bp_set_keeps_parameter(j) */
  bool returns_fresh; /* bp_set_returns_fresh */
} bp_function;

/* An annotation as the engine keeps it: its strings are names ids. */
typedef struct {
  bp_annotation_kind kind;
  bool macro;
  bp_location location;
  uint32_t first_line, last_line, next_code_line;
  uint32_t name, reason;
  uint32_t event;
} bp_annotation_record;

/* A function stored into a function-pointer field by a unit's
 * initializers (names ids; unit BP_NO_UNIT when not known). */
typedef struct {
  uint32_t unit, function, field;
} bp_field_take;

struct bp_engine {
  bp_interner files, objects, names; /* names: functions, object displays, annotation words */
  bp_vec object_displays;            /* uint32_t: object id -> names id */
  bp_vec functions;                  /* bp_function */
  bp_vec events;                     /* bp_event */
  bp_vec annotations;                /* bp_annotation_record */
  bp_vec address_taken;              /* uint32_t names ids (bp_add_address_taken) */
  bp_vec field_taken;                /* bp_field_take (bp_add_field_taken) */
  bp_vec field_escapes;              /* uint32_t names ids (bp_add_field_escape) */
  bp_vec field_opens;                /* uint32_t names ids (bp_add_field_open) */
  /* per event: the instance object bp_unify_instances renamed to its type
   * object (BP_NO_OBJECT: none); NULL until it renames one */
  uint32_t *instance_objects;
  size_t instance_object_count;
  uint32_t unit;      /* of the functions begun next (bp_set_unit) */
  bool *kernel_units; /* per names id: a unit written in the kernel's family (bp_find_unit_families)
                       */
  bp_text_source text_source; /* bp_set_text_source */
  void *text_context;
  bool building;
};
#define BP_NO_UNIT UINT32_MAX

/* program.c: the object access `event` had before bp_unify_instances
 * named it by its type ("struct list_head.next@struct nfs_inode.open_files.next"
 * before "struct list_head.next"); its object when it had no other. */
uint32_t bp_event_instance_object(const bp_engine *engine, uint32_t event);
/* The name an access's own code gives its object: the instance it reaches
 * where the object is named by type (`ioc.hweight_gen.counter` for an
 * `atomic_t.counter`), for messages; pairing, sorting and baseline keys
 * go by the object. */
const char *bp_event_object_display(const bp_engine *engine, uint32_t event);
/* program.c: the field path of that instance within its container,
 * ".list.next" of "struct list_head.next@struct nfs_open_context.list.next";
 * NULL when the access names no container's instance (a global's, or none). */
const char *bp_event_instance_path(const bp_engine *engine, uint32_t event);
/* program.c: the field path of the instance within the global variable it
 * is part of, ".events.counter" of "struct atomic_t.counter@dev.events.counter";
 * NULL when the access names no global variable's instance. */
const char *bp_event_variable_path(const bp_engine *engine, uint32_t event);
/* program.c: the container's type of that path, with its file's tag when it
 * is a unit's own ("struct call_rcu_data{.../urcu.c#...}"), `*length`
 * bytes long; NULL when the access has no instance path. */
const char *bp_event_instance_container(const bp_engine *engine, uint32_t event, size_t *length);

/* call_graph.c: the calls whose callee's every call the program shows. */
typedef struct {
  uint32_t event, callee; /* a CALL or SPAWN event, and a function it runs */
} bp_call_edge;
typedef struct {
  bp_vec calls;  /* bp_call_edge */
  bool *known;   /* per function: its callers are known and it is called (among `calls`) */
  bool *calling; /* per function: it makes one of `calls` */
} bp_call_graph;
void bp_build_call_graph(const bp_engine *engine, bp_call_graph *graph);
void bp_free_call_graph(bp_call_graph *graph);
/* call_graph.c: every call of a function the program defines (bp_call_edge),
 * whoever else calls it: what a callee needs of its callers (a lock its code
 * says they hold) holds at these calls. */
void bp_build_direct_calls(const bp_engine *engine, bp_vec *calls);

/* fresh_parameters.c: the accesses of bp_set_unpublished_if_fresh whose
 * parameter every call hands unpublished memory become unpublished. */
void bp_resolve_fresh_parameters(bp_engine *engine);

/* intern.c: the id of `string`, or UINT32_MAX when it was never added. */
uint32_t bp_interner_find(const bp_interner *interner, const char *string);

/* program.c: the family of the primitive of `event` (liburcu when none):
 * how fix-its spell what they add. Kernel code is the kernel's family
 * whatever the primitive: its function's or its unit's barriers and
 * markings say so (after bp_find_unit_families). */
bp_family bp_event_family(const bp_engine *engine, uint32_t event);
void bp_find_unit_families(bp_engine *engine);
/* program.c: an ordering's `barrier` is an access: the load that the
 * ordered access depends on (an address, data or control dependency). */
bool bp_dependency(const bp_engine *engine, uint32_t barrier);
/* Where events `a` and `b` are written, by file path, line and column (<0,
 * 0, >0): the order every front end sees the same. */
int bp_compare_locations(const bp_engine *engine, uint32_t a, uint32_t b);
/* program.c: whether `test` holds for an event of `function`. */
typedef bool (*bp_event_test)(const bp_engine *engine, uint32_t event, const void *context);
bool bp_function_has_event(const bp_engine *engine, uint32_t function, bp_event_test test,
                           const void *context);
/* program.c: `event` is the load or the store of a read-modify-write. */
bool bp_read_modify_write(const bp_engine *engine, uint32_t event);
/* program.c: one location, not a name many share: a global or a global's field, not a
 * field named by its type (nor one reached from such a field: "struct
 * list_head.next@struct request.queuelist.next") nor an array whose
 * elements collapse. */
bool bp_one_location(const bp_engine *engine, uint32_t object);
/* program.c: `a` and `b` are one object, or fields of one structure type. */
bool bp_same_structure(const bp_engine *engine, uint32_t a, uint32_t b);
/* program.c: a variable's object, of one location or an array's elements
 * ("ring[]"): not a field named by its type. */
bool bp_variable_object(const bp_engine *engine, uint32_t object);
/* program.c: the implicit barrier with one of `bits` written at access
 * `event`'s place (the release before a release store, the acquire after
 * an acquire load), or BP_NO_EVENT: the access is ordered, not relaxed. */
uint32_t bp_own_barrier(const bp_engine *engine, uint32_t event, unsigned bits);
/* program.c: barrier `event` is the front end's writing of a plain access
 * to an _Atomic object, sequentially consistent by the language's default:
 * it orders, but it is no one's claim of an order. */
bool bp_barrier_by_default(const bp_engine *engine, uint32_t event);
/* program.c: `event` with its text of `kind`, asked of the text source
 * first: the program does not change, its text is only filled in. NULL for
 * an id the engine never gave out. */
const bp_event *bp_event_text(const bp_engine *engine, uint32_t event, bp_text_kind kind);
/* program.c: two places are the same file, line and column. */
bool bp_same_location(bp_location a, bp_location b);

/* annotation_places.c: where annotations stand among the program's
 * accesses and barriers, for the rules and suppressions that read them. */
typedef struct {
  uint32_t file, line, event;
} bp_line_entry;

/* The accesses and barriers of the program (bp_line_entry), sorted by file
 * and line. */
bp_vec bp_events_by_line(const bp_engine *engine);
/* The entries of `file` from line `first` to `last`: [*begin, end). */
size_t bp_entries_on_lines(const bp_vec *entries, uint32_t file, uint32_t first, uint32_t last,
                           size_t *begin);
/* The barriers an annotation is beside: on its own lines, else on the next
 * line with code; replaces the event ids in `barriers`. */
void bp_barriers_beside(const bp_engine *engine, const bp_vec *entries,
                        const bp_annotation_record *annotation, bp_vec *barriers);
bool bp_annotation_applies_to_line(const bp_annotation_record *annotation, uint32_t line);
/* An event that orders something: a barrier of some strength. */
bool bp_is_barrier(const bp_engine *engine, uint32_t event);

#endif
