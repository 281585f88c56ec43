/* Reads a row of scenarios.def as a program; see scenario_program.h. */
#include "scenario_program.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool fail(char *error, size_t error_size, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(error, error_size, format, args);
  va_end(args);
  return false;
}

/* One statement of the article's notation, without its ';'. Returns false
 * if it is none of: `rK = CAO(v)`, `CAO(v) = N`, `cmm_smp_mb()`,
 * `cmm_smp_{r,}mb()`, `cmm_smp_{w,}mb()`. */
static bool read_statement(const char *text, struct scenario_cpu *cpu) {
  char variable[2];
  int number, end = -1;
  if (strcmp(text, "cmm_smp_mb()") == 0 || strcmp(text, "cmm_smp_{r,}mb()") == 0 ||
      strcmp(text, "cmm_smp_{w,}mb()") == 0) {
    if (cpu->barrier || cpu->access_count != 1)
      return false; /* the table puts exactly one barrier between two accesses */
    cpu->barrier = text[8] == '{' ? text[9] : 'm';
    return true;
  }
  if (cpu->access_count == 2)
    return false;
  struct scenario_access *access = &cpu->accesses[cpu->access_count];
  if (sscanf(text, "r%d = CAO(%1[xy])%n", &number, variable, &end) == 2 && end >= 0 &&
      text[end] == '\0') {
    *access = (struct scenario_access){LITMUS_LOAD, variable[0], number, 0};
  } else if (sscanf(text, "CAO(%1[xy]) = %d%n", variable, &number, &end) == 2 && end >= 0 &&
             text[end] == '\0') {
    *access = (struct scenario_access){LITMUS_STORE, variable[0], 0, number};
  } else {
    return false;
  }
  cpu->access_count++;
  return true;
}

static bool read_cpu(const char *code, struct scenario_cpu *cpu, char *error, size_t error_size) {
  char statement[128];
  *cpu = (struct scenario_cpu){0};
  while (*code) {
    while (isspace((unsigned char)*code))
      code++;
    const char *end = strchr(code, ';');
    if (!end) {
      if (*code)
        return fail(error, error_size, "statement without ';': \"%s\"", code);
      break;
    }
    size_t length = (size_t)(end - code);
    if (length >= sizeof statement)
      return fail(error, error_size, "statement too long: \"%s\"", code);
    memcpy(statement, code, length);
    statement[length] = '\0';
    if (!read_statement(statement, cpu))
      return fail(error, error_size, "cannot read \"%s\" as an access or barrier here", statement);
    code = end + 1;
  }
  return true;
}

/* CPU 0 accesses x then y, CPU 1 y then x, with the barrier between. */
static bool check_main_cpu(const struct scenario_program *program, int index, char *error,
                           size_t error_size) {
  const struct scenario_cpu *cpu = &program->cpu[index];
  const char first = index == 0 ? 'x' : 'y', second = index == 0 ? 'y' : 'x';
  if (cpu->access_count != 2 || !cpu->barrier)
    return fail(error, error_size, "CPU %d must make two accesses with a barrier between them",
                index);
  if (cpu->accesses[0].variable != first || cpu->accesses[1].variable != second)
    return fail(error, error_size, "CPU %d must access %c, then %c", index, first, second);
  if (cpu->barrier != program->row->barrier[index])
    return fail(error, error_size, "CPU %d's code has barrier '%c' but its column says '%c'", index,
                cpu->barrier, program->row->barrier[index]);
  return true;
}

static bool stores(const struct scenario_cpu *cpu, char variable) {
  for (int i = 0; i < cpu->access_count; i++)
    if (cpu->accesses[i].kind == LITMUS_STORE && cpu->accesses[i].variable == variable)
      return true;
  return false;
}

/* CPU 2 stores x and CPU 3 stores y, each exactly when neither main CPU does. */
static bool check_extra_cpu(const struct scenario_program *program, int index, char *error,
                            size_t error_size) {
  const struct scenario_cpu *cpu = &program->cpu[index];
  const char variable = index == 2 ? 'x' : 'y';
  bool needed = !stores(&program->cpu[0], variable) && !stores(&program->cpu[1], variable);
  if (!needed && cpu->access_count == 0)
    return true;
  if (!needed)
    return fail(error, error_size, "CPU %d is there but CPU 0 or CPU 1 already stores %c", index,
                variable);
  if (cpu->access_count != 1 || cpu->barrier || cpu->accesses[0].kind != LITMUS_STORE ||
      cpu->accesses[0].variable != variable)
    return fail(error, error_size, "CPU %d must make exactly one store to %c", index, variable);
  return true;
}

/* The identifiers of BUG_ON() must be registers some CPU loads, x or y. */
static bool read_bug_on(struct scenario_program *program, char *error, size_t error_size) {
  const char *p = program->row->bug_on;
  while (*p) {
    if (!isalpha((unsigned char)*p)) {
      p++;
      continue;
    }
    const char *start = p;
    while (isalnum((unsigned char)*p) || *p == '_')
      p++;
    size_t length = (size_t)(p - start);
    if (length == 1 && (*start == 'x' || *start == 'y')) {
      *(*start == 'x' ? &program->bug_on_x : &program->bug_on_y) = true;
    } else if (length == 2 && start[0] == 'r' && start[1] >= '1' && start[1] <= '4' &&
               (program->registers & (1u << (start[1] - '1')))) {
      program->registers_in_bug_on |= 1u << (start[1] - '1');
    } else {
      return fail(error, error_size, "BUG_ON() names \"%.*s\", which no CPU loads", (int)length,
                  start);
    }
  }
  return true;
}

bool scenario_program_read(int number, struct scenario_program *program, char *error,
                           size_t error_size) {
  *program = (struct scenario_program){0};
  program->row = bp_scenario_get(number);
  if (!program->row || program->row->number != number)
    return fail(error, error_size, "row %d is missing or out of order", number);

  for (int index = 0; index < LITMUS_MAX_THREADS; index++) {
    char detail[160];
    if (!read_cpu(program->row->code[index], &program->cpu[index], detail, sizeof detail))
      return fail(error, error_size, "CPU %d: %s", index, detail);
  }
  if (!check_main_cpu(program, 0, error, error_size) ||
      !check_main_cpu(program, 1, error, error_size))
    return false;

  const struct scenario_cpu *cpu0 = &program->cpu[0], *cpu1 = &program->cpu[1];
  int implied = bp_scenario_number(
      cpu0->accesses[0].kind == LITMUS_STORE, cpu0->accesses[1].kind == LITMUS_STORE,
      cpu1->accesses[0].kind == LITMUS_STORE, cpu1->accesses[1].kind == LITMUS_STORE);
  if (implied != number)
    return fail(error, error_size, "the code's loads and stores make scenario %d", implied);

  if (!check_extra_cpu(program, 2, error, error_size) ||
      !check_extra_cpu(program, 3, error, error_size))
    return false;

  for (int index = 0; index < LITMUS_MAX_THREADS; index++) {
    const struct scenario_cpu *cpu = &program->cpu[index];
    for (int i = 0; i < cpu->access_count; i++) {
      if (cpu->accesses[i].kind != LITMUS_LOAD)
        continue;
      int reg = cpu->accesses[i].reg;
      if (reg < 1 || reg > LITMUS_REGISTERS || (program->registers & (1u << (reg - 1))))
        return fail(error, error_size, "register r%d is out of range or loaded twice", reg);
      program->registers |= 1u << (reg - 1);
    }
  }
  return read_bug_on(program, error, error_size);
}
