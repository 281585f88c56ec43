/* Writes one litmus test as C: the row's threads as functions cpu0..cpu3
 * and the descriptor the harness runs. The functions are what the analyzer
 * cross-check reads, so they contain the article's accesses and the
 * variant's barrier and nothing else. */
#include "gen.h"

#include <stdio.h>
#include <string.h>

void generated_test_file_name(const struct generated_test *test, char *buffer, size_t size) {
  snprintf(buffer, size, "s%02d_%s.c", test->program->row->number, test->variant->name);
}

void generated_test_symbol(const struct generated_test *test, char *buffer, size_t size) {
  snprintf(buffer, size, "litmus_test_s%02d_%s", test->program->row->number, test->variant->name);
}

void generated_test_name(const struct generated_test *test, char *buffer, size_t size) {
  snprintf(buffer, size, "S%d+%s", test->program->row->number, test->variant->name);
}

/* The barrier a CPU of this test gets: the variant's for CPU 0 and 1; the
 * extra CPUs make a single store and have none. */
static enum litmus_barrier barrier_of(const struct generated_test *test, int cpu) {
  return cpu < 2 ? test->variant->barrier[cpu] : LITMUS_BARRIER_NONE;
}

static size_t append(char *buffer, size_t size, size_t used, const char *text) {
  int written = snprintf(buffer + used, used < size ? size - used : 0, "%s", text);
  return used + (size_t)written;
}

void generated_test_code(const struct generated_test *test, int cpu, char *buffer, size_t size) {
  const struct scenario_cpu *code = &test->program->cpu[cpu];
  char statement[64];
  size_t used = 0;
  buffer[0] = '\0';
  for (int i = 0; i < code->access_count; i++) {
    const struct scenario_access *access = &code->accesses[i];
    if (access->kind == LITMUS_LOAD)
      snprintf(statement, sizeof statement, "%sr%d = CAO(%c);", used ? " " : "", access->reg,
               access->variable);
    else
      snprintf(statement, sizeof statement, "%sCAO(%c) = %d;", used ? " " : "", access->variable,
               access->value);
    used = append(buffer, size, used, statement);
    if (i == 0 && barrier_of(test, cpu) != LITMUS_BARRIER_NONE) {
      snprintf(statement, sizeof statement, " %s;",
               variant_barrier_spelling(barrier_of(test, cpu)));
      used = append(buffer, size, used, statement);
    }
  }
}

static void emit_thread(FILE *out, const struct generated_test *test, int cpu) {
  const struct scenario_cpu *code = &test->program->cpu[cpu];
  fprintf(out, "static struct litmus_registers cpu%d(size_t i) {\n", cpu);
  for (int i = 0; i < code->access_count; i++) {
    const struct scenario_access *access = &code->accesses[i];
    if (access->kind == LITMUS_LOAD)
      fprintf(out, "  const int r%d = CMM_LOAD_SHARED(%c[i]);\n", access->reg, access->variable);
    else
      fprintf(out, "  CMM_STORE_SHARED(%c[i], %d);\n", access->variable, access->value);
    if (i == 0 && barrier_of(test, cpu) != LITMUS_BARRIER_NONE)
      fprintf(out, "  %s;\n", variant_barrier_spelling(barrier_of(test, cpu)));
  }
  fprintf(out, "  return (struct litmus_registers){.r = {");
  int loads = 0;
  for (int i = 0; i < code->access_count; i++) {
    const struct scenario_access *access = &code->accesses[i];
    if (access->kind == LITMUS_LOAD)
      fprintf(out, "%s[%d] = r%d", loads++ ? ", " : "", access->reg - 1, access->reg);
  }
  fprintf(out, "%s}};\n}\n\n", loads ? "" : "0");
}

static const char *expectation_text(enum litmus_expectation expectation) {
  switch (expectation) {
  case LITMUS_SIDE_MISSING_BARRIER:
    return "no barrier (missing-barrier)";
  case LITMUS_SIDE_WEAK_BARRIER:
    return "a barrier too weak or of the wrong kind (weak-barrier)";
  default:
    return "enough";
  }
}

static const char *enum_barrier(enum litmus_barrier barrier) {
  static const char *const names[] = {"LITMUS_BARRIER_NONE", "LITMUS_BARRIER_RMB",
                                      "LITMUS_BARRIER_WMB", "LITMUS_BARRIER_MB"};
  return names[barrier];
}

static const char *enum_expectation(enum litmus_expectation expectation) {
  static const char *const names[] = {"LITMUS_SIDE_CORRECT", "LITMUS_SIDE_MISSING_BARRIER",
                                      "LITMUS_SIDE_WEAK_BARRIER"};
  return names[expectation];
}

static void emit_step(FILE *out, const struct litmus_step *step) {
  static const char *const kinds[] = {"LITMUS_STEP_LOAD", "LITMUS_STEP_STORE",
                                      "LITMUS_STEP_BARRIER"};
  fprintf(out, "{%s, '%c', %d, %d, %s}", kinds[step->kind], step->variable ? step->variable : '-',
          step->reg, step->value, enum_barrier(step->barrier));
}

