/* LSP positions in a document's text: a line and a character counted in the
 * negotiated unit (UTF-16 code units unless the client and clangd agreed on
 * UTF-8 or UTF-32), against byte offsets and clang's byte columns. */
#ifndef BARRIERPAIR_CLANGD_TEXT_POSITIONS_H
#define BARRIERPAIR_CLANGD_TEXT_POSITIONS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { UNITS_UTF16, UNITS_UTF8, UNITS_UTF32 } position_units;

/* "utf-8", "utf-16", "utf-32"; anything else is UTF-16, LSP's default. */
position_units position_units_named(const char *name);

/* The byte offset of an LSP position, clamped to the line's end and to the
 * text's end, as clangd clamps. */
size_t text_offset(const char *text, size_t length, uint32_t line, uint32_t character,
                   position_units units);

/* The LSP character of a byte column (0-based) of a line. */
uint32_t text_character(const char *text, size_t length, uint32_t line, uint32_t byte_column,
                        position_units units);

/* The length of `bytes` bytes of UTF-8 text (with no line break) in
 * `units`. */
uint32_t text_units(const char *text, size_t bytes, position_units units);

/* The byte length of the identifier at (line, byte_column), or 0. */
uint32_t text_identifier_length(const char *text, size_t length, uint32_t line,
                                uint32_t byte_column);

/* Applies one entry of didChange's contentChanges: a range and its new text,
 * or the whole text when there is no range. False (text unchanged) when the
 * entry is malformed. */
bool text_apply_change(char **text, size_t *length, const json_t *change, position_units units);

#endif
