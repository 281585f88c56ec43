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

// Whether a use of `primitive` orders memory, or may: a fence (a compiler
// barrier too: it is where an order was meant), a lock, a thread's start or
// join, or an access that is not relaxed. `order` is the order its argument
// gives, for a primitive that takes it from one.
bool ordersMemory(const bp_primitive &primitive, std::optional<bp_order> order = std::nullopt) {
  if (primitive.op != BP_OP_LOAD && primitive.op != BP_OP_STORE && primitive.op != BP_OP_RMW &&
      primitive.op != BP_OP_ACCESS)
    return true;
  bp_order effective = primitive.order == BP_ORDER_FROM_ARG && order ? *order : primitive.order;
  return effective != BP_ORDER_RELAXED;
}

struct PrimitiveUseWatch::State {
  bool macroExpanded = false;            // a macro of the primitive table was expanded
  bool orderingExpanded = false;         // one that orders memory (ordersMemory)
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
    if (ordersMemory(*bp_primitive_get(primitive)))
      state->orderingExpanded = true;
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
  // `ordering`: look only for what orders memory; a relaxed atomic or a
  // volatile access alone gives a unit analysed by itself nothing to pair.
  BodyScan(PrimitiveUseWatch::State &state, ASTContext &context, bool ordering)
      : state(state), context(context), ordering(ordering) {}

  bool usesPrimitives(const FunctionDecl *function) {
    return scanned.insert(function).second && uses(function->getBody());
  }

private:
  PrimitiveUseWatch::State &state;
  ASTContext &context;
  bool ordering;
  llvm::SmallPtrSet<const FunctionDecl *, 32> scanned;

  std::optional<bp_order> orderOf(const Expr *argument) const {
    Expr::EvalResult result;
    if (argument && !argument->isValueDependent() && argument->EvaluateAsInt(result, context))
      return bp_order_from_c11(static_cast<int>(result.Val.getInt().getExtValue()));
    return std::nullopt;
  }

  // An atomic builtin orders memory unless its order is relaxed.
  bool ordersMemory(const AtomicExpr *atomic) const {
    std::optional<bp_order> order = orderOf(atomic->getOrder());
    return !order || *order != BP_ORDER_RELAXED;
  }

  // A plain access to an _Atomic object is sequentially consistent.
  static bool sequentiallyConsistent(const Stmt *statement) {
    if (const auto *cast = dyn_cast<ImplicitCastExpr>(statement))
      return cast->getCastKind() == CK_LValueToRValue &&
             cast->getSubExpr()->getType()->isAtomicType();
    if (const auto *binary = dyn_cast<BinaryOperator>(statement))
      return binary->isAssignmentOp() && binary->getLHS()->getType()->isAtomicType();
    if (const auto *unary = dyn_cast<UnaryOperator>(statement))
      return unary->isIncrementDecrementOp() && unary->getSubExpr()->getType()->isAtomicType();
    return false;
  }

  bool uses(const Stmt *statement) {
    if (!statement)
      return false;
    if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
      if (!ordering || ordersMemory(atomic))
        return true; // every atomic builtin, not only those the table names
    } else if (ordering) {
      if (sequentiallyConsistent(statement))
        return true;
    } else if (const auto *expression = dyn_cast<Expr>(statement);
               expression && expression->isGLValue()) {
      QualType type = expression->getType();
      if (type.isVolatileQualified() || type->isAtomicType())
        return true;
    }
    if (const auto *call = dyn_cast<CallExpr>(statement)) {
      if (const FunctionDecl *callee = call->getDirectCallee()) {
        if (state.isPrimitive(callee->getIdentifier())) {
          const IdentifierInfo *name = callee->getIdentifier();
          const bp_primitive &primitive =
              *bp_primitive_get(bp_primitive_find(name->getNameStart(), name->getLength()));
          const Expr *last = call->getNumArgs() ? call->getArg(call->getNumArgs() - 1) : nullptr;
          if (!ordering || barrierpair::ordersMemory(primitive, orderOf(last)))
            return true;
        }
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
  if (context.getExternalSource())
    return true;
  // A unit analysed by itself gives a finding only where something orders
  // memory (every rule starts from a barrier); a program's unit may be the
  // unordered side of another unit's barrier.
  bool unitAlone = scope == AnalysisScope::Unit;
  if (unitAlone ? state->orderingExpanded : state->macroExpanded)
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
  BodyScan scan(*state, context, unitAlone);
  for (const FunctionDecl *function : defined)
    if (scan.usesPrimitives(function))
      return true;
  return false;
}

} // namespace barrierpair
