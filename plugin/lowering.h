// Lowers a translation unit's C functions into the engine's events: shared
// accesses and barriers, in control-flow order. Shared by every front end.
#ifndef BARRIERPAIR_PLUGIN_LOWERING_H
#define BARRIERPAIR_PLUGIN_LOWERING_H

#include "barrierpair/barrierpair.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

namespace barrierpair {

// The translation unit's files, by engine file id.
using FileMap = llvm::DenseMap<uint32_t, clang::FileID>;

// A barrier whose macro expands to nothing on this target (liburcu's
// cmm_smp_read_barrier_depends() on x86): no statement holds it, so the
// preprocessor says where it is written.
struct EmptyBarrier {
  clang::SourceRange written; // the macro's name to its closing parenthesis
  int primitive;
};

// Lowers every function defined in the main file into `engine`; events,
// their locations and their fix-it places are all in the engine.
// `emptyBarriers` are the uses of barrier macros written in a file (not in
// another macro), in the order they were met. `unitAlone`: the unit is
// analysed by itself (the plugin without site files), so that a function
// with no primitive that no thread can start is not lowered.
// `includedImplementations` (--beta): also the functions of implementation
// files included into the main file (liburcu's urcu-call-rcu-impl.h), not
// yet quiet on real code.
FileMap lowerTranslationUnit(clang::ASTContext &context, bp_engine *engine,
                             llvm::ArrayRef<EmptyBarrier> emptyBarriers = {},
                             bool unitAlone = false, bool includedImplementations = false);

// Reads the annotations of `files` into `engine` (plugin/annotations.cpp);
// after lowering, since kernel-style comments count only beside a barrier.
void scanAnnotations(const clang::SourceManager &sources, const FileMap &files, bp_engine *engine);

// The source location of an engine location in this translation unit, or
// an invalid one.
clang::SourceLocation toSourceLocation(const clang::SourceManager &sources, const FileMap &files,
                                       bp_location location);

} // namespace barrierpair

#endif
