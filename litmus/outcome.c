/* See outcome.h. */
#include "outcome.h"

#include <stdio.h>

static unsigned digit(int value) {
  return value >= 0 && value <= 2 ? (unsigned)value : 3;
}

unsigned outcome_encode(const struct litmus_outcome *outcome) {
  unsigned state = 0;
  for (int i = 0; i < LITMUS_REGISTERS; i++)
    state = state * 4 + digit(outcome->r[i]);
  state = state * 4 + digit(outcome->x);
  return state * 4 + digit(outcome->y);
}

void outcome_decode(unsigned state, struct litmus_outcome *outcome) {
  outcome->y = (int)(state % 4);
  state /= 4;
  outcome->x = (int)(state % 4);
  state /= 4;
  for (int i = LITMUS_REGISTERS - 1; i >= 0; i--) {
    outcome->r[i] = (int)(state % 4);
    state /= 4;
  }
}

void outcome_mask(const struct litmus_test *test, struct litmus_outcome *outcome) {
  for (int i = 0; i < LITMUS_REGISTERS; i++)
    if (!(test->registers & (1u << i)))
      outcome->r[i] = 0;
  if (!test->shows_final_x)
    outcome->x = 0;
  if (!test->shows_final_y)
    outcome->y = 0;
}

static size_t append_field(char *buffer, size_t size, size_t used, const char *name, int value) {
  int written = value <= 2 ? snprintf(buffer + used, used < size ? size - used : 0, "%s%s=%d;",
                                      used ? " " : "", name, value)
                           : snprintf(buffer + used, used < size ? size - used : 0, "%s%s=?;",
                                      used ? " " : "", name);
  return used + (size_t)written;
}

void outcome_format(const struct litmus_test *test, unsigned state, char *buffer, size_t size) {
  struct litmus_outcome outcome;
  static const char *const names[LITMUS_REGISTERS] = {"r1", "r2", "r3", "r4"};
  size_t used = 0;
  outcome_decode(state, &outcome);
  buffer[0] = '\0';
  for (int i = 0; i < LITMUS_REGISTERS; i++)
    if (test->registers & (1u << i))
      used = append_field(buffer, size, used, names[i], outcome.r[i]);
  if (test->shows_final_x)
    used = append_field(buffer, size, used, "x", outcome.x);
  if (test->shows_final_y)
    append_field(buffer, size, used, "y", outcome.y);
}
