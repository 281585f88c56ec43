/* Positions and edits of a document's text. */
#include "text_positions.h"

#include <stdlib.h>
#include <string.h>

position_units position_units_named(const char *name) {
  if (name && strcmp(name, "utf-8") == 0)
    return UNITS_UTF8;
  if (name && strcmp(name, "utf-32") == 0)
    return UNITS_UTF32;
  return UNITS_UTF16;
}

static size_t line_start(const char *text, size_t length, uint32_t line) {
  size_t offset = 0;
  for (uint32_t n = 0; n < line; n++) {
    const char *newline = memchr(text + offset, '\n', length - offset);
    if (!newline)
      return length;
    offset = (size_t)(newline - text) + 1;
  }
  return offset;
}

static size_t line_end(const char *text, size_t length, size_t start) {
  const char *newline = memchr(text + start, '\n', length - start);
  return newline ? (size_t)(newline - text) : length;
}

/* The bytes of the UTF-8 sequence that starts with `lead` (1 for a stray
 * continuation byte, so malformed text still advances). */
static size_t sequence_bytes(unsigned char lead) {
  if (lead >= 0xf0)
    return 4;
  if (lead >= 0xe0)
    return 3;
  if (lead >= 0xc0)
    return 2;
  return 1;
}

static uint32_t sequence_units(size_t bytes, position_units units) {
  if (units == UNITS_UTF8)
    return (uint32_t)bytes;
  if (units == UNITS_UTF16)
    return bytes == 4 ? 2 : 1;
  return 1;
}

size_t text_offset(const char *text, size_t length, uint32_t line, uint32_t character,
                   position_units units) {
  size_t offset = line_start(text, length, line);
  size_t end = line_end(text, length, offset);
  uint32_t counted = 0;
  while (offset < end && counted < character) {
    size_t bytes = sequence_bytes((unsigned char)text[offset]);
    if (offset + bytes > end)
      bytes = end - offset;
    counted += sequence_units(bytes, units);
    offset += bytes;
  }
  return offset;
}

uint32_t text_character(const char *text, size_t length, uint32_t line, uint32_t byte_column,
                        position_units units) {
  size_t offset = line_start(text, length, line);
  size_t end = line_end(text, length, offset);
  size_t target = offset + byte_column < end ? offset + byte_column : end;
  uint32_t units_counted = 0;
  while (offset < target) {
    size_t bytes = sequence_bytes((unsigned char)text[offset]);
    if (offset + bytes > target)
      bytes = target - offset;
    units_counted += sequence_units(bytes, units);
    offset += bytes;
  }
  return units_counted;
}

uint32_t text_units(const char *text, size_t bytes, position_units units) {
  uint32_t counted = 0;
  for (size_t offset = 0; offset < bytes;) {
    size_t sequence = sequence_bytes((unsigned char)text[offset]);
    if (offset + sequence > bytes)
      sequence = bytes - offset;
    counted += sequence_units(sequence, units);
    offset += sequence;
  }
  return counted;
}

static bool identifier_byte(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

uint32_t text_identifier_length(const char *text, size_t length, uint32_t line,
                                uint32_t byte_column) {
  size_t start = line_start(text, length, line);
  size_t end = line_end(text, length, start);
  size_t offset = start + byte_column;
  size_t n = 0;
  while (offset + n < end && identifier_byte(text[offset + n]))
    n++;
  return (uint32_t)n;
}

static bool position_of(const json_t *position, uint32_t *line, uint32_t *character) {
  json_t *l = json_object_get(position, "line"), *c = json_object_get(position, "character");
  if (!json_is_integer(l) || !json_is_integer(c) || json_integer_value(l) < 0 ||
      json_integer_value(c) < 0)
    return false;
  *line = (uint32_t)json_integer_value(l);
  *character = (uint32_t)json_integer_value(c);
  return true;
}

bool text_apply_change(char **text, size_t *length, const json_t *change, position_units units) {
  const char *replacement = json_string_value(json_object_get(change, "text"));
  if (!replacement)
    return false;
  size_t replacement_length = json_string_length(json_object_get(change, "text"));
  json_t *range = json_object_get(change, "range");
  size_t from = 0, to = *length;
  if (range) {
    uint32_t start_line, start_character, end_line, end_character;
    if (!position_of(json_object_get(range, "start"), &start_line, &start_character) ||
        !position_of(json_object_get(range, "end"), &end_line, &end_character))
      return false;
    from = text_offset(*text, *length, start_line, start_character, units);
    to = text_offset(*text, *length, end_line, end_character, units);
    if (to < from)
      return false;
  }
  size_t new_length = *length - (to - from) + replacement_length;
  char *result = malloc(new_length + 1);
  if (!result)
    abort();
  memcpy(result, *text, from);
  memcpy(result + from, replacement, replacement_length);
  memcpy(result + from + replacement_length, *text + to, *length - to);
  result[new_length] = '\0';
  free(*text);
  *text = result;
  *length = new_length;
  return true;
}
