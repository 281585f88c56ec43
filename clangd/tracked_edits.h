/* The edits a document received since the texts that diagnostics were
 * computed for, so a diagnostic of an older text can be moved to a newer
 * one: kept where no edit touched it, shifted with the text around it, and
 * dropped where an edit touched it. This is what lets the last findings stay
 * while the file does not compile without pointing at the wrong text. */
#ifndef BARRIERPAIR_CLANGD_TRACKED_EDITS_H
#define BARRIERPAIR_CLANGD_TRACKED_EDITS_H

#include "text_positions.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct tracked_edits tracked_edits;

tracked_edits *tracked_edits_create(void);
void tracked_edits_free(tracked_edits *edits);

/* Records one entry of didChange's contentChanges, made to the text before
 * `version` and giving (with the entries after it in the same message)
 * `version`. Call it before the change is applied. */
void tracked_edits_add(tracked_edits *edits, int64_t version, const json_t *change,
                       position_units units);

/* Forgets the edits that made versions up to `version`: no diagnostic of an
 * older text is moved any more. */
void tracked_edits_forget_until(tracked_edits *edits, int64_t version);

/* `diagnostics` (LSP Diagnostic objects of the document `uri` at version
 * `from`) moved to version `to`: a new array without those whose range, or a
 * related location in the same document, an edit in between touched.
 * `actions`, when not NULL, is parallel to `diagnostics` (per diagnostic, its
 * CodeAction objects) and *moved_actions gets the same for the result, their
 * edits of the document moved too, a diagnostic dropped with any of its
 * fixes touched. */
json_t *tracked_edits_move(const tracked_edits *edits, const char *uri, const json_t *diagnostics,
                           const json_t *actions, int64_t from, int64_t to, json_t **moved_actions);

#endif
