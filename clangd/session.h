/* The relay between the editor and clangd: every message passes unchanged
 * except clangd's publishDiagnostics of an open document (our findings are
 * added to clangd's) and its answers to codeAction (our quick fixes are
 * added). Documents are tracked (didOpen, didChange full or incremental,
 * didSave, didClose) so their unsaved text can be analysed. */
#ifndef BARRIERPAIR_CLANGD_SESSION_H
#define BARRIERPAIR_CLANGD_SESSION_H

#include <stddef.h>

typedef struct session session;

/* `barrierpair` is the analyser to run, or NULL to relay only. */
session *session_create(int editor_out, int clangd_in, const char *barrierpair,
                        const char *compile_commands_dir);

/* One message body from each side. Malformed ones are logged and dropped. */
void session_from_editor(session *s, const char *body, size_t length);
void session_from_clangd(session *s, const char *body, size_t length);

/* Ends the analysis before the wrapper ends: the one running is killed and
 * none is started after it. */
void session_stop_analysis(session *s);

/* Takes the lock on the editor's output for good: nothing is written after
 * it, so the process can exit without cutting a message. */
void session_hold_output(session *s);

#endif
