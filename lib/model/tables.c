/* The scenario and primitive tables, read from the .def files, and the rows
 * primitive files add to the primitive table at run time. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <threads.h>

static const bp_scenario scenarios[BP_SCENARIO_COUNT] = {
#define BP_SCENARIO(number, name, cpu0, cpu1, code0, code1, code2, code3, bug_on, story)           \
  {number, name, {cpu0, cpu1}, {code0, code1, code2, code3}, bug_on, story},
#include "barrierpair/scenarios.def"
#undef BP_SCENARIO
};

static const bp_primitive builtin_primitives[] = {
#define BP_PRIMITIVE(name, family, op, order)                                                      \
  {#name, BP_FAMILY_##family, BP_OP_##op, BP_ORDER_##order},
#include "barrierpair/primitives.def"
#undef BP_PRIMITIVE
};

#define BUILTIN_PRIMITIVE_COUNT (sizeof builtin_primitives / sizeof builtin_primitives[0])

static const bp_family_row builtin_families[BP_FAMILY_COUNT] = {
#define BP_FAMILY(id, name, mb, rmb, wmb) {#id, name, {mb, rmb, wmb}, {NULL, NULL}},
#include "barrierpair/primitives.def"
#undef BP_FAMILY
};

/* Functions a library's contract runs under mutual exclusion with each
 * other, by group. */
typedef struct {
  const char *group, *function;
} exclusive_row;

static const exclusive_row builtin_exclusives[] = {
#define BP_EXCLUSIVE(group, function) {#group, #function},
#include "barrierpair/primitives.def"
#undef BP_EXCLUSIVE
};

#define BUILTIN_EXCLUSIVE_COUNT (sizeof builtin_exclusives / sizeof builtin_exclusives[0])

const char *const bp_order_names[BP_ORDER_NAME_COUNT] = {
    [BP_ORDER_COMPILER] = "COMPILER",
    [BP_ORDER_RELAXED] = "RELAXED",
    [BP_ORDER_RMB] = "RMB",
    [BP_ORDER_WMB] = "WMB",
    [BP_ORDER_MB] = "MB",
    [BP_ORDER_CONSUME] = "CONSUME",
    [BP_ORDER_ACQUIRE] = "ACQUIRE",
    [BP_ORDER_RELEASE] = "RELEASE",
    [BP_ORDER_ACQ_REL] = "ACQ_REL",
    [BP_ORDER_SEQ_CST] = "SEQ_CST",
    [BP_ORDER_PUBLISH] = "PUBLISH",
    [BP_ORDER_FROM_ARG] = "FROM_ARG",
    [BP_ORDER_MEMBARRIER] = "MEMBARRIER",
    [BP_ORDER_UNLOCK_LOCK] = "UNLOCK_LOCK",
};

const char *const bp_contract_side_names[BP_CONTRACT_SIDE_COUNT] = {
    [BP_CONTRACT_ENTRY] = "ENTRY", [BP_CONTRACT_EXIT] = "EXIT", [BP_CONTRACT_BARRIER] = "BARRIER"};

static const bp_contract builtin_contracts[] = {
#define BP_CONTRACT(function, side, order) {#function, BP_CONTRACT_##side, BP_ORDER_##order},
#include "barrierpair/primitives.def"
#undef BP_CONTRACT
};

#define BUILTIN_CONTRACT_COUNT (sizeof builtin_contracts / sizeof builtin_contracts[0])

static const char *const rule_names[BP_RULE_COUNT] = {
    [BP_RULE_MISSING_BARRIER] = "missing-barrier",
    [BP_RULE_WEAK_BARRIER] = "weak-barrier",
    [BP_RULE_TRANSITIVE_WEAK_BARRIER] = "transitive-weak-barrier",
    [BP_RULE_UNPAIRED_BARRIER] = "unpaired-barrier",
    [BP_RULE_MISSING_ACCESS_ONCE] = "missing-access-once",
    [BP_RULE_STORE_AFTER_PUBLICATION] = "store-after-publication",
    [BP_RULE_BROKEN_CONTRACT] = "broken-contract",
    [BP_RULE_STALE_ANNOTATION] = "stale-annotation",
};

static const char *const builtin_markings[BP_FAMILY_COUNT][2] = {
#define BP_MARKING(family, load, store) [BP_FAMILY_##family] = {load, store},
#include "barrierpair/primitives.def"
#undef BP_MARKING
};

