#include "primitive_use.h"

#include "barrierpair/barrierpair.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace barrierpair {

using namespace clang;

struct PrimitiveUseWatch::State {
  bool macroExpanded = false;            // a macro of the primitive table was expanded
  std::vector<EmptyBarrier> barrierUses; // fences' macros written in a file
  // Whether a name is the primitive table's, asked once per identifier.
  llvm::DenseMap<const IdentifierInfo *, bool> known;

  bool isPrimitive(const IdentifierInfo *name) {
    if (!name)
      return false;
    auto [entry, added] = known.try_emplace(name, false);
    if (added)
      entry->second = bp_primitive_find(name->getNameStart(), name->getLength()) >= 0;
    return entry->second;
  }
};

namespace {

class MacroWatch : public PPCallbacks {
public:
  explicit MacroWatch(std::shared_ptr<PrimitiveUseWatch::State> state) : state(std::move(state)) {}

  void MacroExpands(const Token &name, const MacroDefinition &, SourceRange range,
                    const MacroArgs *) override {
    if (!state->isPrimitive(name.getIdentifierInfo()))
      return;
    state->macroExpanded = true;
    const IdentifierInfo *identifier = name.getIdentifierInfo();
    int primitive = bp_primitive_find(identifier->getNameStart(), identifier->getLength());
    if (name.getLocation().isFileID() && bp_primitive_get(primitive)->op == BP_OP_FENCE)
      state->barrierUses.push_back({range, primitive});
  }

private:
  std::shared_ptr<PrimitiveUseWatch::State> state;
};

// The functions lowering reads: a definition written in the main file, and
// the definitions they call (lowering follows calls into helpers).
class BodyScan {
public:
  explicit BodyScan(PrimitiveUseWatch::State &state) : state(state) {}

  bool usesPrimitives(const FunctionDecl *function) {
    return scanned.insert(function).second && uses(function->getBody());
  }

private:
  PrimitiveUseWatch::State &state;
  llvm::SmallPtrSet<const FunctionDecl *, 32> scanned;

  bool uses(const Stmt *statement) {
    if (!statement)
      return false;
    if (isa<AtomicExpr>(statement))
      return true; // every atomic builtin, not only those the table names
    if (const auto *expression = dyn_cast<Expr>(statement); expression && expression->isGLValue()) {
      QualType type = expression->getType();
      if (type.isVolatileQualified() || type->isAtomicType())
        return true;
    }
    if (const auto *call = dyn_cast<CallExpr>(statement)) {
      if (const FunctionDecl *callee = call->getDirectCallee()) {
        if (state.isPrimitive(callee->getIdentifier()))
          return true;
        const FunctionDecl *definition = callee->getDefinition();
        if (definition && definition->hasBody() && usesPrimitives(definition))
          return true;
      }
    }
    for (const Stmt *child : statement->children())
      if (uses(child))
        return true;
    return false;
  }
};

// "barrierpair" in any case (a comment's "barrierpair:", BARRIERPAIR_IGNORE):
// annotations are read from the text, so one that silences nothing is a
// finding of its own. Found through its rarest letter, with memchr.
bool mentionsBarrierpair(StringRef text) {
  static const char word[] = "barrierpair";
  const size_t length = sizeof word - 1, p = 7; // word[p] == 'p'
  for (char letter : {'p', 'P'}) {
    for (size_t at = text.find(letter, p); at != StringRef::npos; at = text.find(letter, at + 1))
      if (at + length - p <= text.size() && text.substr(at - p, length).equals_insensitive(word))
        return true;
  }
  return false;
}

} // namespace

PrimitiveUseWatch::PrimitiveUseWatch(Preprocessor &preprocessor)
    : state(std::make_shared<State>()) {
  preprocessor.addPPCallbacks(std::make_unique<MacroWatch>(state));
}

llvm::ArrayRef<EmptyBarrier> PrimitiveUseWatch::barrierMacroUses() const {
  return state->barrierUses;
}

bool PrimitiveUseWatch::needsLowering(ASTContext &context, AnalysisScope scope) const {
  // Declarations from a precompiled header or a module were parsed, and
  // their macros expanded, where this watch did not see them.
  if (state->macroExpanded || context.getExternalSource())
    return true;
  const SourceManager &sources = context.getSourceManager();
  if (std::optional<llvm::MemoryBufferRef> main = sources.getBufferOrNone(sources.getMainFileID());
      !main || mentionsBarrierpair(main->getBuffer()))
    return true;
  // As lowerTranslationUnit chooses the functions it lowers.
  llvm::SmallVector<const FunctionDecl *, 64> defined;
  for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
    const auto *function = dyn_cast<FunctionDecl>(declaration);
    if (!function || !function->doesThisDeclarationHaveABody() ||
        !sources.isWrittenInMainFile(sources.getExpansionLoc(function->getLocation())))
      continue;
    if (scope == AnalysisScope::Program && function->isExternallyVisible())
      return true;
    defined.push_back(function);
  }
  BodyScan scan(*state);
  for (const FunctionDecl *function : defined)
    if (scan.usesPrimitives(function))
      return true;
  return false;
}

} // namespace barrierpair
