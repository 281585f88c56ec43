/* The growing strings the texts of findings are written into. */
#include "findings/findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void append_list(bp_text *buffer, const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int needed = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (needed < 0)
    abort();
  if (buffer->length + (size_t)needed + 1 > buffer->capacity) {
    buffer->capacity = (buffer->length + (size_t)needed + 1) * 2;
    buffer->text = realloc(buffer->text, buffer->capacity);
    if (!buffer->text)
      abort();
  }
  vsnprintf(buffer->text + buffer->length, (size_t)needed + 1, format, args);
  buffer->length += (size_t)needed;
}

void bp_text_append(bp_text *buffer, const char *format, ...) {
  va_list args;
  va_start(args, format);
  append_list(buffer, format, args);
  va_end(args);
}

const char *bp_contract_barrier_name(const bp_engine *engine, uint32_t event) {
  const bp_event *barrier = bp_event_get(engine, event);
  if (barrier->type != BP_EVENT_BARRIER || barrier->primitive != BP_NO_PRIMITIVE ||
      barrier->implicit)
    return NULL;
  const char *callee = bp_event_callee(engine, event);
  return callee[0] && bp_has_contract(callee, strlen(callee)) ? callee : NULL;
}

void bp_text_append_barrier(bp_text *buffer, const bp_engine *engine, uint32_t event) {
  const bp_primitive *primitive = bp_primitive_get(bp_event_get(engine, event)->primitive);
  const char *contract = bp_contract_barrier_name(engine, event);
  if (primitive)
    bp_text_append(buffer, "'%s()'", primitive->name);
  else if (contract)
    bp_text_append(buffer, "'%s()'", contract);
  else
    bp_text_append(buffer, "a sequentially consistent atomic access");
}