static const char *const *markings_of(bp_family family) {
  if ((size_t)family < BP_FAMILY_COUNT)
    return builtin_markings[family][0] ? builtin_markings[family] : NULL;
  const bp_family_row *row = bp_family_get(family);
  return row && row->marking[0] ? row->marking : NULL;
}

const char *bp_marking_spelling(bp_family family, bp_access_kind kind) {
  const char *const *markings = markings_of(family);
  /* A library that declares no marking of its own (Concurrency Kit's are
   * named by type) gets GCC's builtins, never another library's macros. */
  if (!markings)
    markings = builtin_markings[BP_FAMILY_GCC];
  return markings[kind == BP_ACCESS_STORE];
}

const bp_scenario *bp_scenario_get(int number) {
  if (number < 0 || number >= BP_SCENARIO_COUNT)
    return NULL;
  return &scenarios[number];
}

int bp_scenario_number(bool x0_store, bool y0_store, bool y1_store, bool x1_store) {
  return 8 * x0_store + 4 * y0_store + 2 * y1_store + x1_store;
}

int bp_scenario_mirror(int number) {
  bool x0 = number & 8, y0 = number & 4, y1 = number & 2, x1 = number & 1;
  /* CPU 1 becomes CPU 0 and its first object (y) becomes x. */
  return bp_scenario_number(y1, x1, x0, y0);
}

static unsigned strength_of_letter(char letter) {
  switch (letter) {
  case 'r':
    return BP_STRENGTH_LOADS;
  case 'w':
    return BP_STRENGTH_STORES;
  default:
    return BP_STRENGTH_FULL;
  }
}

unsigned bp_scenario_need(int number, int cpu) {
  const bp_scenario *scenario = bp_scenario_get(number);
  if (!scenario || cpu < 0 || cpu > 1)
    return BP_STRENGTH_FULL;
  return strength_of_letter(scenario->barrier[cpu]);
}

bool bp_scenario_reads_new_first(int number, int cpu) {
  const bp_scenario *scenario = bp_scenario_get(number);
  if (!scenario || cpu < 0 || cpu > 1)
    return false;
  /* CPU 0's first load is r1, CPU 1's is r3 (scenarios.def) */
  return strstr(scenario->bug_on, cpu ? "r3 == 1" : "r1 == 1") != NULL;
}

bool bp_scenario_third_cpu(int number) {
  const bp_scenario *scenario = bp_scenario_get(number);
  return scenario && ((scenario->code[2] && scenario->code[2][0]) ||
                      (scenario->code[3] && scenario->code[3][0]));
}

bool bp_scenario_seen_by_pair(int number) {
  const bp_scenario *scenario = bp_scenario_get(number);
  return scenario && !bp_scenario_third_cpu(number) && !strstr(scenario->bug_on, "x ==") &&
         !strstr(scenario->bug_on, "y ==");
}

#define CONTRACT_FILTER_BITS 1024

/* ---- The primitive table at run time ----
 *
 * Lowering looks up every macro name of every expansion chain, so names are
 * found through an open-addressing hash table rather than a scan. The table
 * is built once for the built-in rows; primitive files add to it before any
 * lowering starts, so lookups never need a lock. */

/* Plain arrays rather than bp_vec: the litmus generator builds this file
 * alone, without the rest of the engine. */
static struct {
  bp_primitive *primitives; /* the rows primitive files added (names owned) */
  size_t primitive_count, primitive_capacity;
  bp_family_row *families; /* likewise (strings owned) */
  size_t family_count, family_capacity;
  exclusive_row *exclusives; /* likewise */
  size_t exclusive_count, exclusive_capacity;
  bp_contract *contracts; /* likewise */
  size_t contract_count, contract_capacity;
  /* bit hash % CONTRACT_FILTER_BITS of every contract's function name: most
   * functions the front end asks about have none */
  uint64_t contract_filter[CONTRACT_FILTER_BITS / 64];
  int32_t *slots;    /* primitive index + 1; 0 is empty */
  size_t slot_count; /* a power of two, at least twice the number of rows */
} table;

static once_flag table_once = ONCE_FLAG_INIT;
static void rebuild_contract_filter(void);

static uint64_t hash_name(const char *name, size_t len) {
  uint64_t hash = 14695981039346656037u; /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    hash = (hash ^ (unsigned char)name[i]) * 1099511628211u;
  return hash;
}

static bool name_is(const char *stored, const char *name, size_t len) {
  return strncmp(stored, name, len) == 0 && stored[len] == '\0';
}

