/* Reading annotations from a file's text: the comment and macro grammar of
 * docs/annotations.md. Knows nothing of the engine; annotations.c stores
 * what it finds. */
#ifndef BARRIERPAIR_ANNOTATION_PARSE_H
#define BARRIERPAIR_ANNOTATION_PARSE_H

#include "barrierpair/barrierpair.h"

/* Called once per annotation found, in text order; `annotation->event` is
 * unset and its strings live only for the call. */
typedef void (*bp_annotation_sink)(void *context, const bp_annotation *annotation);

void bp_parse_annotations(const char *text, size_t length, uint32_t file, bp_annotation_sink sink,
                          void *context);

#endif