/* The threads again as data, in program order. */
static void emit_steps(FILE *out, const struct generated_test *test) {
  int counts[LITMUS_MAX_THREADS];
  fprintf(out, "    .steps = {");
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++) {
    const struct scenario_cpu *code = &test->program->cpu[cpu];
    counts[cpu] = 0;
    fprintf(out, "%s{", cpu ? ",\n              " : "");
    for (int i = 0; i < code->access_count; i++) {
      const struct scenario_access *access = &code->accesses[i];
      struct litmus_step step = {access->kind == LITMUS_LOAD ? LITMUS_STEP_LOAD : LITMUS_STEP_STORE,
                                 access->variable, access->kind == LITMUS_LOAD ? access->reg : 0,
                                 access->kind == LITMUS_STORE ? access->value : 0,
                                 LITMUS_BARRIER_NONE};
      fprintf(out, "%s", counts[cpu]++ ? ", " : "");
      emit_step(out, &step);
      if (i == 0 && barrier_of(test, cpu) != LITMUS_BARRIER_NONE) {
        struct litmus_step barrier = {LITMUS_STEP_BARRIER, 0, 0, 0, barrier_of(test, cpu)};
        fprintf(out, ", ");
        emit_step(out, &barrier);
        counts[cpu]++;
      }
    }
    fprintf(out, "%s}", counts[cpu] ? "" : "{0}"); /* ISO C has no empty braces */
  }
  fprintf(out, "},\n    .step_count = {%d, %d, %d, %d},\n", counts[0], counts[1], counts[2],
          counts[3]);
}

static void emit_header_comment(FILE *out, const struct generated_test *test) {
  const struct scenario_program *program = test->program;
  const struct variant *variant = test->variant;
  fprintf(out,
          "/* Generated by barrierpair-litmus-gen from include/barrierpair/scenarios.def.\n"
          " * Do not edit: change the table or litmus/variants.c instead.\n"
          " *\n"
          " * Scenario %d%s%s%s, variant %s: %s.\n",
          program->row->number, program->row->name[0] ? " (" : "", program->row->name,
          program->row->name[0] ? ")" : "", variant->name, variant->description);
  for (int cpu = 0; cpu < 2; cpu++)
    fprintf(out, " *   CPU %d: %s; the row allows %s: %s.\n", cpu,
            variant->barrier[cpu] == LITMUS_BARRIER_NONE
                ? "no barrier"
                : variant_barrier_spelling(variant->barrier[cpu]),
            variant_barrier_spelling(variant_weakest_barrier(program->row->number, cpu)),
            expectation_text(variant->expectation[cpu]));
  fprintf(out, " * Forbidden outcome: %s\n */\n", program->row->bug_on);
}

void emit_test_source(FILE *out, const struct generated_test *test) {
  const struct scenario_program *program = test->program;
  const struct variant *variant = test->variant;
  char buffer[256];

  emit_header_comment(out, test);
  fprintf(out, "#include \"litmus_conditions.h\"\n"
               "#include \"litmus_test.h\"\n\n"
               "#include <urcu/arch.h>\n"
               "#include <urcu/system.h>\n\n"
               "/* The shared variables; instance i of the test uses x[i] and y[i]. */\n"
               "extern int x[LITMUS_SLOTS];\n"
               "extern int y[LITMUS_SLOTS];\n\n");
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++)
    if (program->cpu[cpu].access_count)
      emit_thread(out, test, cpu);

  generated_test_symbol(test, buffer, sizeof buffer);
  fprintf(out, "const struct litmus_test %s = {\n", buffer);
  generated_test_name(test, buffer, sizeof buffer);
  fprintf(out, "    .name = \"%s\",\n", buffer);
  fprintf(out, "    .scenario = %d,\n    .scenario_name = ", program->row->number);
  emit_string(out, program->row->name);
  fprintf(out, ",\n    .variant = \"%s\",\n    .variant_description = ", variant->name);
  emit_string(out, variant->description);
  fprintf(out, ",\n    .barrier = {%s, %s},\n", enum_barrier(variant->barrier[0]),
          enum_barrier(variant->barrier[1]));
  fprintf(out, "    .weakest = {%s, %s},\n",
          enum_barrier(variant_weakest_barrier(program->row->number, 0)),
          enum_barrier(variant_weakest_barrier(program->row->number, 1)));
  fprintf(out, "    .expectation = {%s, %s},\n", enum_expectation(variant->expectation[0]),
          enum_expectation(variant->expectation[1]));
  emit_steps(out, test);
  fprintf(out, "    .threads = {");
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++) {
    fprintf(out, "%s", cpu ? ", " : "");
    if (program->cpu[cpu].access_count)
      fprintf(out, "cpu%d", cpu);
    else
      fprintf(out, "NULL");
  }
  fprintf(out, "},\n    .code = {");
  for (int cpu = 0; cpu < LITMUS_MAX_THREADS; cpu++) {
    fprintf(out, "%s", cpu ? ", " : "");
    if (program->cpu[cpu].access_count) {
      generated_test_code(test, cpu, buffer, sizeof buffer);
      emit_string(out, buffer);
    } else {
      fprintf(out, "NULL");
    }
  }
  fprintf(out, "},\n    .registers = 0x%x,\n", program->registers);
  fprintf(out, "    .shows_final_x = %s,\n    .shows_final_y = %s,\n",
          program->bug_on_x ? "true" : "false", program->bug_on_y ? "true" : "false");
  fprintf(out, "    .bug_on = ");
  emit_string(out, program->row->bug_on);
  fprintf(out, ",\n    .forbidden = litmus_forbidden_s%02d,\n};\n", program->row->number);
}