static void insert_slot(int index) {
  const char *name = bp_primitive_get(index)->name;
  size_t mask = table.slot_count - 1;
  size_t slot = (size_t)hash_name(name, strlen(name)) & mask;
  while (table.slots[slot])
    slot = (slot + 1) & mask;
  table.slots[slot] = index + 1;
}

static void rebuild_index(void) {
  size_t count = bp_primitive_count(), slots = 64;
  while (slots < 2 * count)
    slots *= 2;
  free(table.slots);
  table.slots = calloc(slots, sizeof *table.slots);
  if (!table.slots)
    abort();
  table.slot_count = slots;
  for (size_t i = 0; i < count; i++)
    insert_slot((int)i);
}

static void build_builtin_index(void) {
  rebuild_index();
  rebuild_contract_filter();
}

/* Room for one more item in a growable array; returns the array. */
static void *grow(void *items, size_t count, size_t *capacity, size_t item_size) {
  if (count < *capacity)
    return items;
  *capacity = *capacity ? 2 * *capacity : 16;
  items = realloc(items, *capacity * item_size);
  if (!items)
    abort();
  return items;
}

static void ensure_index(void) {
  call_once(&table_once, build_builtin_index);
}

int bp_primitive_find(const char *name, size_t len) {
  ensure_index();
  size_t mask = table.slot_count - 1;
  for (size_t slot = (size_t)hash_name(name, len) & mask; table.slots[slot];
       slot = (slot + 1) & mask) {
    int index = table.slots[slot] - 1;
    if (name_is(bp_primitive_get(index)->name, name, len))
      return index;
  }
  return BP_NO_PRIMITIVE;
}

bool bp_primitive_reports_store(int index) {
  const bp_primitive *primitive = bp_primitive_get(index);
  if (!primitive || primitive->op != BP_OP_RMW)
    return false;
  const char *name = primitive->name;
  return strstr(name, "compare_exchange") || strstr(name, "bool_compare_and_swap") ||
         strncmp(name, "ck_pr_cas_", strlen("ck_pr_cas_")) == 0 || strstr(name, "cmpset");
}

bool bp_primitive_exchanges(int index) {
  const bp_primitive *primitive = bp_primitive_get(index);
  if (!primitive || primitive->op != BP_OP_RMW)
    return false;
  const char *name = primitive->name;
  return (strstr(name, "xchg") && !strstr(name, "cmpxchg")) ||
         (strstr(name, "exchange") && !strstr(name, "compare")) ||
         strncmp(name, "ck_pr_fas_", strlen("ck_pr_fas_")) == 0;
}

const bp_primitive *bp_primitive_get(int index) {
  if (index < 0)
    return NULL;
  if ((size_t)index < BUILTIN_PRIMITIVE_COUNT)
    return &builtin_primitives[index];
  if ((size_t)index - BUILTIN_PRIMITIVE_COUNT < table.primitive_count)
    return &table.primitives[(size_t)index - BUILTIN_PRIMITIVE_COUNT];
  return NULL;
}

size_t bp_primitive_count(void) {
  return BUILTIN_PRIMITIVE_COUNT + table.primitive_count;
}

size_t bp_builtin_primitive_count(void) {
  return BUILTIN_PRIMITIVE_COUNT;
}

static char *copy_string(const char *text) {
  size_t size = strlen(text) + 1;
  char *copy = malloc(size);
  if (!copy)
    abort();
  return memcpy(copy, text, size);
}

int bp_table_add_primitive(const char *name, bp_family family, bp_op op, bp_order order) {
  ensure_index();
  table.primitives = grow(table.primitives, table.primitive_count, &table.primitive_capacity,
                          sizeof *table.primitives);
  table.primitives[table.primitive_count++] = (bp_primitive){copy_string(name), family, op, order};
  int index = (int)bp_primitive_count() - 1;
  if (2 * bp_primitive_count() > table.slot_count)
    rebuild_index();
  else
    insert_slot(index);
  return index;
}

bp_family bp_table_add_family(const char *id, const char *name, const char *const spelling[3]) {
  ensure_index();
  table.families =
      grow(table.families, table.family_count, &table.family_capacity, sizeof *table.families);
  bp_family_row *row = &table.families[table.family_count++];
  *row = (bp_family_row){0};
  row->id = copy_string(id);
  row->name = copy_string(name);
  for (int i = 0; i < 3; i++)
    row->spelling[i] = copy_string(spelling[i]);
  return (bp_family)(BP_FAMILY_COUNT + table.family_count - 1);
}

