/* See lf_file.h: the final condition evaluated on one final state. */
#include "lf_file.h"

#include <string.h>

static long symbol_value(const struct lf_file *file, const char *symbol) {
  for (size_t i = 0; i < file->var_count; i++)
    if (strcmp(file->vars[i].name, symbol) == 0)
      return lf_pointer_value(i);
  return 0;
}

bool lf_prop_holds(const struct lf_file *file, const struct lf_prop *prop, lf_value_of value,
                   void *context) {
  switch (prop->kind) {
  case LF_TRUE:
    return true;
  case LF_FALSE:
    return false;
  case LF_EQUAL:
  case LF_NOT_EQUAL: {
    struct lf_location location = {.thread = prop->thread};
    memcpy(location.name, prop->name, sizeof location.name);
    long actual = value(&location, context);
    long wanted = prop->symbol[0] ? symbol_value(file, prop->symbol) : prop->value;
    return (actual == wanted) == (prop->kind == LF_EQUAL);
  }
  case LF_NOT:
    return !lf_prop_holds(file, prop->left, value, context);
  case LF_AND:
    return lf_prop_holds(file, prop->left, value, context) &&
           lf_prop_holds(file, prop->right, value, context);
  case LF_OR:
    return lf_prop_holds(file, prop->left, value, context) ||
           lf_prop_holds(file, prop->right, value, context);
  }
  return false;
}
