// Turns engine findings into clang diagnostics: a warning in the
// backend-plugin group (so -Werror, -w and #pragma clang diagnostic reach
// it), notes for the partner site and the scenario, and a fix-it.
#ifndef BARRIERPAIR_PLUGIN_REPORT_H
#define BARRIERPAIR_PLUGIN_REPORT_H

#include "lowering.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"

namespace barrierpair {

void reportFindings(clang::DiagnosticsEngine &diagnostics, const clang::SourceManager &sources,
                    const FileMap &files, const bp_engine *engine, const bp_finding *findings,
                    size_t count);

} // namespace barrierpair

#endif
