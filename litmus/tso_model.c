/* See tso_model.h. The tests have at most four CPUs of three steps each,
 * so a plain depth-first search over all interleavings is instant. */
#include "tso_model.h"

#include "outcome.h"

struct buffered_store {
  int variable; /* 0: x, 1: y */
  int value;
};

struct tso_state {
  int next_step[LITMUS_MAX_THREADS];
  struct buffered_store buffer[LITMUS_MAX_THREADS][LITMUS_MAX_STEPS];
  int buffered[LITMUS_MAX_THREADS];
  int memory[2];
  int registers[LITMUS_REGISTERS];
};

static int variable_index(char variable) {
  return variable == 'x' ? 0 : 1;
}

static bool finished(const struct litmus_test *test, const struct tso_state *state) {
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++)
    if (state->next_step[cpu] < test->step_count[cpu] || state->buffered[cpu])
      return false;
  return true;
}

static bool forbidden(const struct litmus_test *test, const struct tso_state *state) {
  struct litmus_outcome outcome = {.x = state->memory[0], .y = state->memory[1]};
  for (int i = 0; i < LITMUS_REGISTERS; i++)
    outcome.r[i] = state->registers[i];
  outcome_mask(test, &outcome);
  return test->forbidden(&outcome);
}

/* Whether `cpu` can take its next step now, and the state after it. */
static bool step(const struct litmus_test *test, const struct tso_state *state, int cpu,
                 struct tso_state *next) {
  if (state->next_step[cpu] >= test->step_count[cpu])
    return false;
  const struct litmus_step *current = &test->steps[cpu][state->next_step[cpu]];
  *next = *state;
  next->next_step[cpu]++;
  switch (current->kind) {
  case LITMUS_STEP_LOAD: {
    int variable = variable_index(current->variable);
    int value = state->memory[variable];
    for (int i = 0; i < state->buffered[cpu]; i++) /* own newest buffered store wins */
      if (state->buffer[cpu][i].variable == variable)
        value = state->buffer[cpu][i].value;
    next->registers[current->reg - 1] = value;
    return true;
  }
  case LITMUS_STEP_STORE:
    next->buffer[cpu][next->buffered[cpu]++] =
        (struct buffered_store){variable_index(current->variable), current->value};
    return true;
  default:
    return current->barrier != LITMUS_BARRIER_MB || state->buffered[cpu] == 0;
  }
}

/* The oldest buffered store of `cpu` reaches memory. */
static bool drain(const struct tso_state *state, int cpu, struct tso_state *next) {
  if (state->buffered[cpu] == 0)
    return false;
  *next = *state;
  next->memory[state->buffer[cpu][0].variable] = state->buffer[cpu][0].value;
  for (int i = 1; i < state->buffered[cpu]; i++)
    next->buffer[cpu][i - 1] = state->buffer[cpu][i];
  next->buffered[cpu]--;
  return true;
}

static bool search(const struct litmus_test *test, const struct tso_state *state) {
  if (finished(test, state))
    return forbidden(test, state);
  struct tso_state next;
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++) {
    if (step(test, state, cpu, &next) && search(test, &next))
      return true;
    if (drain(state, cpu, &next) && search(test, &next))
      return true;
  }
  return false;
}

bool tso_allows_forbidden(const struct litmus_test *test) {
  static const struct tso_state initial; /* all zero: nothing run, nothing stored */
  return search(test, &initial);
}
