// Lowers a translation unit's C functions into the engine's events: shared
// accesses and barriers, in control-flow order. Shared by every front end.
#ifndef BARRIERPAIR_PLUGIN_LOWERING_H
#define BARRIERPAIR_PLUGIN_LOWERING_H

#include "barrierpair/barrierpair.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <vector>

namespace barrierpair {

// What a front end needs to point at an event and to fix it.
struct EventSite {
  clang::SourceLocation location;       // a file location in the main file, or invalid
  clang::CharSourceRange ownText;       // a barrier's own text, replaceable; or invalid
  clang::SourceLocation statementBegin; // start of the statement holding the event, or invalid
};

// Lowers every function defined in the main file into `engine`. Returns one
// EventSite per engine event, indexed by event id.
std::vector<EventSite> lowerTranslationUnit(clang::ASTContext &context, bp_engine *engine);

} // namespace barrierpair

#endif
