// Lowers a translation unit's C functions into the engine's events: shared
// accesses and barriers, in control-flow order. Shared by every front end.
#ifndef BARRIERPAIR_PLUGIN_LOWERING_H
#define BARRIERPAIR_PLUGIN_LOWERING_H

#include "barrierpair/barrierpair.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

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

// What the preprocessor saw of the macros lowering looks for, so that
// lowering never lexes a macro's name again.
struct MacroExpansions {
  // The uses of barrier macros written in a file (not in another macro), in
  // the order they were met.
  std::vector<EmptyBarrier> barriers;
  // By the raw location of the name that began an expansion: the primitive
  // the table names so, or ExcusedMacro for assert() and the table's EXCUSE
  // primitives (data_race()). An expansion not here is of a macro lowering
  // does not look for.
  llvm::DenseMap<unsigned, int> named;
  bool excusedExpanded = false;
  static constexpr int ExcusedMacro = -2;
};

namespace lowering {
struct UnitState;
} // namespace lowering

// A unit once lowered: its files, and, where it defers its events' text,
// what the engine works that text out from when a finding reads it (while
// the AST is there). Keep it while the engine's findings are read; it
// outlives no engine.
class LoweredUnit {
public:
  LoweredUnit(bp_engine *engine, std::unique_ptr<lowering::UnitState> state);
  LoweredUnit(LoweredUnit &&other) noexcept;
  LoweredUnit &operator=(LoweredUnit &&) = delete;
  ~LoweredUnit();
  const FileMap &files() const;

private:
  bp_engine *engine;
  std::unique_ptr<lowering::UnitState> state;
};

// Lowers every function defined in the main file and in the implementation
// files included into it (liburcu's urcu-call-rcu-impl.h, the kernel's
// kernel/sched/*.c) into `engine`; events, their locations and their fix-it
// places are all in the engine. `macros`: what the preprocessor saw
// (PrimitiveUseWatch); without it, or where declarations came from a
// precompiled header or a module, whose expansions it did not see, macro
// names are lexed. `unitAlone`: the unit is analysed by itself (the plugin
// without site files), so that a function with no primitive that no thread
// can start is not lowered. `deferTexts`: events' text (fix-its' places, an
// access's text) is worked out only for what findings read, through the
// returned unit; otherwise all of it now.
LoweredUnit lowerTranslationUnit(clang::ASTContext &context, bp_engine *engine,
                                 const MacroExpansions *macros = nullptr, bool unitAlone = false,
                                 bool deferTexts = false);

// Whether `text` mentions barrierpair in any case (an annotation's
// "barrierpair:", BARRIERPAIR_IGNORE).
bool mentionsBarrierpair(llvm::StringRef text);

// Reads the annotations of `files` into `engine` (plugin/annotations.cpp);
// after lowering, since kernel-style comments count only beside a barrier.
void scanAnnotations(const clang::SourceManager &sources, const FileMap &files, bp_engine *engine);

// The source location of an engine location in this translation unit, or
// an invalid one.
clang::SourceLocation toSourceLocation(const clang::SourceManager &sources, const FileMap &files,
                                       bp_location location);

} // namespace barrierpair

#endif
