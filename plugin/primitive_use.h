// Whether a translation unit gives the analysis anything to work on, decided
// once per unit before anything is lowered: most files of a program use no
// barrier, and for them the plugin should cost nothing.
#ifndef BARRIERPAIR_PLUGIN_PRIMITIVE_USE_H
#define BARRIERPAIR_PLUGIN_PRIMITIVE_USE_H

#include "lowering.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

#include <memory>

namespace barrierpair {

// What the analysis of a unit's events is for.
enum class AnalysisScope {
  // The unit alone (the plugin): nothing outside it pairs with its code.
  Unit,
  // The unit as part of a program (`barrierpair check`, site files): a
  // plain function of it may be the unordered side of another unit's
  // barrier, started as a thread there.
  Program,
};

class PrimitiveUseWatch {
public:
  // Watches `preprocessor`'s macro expansions from here on, for a macro the
  // primitive table names; create it before the unit is parsed.
  explicit PrimitiveUseWatch(clang::Preprocessor &preprocessor);

  // Whether lowering the parsed unit can give a finding. For the unit by
  // itself: something in it orders memory (a fence or compiler barrier, a
  // lock, an atomic access that is not relaxed, through a macro, a call or
  // a builtin, in its functions or the unit's functions they call), since
  // every rule starts from a barrier, or the main file holds an annotation
  // ("barrierpair:" in any case). For a program: it expanded a primitive's
  // macro, or its functions use a primitive, a volatile or an _Atomic
  // object, or the main file defines a function other units can call or
  // start, or holds an annotation. When in doubt (a precompiled header,
  // modules) it answers yes.
  bool needsLowering(clang::ASTContext &context, AnalysisScope scope) const;

  // The expansions lowering looks for (lowerTranslationUnit).
  const MacroExpansions &macros() const;

  struct State;

private:
  std::shared_ptr<State> state;
};

} // namespace barrierpair

#endif
