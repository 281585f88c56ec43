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

static void print_value(FILE *out, const struct lf_prop *prop) {
  if (prop->symbol[0])
    fputs(prop->symbol, out);
  else
    fprintf(out, "%ld", prop->value);
}

void lf_prop_print(FILE *out, const struct lf_prop *prop) {
  switch (prop->kind) {
  case LF_TRUE:
    fputs("true", out);
    return;
  case LF_FALSE:
    fputs("false", out);
    return;
  case LF_EQUAL:
  case LF_NOT_EQUAL:
    if (prop->thread >= 0)
      fprintf(out, "%d:", prop->thread);
    fprintf(out, "%s%s", prop->name, prop->kind == LF_EQUAL ? "=" : "!=");
    print_value(out, prop);
    return;
  case LF_NOT:
    fputs("~", out);
    lf_prop_print(out, prop->left);
    return;
  case LF_AND:
  case LF_OR:
    fputs("(", out);
    lf_prop_print(out, prop->left);
    fputs(prop->kind == LF_AND ? " /\\ " : " \\/ ", out);
    lf_prop_print(out, prop->right);
    fputs(")", out);
    return;
  }
}
