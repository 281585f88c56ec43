/* The findings stage, last in the pipeline: suppressions drop candidates,
 * the rest are merged into one finding per rule and place, and every front
 * end words them alike (message.c, annotation_message.c, fix.c). It reads
 * the analysis and never calls a rule. */
#ifndef BARRIERPAIR_FINDINGS_H
#define BARRIERPAIR_FINDINGS_H

#include "analysis/analysis.h"

/* suppressions.c: drops the candidates ignore annotations silence, after
 * every rule has run, and reports the annotations that silenced nothing. */
void bp_apply_suppressions(bp_analysis *analysis);

/* merge.c: one finding per rule and place, sorted by place, in a new
 * malloc()ed array; the candidates are freed. */
size_t bp_merge_findings(bp_analysis *analysis, bp_finding **findings);

/* text.c: a growing malloc()ed string, for the texts of findings. */
typedef struct {
  char *text;
  size_t length, capacity;
} bp_text;

void bp_text_append(bp_text *buffer, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* 'cmm_smp_rmb()', or what stands for a barrier with no primitive. */
void bp_text_append_barrier(bp_text *buffer, const bp_engine *engine, uint32_t event);
/* The function whose call `event` is, a barrier by its library's contract
 * (BP_CONTRACT(f, BARRIER, order): lowered at its calls as that one
 * barrier); NULL for any other event. */
const char *bp_contract_barrier_name(const bp_engine *engine, uint32_t event);

/* annotation_message.c: the message of a stale-annotation finding. */
char *bp_annotation_message(const bp_engine *engine, const bp_finding *finding);

#endif