bool bp_table_set_marking(bp_family family, const char *load, const char *store) {
  const char *const *existing = markings_of(family);
  if (existing)
    return strcmp(existing[0], load) == 0 && strcmp(existing[1], store) == 0;
  if ((size_t)family < BP_FAMILY_COUNT || (size_t)family - BP_FAMILY_COUNT >= table.family_count)
    return false;
  bp_family_row *row = &table.families[(size_t)family - BP_FAMILY_COUNT];
  row->marking[0] = copy_string(load);
  row->marking[1] = copy_string(store);
  return true;
}

void bp_table_add_exclusive(const char *group, const char *function) {
  table.exclusives = grow(table.exclusives, table.exclusive_count, &table.exclusive_capacity,
                          sizeof *table.exclusives);
  table.exclusives[table.exclusive_count++] =
      (exclusive_row){copy_string(group), copy_string(function)};
}

size_t bp_exclusive_count(void) {
  return BUILTIN_EXCLUSIVE_COUNT + table.exclusive_count;
}

const char *bp_exclusive_group(const char *function) {
  for (size_t i = 0; function && *function && i < bp_exclusive_count(); i++) {
    const exclusive_row *row = i < BUILTIN_EXCLUSIVE_COUNT
                                   ? &builtin_exclusives[i]
                                   : &table.exclusives[i - BUILTIN_EXCLUSIVE_COUNT];
    if (strcmp(row->function, function) == 0)
      return row->group;
  }
  return NULL;
}

static void rebuild_contract_filter(void) {
  memset(table.contract_filter, 0, sizeof table.contract_filter);
  for (size_t i = 0; i < bp_contract_count(); i++) {
    const char *name = bp_contract_get(i)->function;
    size_t bit = (size_t)hash_name(name, strlen(name)) % CONTRACT_FILTER_BITS;
    table.contract_filter[bit / 64] |= UINT64_C(1) << (bit % 64);
  }
}

void bp_table_add_contract(const char *function, bp_contract_side side, bp_order order) {
  ensure_index();
  table.contracts = grow(table.contracts, table.contract_count, &table.contract_capacity,
                         sizeof *table.contracts);
  table.contracts[table.contract_count++] = (bp_contract){copy_string(function), side, order};
  rebuild_contract_filter();
}

size_t bp_contract_count(void) {
  return BUILTIN_CONTRACT_COUNT + table.contract_count;
}

const bp_contract *bp_contract_get(size_t index) {
  if (index < BUILTIN_CONTRACT_COUNT)
    return &builtin_contracts[index];
  index -= BUILTIN_CONTRACT_COUNT;
  return index < table.contract_count ? &table.contracts[index] : NULL;
}

const bp_contract *bp_contract_find(const char *function, size_t len, bp_contract_side side) {
  if (!bp_has_contract(function, len))
    return NULL;
  for (size_t i = 0; i < bp_contract_count(); i++) {
    const bp_contract *contract = bp_contract_get(i);
    if (contract->side == side && strncmp(contract->function, function, len) == 0 &&
        contract->function[len] == '\0')
      return contract;
  }
  return NULL;
}

bool bp_has_contract(const char *function, size_t len) {
  ensure_index();
  size_t bit = (size_t)hash_name(function, len) % CONTRACT_FILTER_BITS;
  if (!(table.contract_filter[bit / 64] & (UINT64_C(1) << (bit % 64))))
    return false;
  for (size_t i = 0; i < bp_contract_count(); i++) {
    const char *name = bp_contract_get(i)->function;
    if (strncmp(name, function, len) == 0 && name[len] == '\0')
      return true;
  }
  return false;
}

void bp_table_truncate(size_t primitive_count, size_t family_count, size_t exclusive_count,
                       size_t contract_count) {
  ensure_index();
  while (bp_contract_count() > contract_count && table.contract_count)
    free((char *)table.contracts[--table.contract_count].function);
  rebuild_contract_filter();
  while (bp_exclusive_count() > exclusive_count && table.exclusive_count) {
    exclusive_row *row = &table.exclusives[--table.exclusive_count];
    free((char *)row->group);
    free((char *)row->function);
  }
  while (bp_primitive_count() > primitive_count && table.primitive_count)
    free((char *)table.primitives[--table.primitive_count].name);
  while (bp_family_count() > family_count && table.family_count) {
    bp_family_row *row = &table.families[--table.family_count];
    free((char *)row->id);
    free((char *)row->name);
    for (int i = 0; i < 3; i++)
      free((char *)row->spelling[i]);
    for (int i = 0; i < 2; i++)
      free((char *)row->marking[i]);
  }
  rebuild_index();
}

