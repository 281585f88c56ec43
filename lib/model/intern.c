/* Growable arrays and the string interner. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *pointer, size_t size) {
  void *result = realloc(pointer, size ? size : 1);
  if (!result)
    abort();
  return result;
}

void bp_vec_init(bp_vec *vec, size_t item_size) {
  vec->items = NULL;
  vec->count = vec->capacity = 0;
  vec->item_size = item_size;
}

void *bp_vec_push(bp_vec *vec) {
  if (vec->count == vec->capacity) {
    vec->capacity = vec->capacity ? vec->capacity * 2 : 8;
    vec->items = xrealloc(vec->items, vec->capacity * vec->item_size);
  }
  void *item = (char *)vec->items + vec->count++ * vec->item_size;
  memset(item, 0, vec->item_size);
  return item;
}

void bp_vec_free(bp_vec *vec) {
  free(vec->items);
  bp_vec_init(vec, vec->item_size);
}

static uint64_t hash_string(const char *string) {
  uint64_t hash = 1469598103934665603ull; /* FNV-1a */
  for (; *string; string++)
    hash = (hash ^ (unsigned char)*string) * 1099511628211ull;
  return hash;
}

void bp_interner_init(bp_interner *interner) {
  bp_vec_init(&interner->strings, sizeof(char *));
  interner->slots = NULL;
  interner->slot_count = 0;
}

static void rehash(bp_interner *interner) {
  size_t count = interner->slot_count ? interner->slot_count * 2 : 64;
  uint32_t *slots = calloc(count, sizeof *slots);
  if (!slots)
    abort();
  for (size_t id = 0; id < interner->strings.count; id++) {
    const char *string = *(char **)bp_vec_at(&interner->strings, id);
    size_t slot = hash_string(string) & (count - 1);
    while (slots[slot])
      slot = (slot + 1) & (count - 1);
    slots[slot] = (uint32_t)id + 1;
  }
  free(interner->slots);
  interner->slots = slots;
  interner->slot_count = count;
}

uint32_t bp_interner_add(bp_interner *interner, const char *string) {
  if ((interner->strings.count + 1) * 2 > interner->slot_count)
    rehash(interner);
  size_t mask = interner->slot_count - 1;
  size_t slot = hash_string(string) & mask;
  for (; interner->slots[slot]; slot = (slot + 1) & mask) {
    uint32_t id = interner->slots[slot] - 1;
    if (strcmp(bp_interner_get(interner, id), string) == 0)
      return id;
  }
  size_t length = strlen(string) + 1;
  char *copy = xrealloc(NULL, length);
  memcpy(copy, string, length);
  *(char **)bp_vec_push(&interner->strings) = copy;
  uint32_t id = (uint32_t)interner->strings.count - 1;
  interner->slots[slot] = id + 1;
  return id;
}

uint32_t bp_interner_find(const bp_interner *interner, const char *string) {
  if (!interner->slot_count)
    return UINT32_MAX;
  size_t mask = interner->slot_count - 1;
  for (size_t slot = hash_string(string) & mask; interner->slots[slot]; slot = (slot + 1) & mask) {
    uint32_t id = interner->slots[slot] - 1;
    if (strcmp(bp_interner_get(interner, id), string) == 0)
      return id;
  }
  return UINT32_MAX;
}

const char *bp_interner_get(const bp_interner *interner, uint32_t id) {
  if (id >= interner->strings.count)
    return "";
  return *(char **)bp_vec_at(&interner->strings, id);
}

void bp_interner_free(bp_interner *interner) {
  for (size_t id = 0; id < interner->strings.count; id++)
    free(*(char **)bp_vec_at(&interner->strings, id));
  bp_vec_free(&interner->strings);
  free(interner->slots);
  interner->slots = NULL;
  interner->slot_count = 0;
}
