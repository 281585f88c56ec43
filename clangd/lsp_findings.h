/* barrierpair check's JSON findings as LSP diagnostics of one document, and
 * their fix-its as quick-fix code actions. */
#ifndef BARRIERPAIR_CLANGD_LSP_FINDINGS_H
#define BARRIERPAIR_CLANGD_LSP_FINDINGS_H

#include "text_positions.h"

#include <jansson.h>

typedef struct {
  const char *uri;  /* as the editor names the document */
  const char *path; /* absolute */
  const char *text; /* the analysed text */
  size_t length;
  position_units units;
} lsp_document_view;

/* The findings located in the document (their "file" fields absolute), as
 * an array of LSP Diagnostic objects (source "barrierpair", code the rule,
 * relatedInformation the notes and partner sites). *actions gets an array
 * parallel to it: for each diagnostic, its CodeAction objects. */
json_t *lsp_diagnostics_of(const json_t *findings, const lsp_document_view *document,
                           json_t **actions);

/* Whether two LSP ranges overlap or touch. */
bool lsp_ranges_touch(const json_t *left, const json_t *right);

#endif