void bp_primitives_reset(void) {
  bp_table_truncate(BUILTIN_PRIMITIVE_COUNT, BP_FAMILY_COUNT, BUILTIN_EXCLUSIVE_COUNT,
                    BUILTIN_CONTRACT_COUNT);
}

size_t bp_family_count(void) {
  return BP_FAMILY_COUNT + table.family_count;
}

const bp_family_row *bp_family_get(bp_family family) {
  if ((size_t)family < BP_FAMILY_COUNT)
    return &builtin_families[family];
  if ((size_t)family - BP_FAMILY_COUNT < table.family_count)
    return &table.families[(size_t)family - BP_FAMILY_COUNT];
  return NULL;
}

int bp_family_find(const char *id, size_t len) {
  for (size_t i = 0; i < bp_family_count(); i++) {
    if (name_is(bp_family_get((bp_family)i)->id, id, len))
      return (int)i;
  }
  return -1;
}

const char *bp_family_id(bp_family family) {
  const bp_family_row *row = bp_family_get(family);
  return row ? row->id : "";
}

const char *bp_family_name(bp_family family) {
  const bp_family_row *row = bp_family_get(family);
  return row ? row->name : "";
}

bp_order bp_order_from_c11(int memory_order) {
  switch (memory_order) {
  case 0:
    return BP_ORDER_RELAXED;
  case 1:
    return BP_ORDER_CONSUME;
  case 2:
    return BP_ORDER_ACQUIRE;
  case 3:
    return BP_ORDER_RELEASE;
  case 4:
    return BP_ORDER_ACQ_REL;
  default:
    return BP_ORDER_SEQ_CST;
  }
}

unsigned bp_order_strength(bp_order order) {
  switch (order) {
  case BP_ORDER_RMB:
  case BP_ORDER_CONSUME:
  case BP_ORDER_ACQUIRE:
    return BP_STRENGTH_LOADS;
  case BP_ORDER_WMB:
  case BP_ORDER_RELEASE:
  case BP_ORDER_PUBLISH:
    return BP_STRENGTH_STORES;
  case BP_ORDER_ACQ_REL:
    return BP_STRENGTH_LOADS | BP_STRENGTH_STORES;
  case BP_ORDER_MB:
  case BP_ORDER_SEQ_CST:
    return BP_STRENGTH_FULL;
  case BP_ORDER_MEMBARRIER:
    return BP_STRENGTH_FULL | BP_STRENGTH_MEMBARRIER;
  default:
    return BP_STRENGTH_NONE;
  }
}

const char *bp_barrier_spelling(bp_family family, unsigned strength) {
  const bp_family_row *row = bp_family_get(family);
  if (!row)
    row = &builtin_families[BP_FAMILY_URCU];
  if (strength == BP_STRENGTH_LOADS)
    return row->spelling[1];
  if (strength == BP_STRENGTH_STORES)
    return row->spelling[2];
  return row->spelling[0];
}

const char *bp_rule_name(bp_rule rule) {
  return rule < BP_RULE_COUNT ? rule_names[rule] : "";
}

int bp_rule_find(const char *name) {
  for (int i = 0; i < BP_RULE_COUNT; i++) {
    if (strcmp(rule_names[i], name) == 0)
      return i;
  }
  return -1;
}

bool bp_op_is_rmw(bp_op op) {
  return op == BP_OP_RMW || op == BP_OP_OR || op == BP_OP_AND || op == BP_OP_XOR || op == BP_OP_BIT;
}

bool bp_op_is_trylock(bp_op op) {
  return op == BP_OP_TRYLOCK || op == BP_OP_TRYLOCK_ZERO || op == BP_OP_READ_TRYLOCK ||
         op == BP_OP_READ_TRYLOCK_ZERO;
}

bool bp_op_is_reader_lock(bp_op op) {
  return op == BP_OP_READ_LOCK || op == BP_OP_READ_TRYLOCK || op == BP_OP_READ_TRYLOCK_ZERO;
}

bool bp_op_is_lock(bp_op op) {
  return op == BP_OP_LOCK || op == BP_OP_READ_LOCK || op == BP_OP_UNLOCK || op == BP_OP_LOCK_HELD ||
         bp_op_is_trylock(op);
}
