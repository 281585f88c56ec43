// Uses of the primitive table's primitives. Before lowering, whether a unit
// uses any at all (PrimitiveUseWatch); while lowering, where each use in a
// body is: the outermost known macro of a statement's expansion chain, a
// call or an atomic builtin written directly, and the barrier macros that
// expand to nothing.
#include "primitive_use.h"

#include "function_lowering.h"

#include "barrierpair/barrierpair.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdint>
#include <cstring>

namespace barrierpair {

using namespace clang;

// assert() and the table's EXCUSE primitives (data_race()) are
// MacroExpansions::ExcusedMacro; a SELF one (get_current()) names the
// thread's own object, no use of a primitive (isThreadLocal), and an INIT
// one (mutex_init()) says a structure is not shared yet, none either
// (initialisedParameters); another of
// the table's primitives is its index; any other name BP_NO_PRIMITIVE.
static int excusingOrPrimitive(StringRef name) {
  if (name == "assert")
    return MacroExpansions::ExcusedMacro;
  int primitive = bp_primitive_find(name.data(), name.size());
  if (primitive == BP_NO_PRIMITIVE)
    return primitive;
  bp_op op = bp_primitive_get(primitive)->op;
  return op == BP_OP_EXCUSE                     ? MacroExpansions::ExcusedMacro
         : op == BP_OP_SELF || op == BP_OP_INIT ? BP_NO_PRIMITIVE
                                                : primitive;
}

// Whether a use of `primitive` orders memory, or may: a fence (a compiler
// barrier too: it is where an order was meant), a lock, a thread's start or
// join, or an access that is not relaxed. `order` is the order its argument
// gives, for a primitive that takes it from one.
bool ordersMemory(const bp_primitive &primitive, std::optional<bp_order> order = std::nullopt) {
  if (primitive.op != BP_OP_LOAD && primitive.op != BP_OP_STORE && !bp_op_is_rmw(primitive.op) &&
      primitive.op != BP_OP_ACCESS)
    return true;
  bp_order effective = primitive.order == BP_ORDER_FROM_ARG && order ? *order : primitive.order;
  return effective != BP_ORDER_RELAXED;
}

struct PrimitiveUseWatch::State {
  bool macroExpanded = false;    // a macro of the primitive table was expanded
  bool orderingExpanded = false; // one that orders memory (ordersMemory)
  // An order stronger than relaxed was named (`__ATOMIC_ACQUIRE`...): an
  // atomic builtin may order memory only then, or with an order written as
  // a number.
  bool strongOrderNamed = false;
  bool relaxedOrderNamed = false; // `__ATOMIC_RELAXED`: orders are spelled by name
  // What lookup() answers for the names of the orders.
  static constexpr int StrongOrderMacro = -3;
  static constexpr int RelaxedOrderMacro = -4;
  MacroExpansions expansions;
  // What a name is, asked once per identifier: the primitive the table
  // names so (not an EXCUSE one), MacroExpansions::ExcusedMacro, or
  // BP_NO_PRIMITIVE.
  llvm::DenseMap<const IdentifierInfo *, int> known;

  int lookup(const IdentifierInfo *name) {
    if (!name)
      return BP_NO_PRIMITIVE;
    auto [entry, added] = known.try_emplace(name, BP_NO_PRIMITIVE);
    if (added)
      entry->second = name->isStr("__ATOMIC_RELAXED")     ? RelaxedOrderMacro
                      : namesStrongOrder(name->getName()) ? StrongOrderMacro
                                                          : excusingOrPrimitive(name->getName());
    return entry->second;
  }
  static bool namesStrongOrder(llvm::StringRef name) {
    return name.consume_front("__ATOMIC_") &&
           (name == "CONSUME" || name == "ACQUIRE" || name == "RELEASE" || name == "ACQ_REL" ||
            name == "SEQ_CST");
  }
  bool isPrimitive(const IdentifierInfo *name) { return lookup(name) >= 0; }
};

namespace {

class MacroWatch : public PPCallbacks {
public:
  explicit MacroWatch(std::shared_ptr<PrimitiveUseWatch::State> state) : state(std::move(state)) {}

  void MacroExpands(const Token &name, const MacroDefinition &, SourceRange range,
                    const MacroArgs *) override {
    int primitive = state->lookup(name.getIdentifierInfo());
    if (primitive == BP_NO_PRIMITIVE)
      return;
    if (primitive == PrimitiveUseWatch::State::StrongOrderMacro ||
        primitive == PrimitiveUseWatch::State::RelaxedOrderMacro) {
      (primitive == PrimitiveUseWatch::State::StrongOrderMacro ? state->strongOrderNamed
                                                               : state->relaxedOrderNamed) = true;
      return;
    }
    MacroExpansions &expansions = state->expansions;
    expansions.named[name.getLocation().getRawEncoding()] = primitive;
    if (primitive == MacroExpansions::ExcusedMacro) {
      expansions.excusedExpanded = true;
      return;
    }
    state->macroExpanded = true;
    if (ordersMemory(*bp_primitive_get(primitive)))
      state->orderingExpanded = true;
    if (name.getLocation().isFileID() && bp_primitive_get(primitive)->op == BP_OP_FENCE)
      expansions.barriers.push_back({range, primitive});
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

bool isAtomicBuiltin(const FunctionDecl &function) {
  if (!function.getBuiltinID())
    return false;
  StringRef name = function.getName();
  return name.starts_with("__atomic_") || name.starts_with("__c11_atomic_") ||
         name.starts_with("__opencl_atomic_") || name.starts_with("__hip_atomic_") ||
         name.starts_with("__scoped_atomic_");
}

// Whether a unit alone can hold what BodyScan looks for, from what it
// declares, without walking a body (most units use no atomic, lock nor
// barrier, and the walk is a few percent of a parse): an _Atomic type, or a
// primitive or atomic builtin the unit calls (Sema declares a builtin only
// where it is named, and marks a function used where it is called) that
// orders memory. An atomic builtin orders memory only with an order other
// than relaxed, which a unit that spells its orders by name
// (`__ATOMIC_RELAXED`) names as a macro; one that writes them as numbers is
// walked.
bool mayOrderOutsideMacros(ASTContext &context, PrimitiveUseWatch::State &state) {
  for (const Type *type : context.getTypes())
    if (isa<AtomicType>(type))
      return true;
  bool orderMayBeStrong = state.strongOrderNamed || !state.relaxedOrderNamed;
  for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
    const auto *function = dyn_cast<FunctionDecl>(declaration);
    if (!function || !function->getIdentifier() || !function->isUsed())
      continue;
    int primitive = state.lookup(function->getIdentifier());
    if (primitive >= 0) {
      const bp_primitive &used = *bp_primitive_get(primitive);
      if (used.order == BP_ORDER_FROM_ARG ? orderMayBeStrong : ordersMemory(used))
        return true;
    } else if (orderMayBeStrong && isAtomicBuiltin(*function)) {
      return true;
    }
  }
  return false;
}

} // namespace

// Annotations are read from the text, so one that silences nothing is a
// finding of its own. A main file is megabytes of text: the word is looked
// for by its rarest pair of letters in C text, "rp" in any case, sixteen
// places at a time (a letter's case is its 0x20 bit).
bool mentionsBarrierpair(StringRef text) {
  static constexpr char word[] = "barrierpair";
  static constexpr size_t length = sizeof word - 1, pairAt = 6; // word[6..7] == "rp"
  typedef unsigned char Bytes __attribute__((vector_size(16)));
  auto load = [&](size_t at) {
    Bytes bytes;
    std::memcpy(&bytes, text.data() + at, sizeof bytes);
    return bytes | 0x20;
  };
  auto wordAt = [&](size_t pair) {
    return pair >= pairAt && pair - pairAt + length <= text.size() &&
           text.substr(pair - pairAt, length).equals_insensitive(word);
  };
  size_t at = 0;
  for (; at + sizeof(Bytes) + 1 <= text.size(); at += sizeof(Bytes)) {
    Bytes found = (load(at) == 'r') & (load(at + 1) == 'p');
    uint64_t halves[2];
    std::memcpy(halves, &found, sizeof halves);
    if (halves[0] | halves[1])
      for (size_t i = 0; i < sizeof(Bytes); ++i)
        if (found[i] && wordAt(at + i))
          return true;
  }
  for (; at + 1 < text.size(); ++at)
    if ((text[at] | 0x20) == 'r' && (text[at + 1] | 0x20) == 'p' && wordAt(at))
      return true;
  return false;
}

PrimitiveUseWatch::PrimitiveUseWatch(Preprocessor &preprocessor)
    : state(std::make_shared<State>()) {
  preprocessor.addPPCallbacks(std::make_unique<MacroWatch>(state));
}

const MacroExpansions &PrimitiveUseWatch::macros() const {
  return state->expansions;
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
  if (unitAlone && !mayOrderOutsideMacros(context, *state))
    return false;
  BodyScan scan(*state, context, unitAlone);
  for (const FunctionDecl *function : defined)
    if (scan.usesPrimitives(function))
      return true;
  return false;
}

} // namespace barrierpair

// While lowering: where a body uses primitives, for FunctionLowering
// (function_lowering.h).
namespace barrierpair::lowering {

// ---- Macro expansion chains ----

// The table's primitive, or MacroExpansions::ExcusedMacro, whose name began
// the expansion `entry` (that of `location`), or BP_NO_PRIMITIVE.
int FunctionLowering::macroAt(const SrcMgr::SLocEntry &entry, SourceLocation location) const {
  SourceLocation name = entry.getExpansion().getExpansionLocStart();
  if (unit.sawEveryExpansion) {
    auto found = unit.macros->named.find(name.getRawEncoding());
    return found == unit.macros->named.end() ? BP_NO_PRIMITIVE : found->second;
  }
  StringRef text = Lexer::getImmediateMacroName(location, sources, context.getLangOpts());
  return excusingOrPrimitive(text);
}

// What the unit learnt of an expansion; null for one of a precompiled
// header or module.
ExpansionFacts *FunctionLowering::factsOf(FileID id) const {
  unsigned index = id.getHashValue();
  return static_cast<int>(index) > 0 && index < unit.expansions.size() ? &unit.expansions[index]
                                                                       : nullptr;
}

// Macro-argument expansions are stepped through, not remembered: one may
// hold tokens of several expansions.
std::optional<MacroHit> FunctionLowering::outermostKnownMacro(SourceLocation location) const {
  if (location.isFileID())
    return std::nullopt;
  if (unit.recentMacros.empty()) // lowering is over (UnitState::releaseLowering)
    return walkMacroChain(location);
  unsigned raw = location.getRawEncoding();
  UnitState::RecentMacro &recent =
      unit.recentMacros[llvm::DenseMapInfo<unsigned>::getHashValue(raw) % unit.recentMacros.size()];
  if (recent.location != raw) {
    recent.location = raw;
    recent.hit = walkMacroChain(location);
  }
  return recent.hit;
}

std::optional<MacroHit> FunctionLowering::walkMacroChain(SourceLocation location) const {
  llvm::SmallVector<std::pair<FileID, int>, 8> walked; // inner first
  const SrcMgr::SLocEntry *outermost = nullptr;
  int32_t outermostIndex = ExpansionFacts::None;
  int primitive = BP_NO_PRIMITIVE;
  while (location.isMacroID()) {
    FileID id = sources.getFileID(location);
    const SrcMgr::SLocEntry &entry = sources.getSLocEntry(id);
    if (entry.getExpansion().isMacroArgExpansion()) {
      location = sources.getImmediateSpellingLoc(location);
      continue;
    }
    if (ExpansionFacts *facts = factsOf(id); facts && facts->outermost != ExpansionFacts::Unknown) {
      outermostIndex = facts->outermost;
      if (outermostIndex != ExpansionFacts::None)
        outermost = &sources.getLocalSLocEntry(outermostIndex);
      primitive = facts->primitive;
      break;
    }
    walked.push_back({id, macroAt(entry, location)});
    location = entry.getExpansion().getExpansionLocStart();
  }
  for (auto step = walked.rbegin(); step != walked.rend(); ++step) {
    if (!outermost && step->second >= 0) {
      outermost = &sources.getSLocEntry(step->first);
      outermostIndex = static_cast<int32_t>(step->first.getHashValue());
      primitive = step->second;
    }
    if (ExpansionFacts *facts = factsOf(step->first); facts && outermostIndex >= 0) {
      facts->outermost = outermostIndex;
      facts->primitive = static_cast<int16_t>(primitive);
    } else if (facts && !outermost) {
      facts->outermost = ExpansionFacts::None;
    }
  }
  if (!outermost)
    return std::nullopt;
  return MacroHit{primitive, outermost->getExpansion().getExpansionLocRange()};
}

// What assert() checks is read as the release build (NDEBUG) compiles it:
// not at all. An assertion states an invariant of the protocol; its loads
// are not the protocol's, and they order nothing a program without them
// relies on (liburcu's `assert(cds_wfcq_empty(...))` after joining the
// worker, `assert(node->next == NULL)` on a node not yet pushed). What
// data_race() wraps the code says races on purpose: a value for
// diagnostics or a heuristic, or one a marked access checks again; no
// ordering is asked of it, nor marking.
bool FunctionLowering::inExcusedCode(SourceLocation location) const {
  if (unit.sawEveryExpansion && !unit.macros->excusedExpanded)
    return false;
  llvm::SmallVector<FileID, 8> walked;
  bool inside = false;
  while (location.isMacroID()) {
    FileID id = sources.getFileID(location);
    ExpansionFacts *facts = factsOf(id);
    if (facts && facts->inExcusedCode != ExpansionFacts::Unknown) {
      inside = facts->inExcusedCode;
      break;
    }
    walked.push_back(id);
    const SrcMgr::SLocEntry &entry = sources.getSLocEntry(id);
    if (!entry.getExpansion().isMacroArgExpansion() &&
        macroAt(entry, location) == MacroExpansions::ExcusedMacro) {
      inside = true;
      break;
    }
    location = entry.getExpansion().getExpansionLocStart();
  }
  for (FileID id : walked)
    if (ExpansionFacts *facts = factsOf(id))
      facts->inExcusedCode = inside;
  return inside;
}

// Whether `statement` is the outermost node of the use `hit` belongs to.
bool FunctionLowering::sameUse(const Stmt *statement, const MacroHit &hit) const {
  auto found = macroUses->find(keyOf(hit));
  if (found == macroUses->end())
    return false;
  const Stmt *root = found->second.root;
  if (const auto *expression = dyn_cast<Expr>(root))
    root = expression->IgnoreParenImpCasts();
  return root == statement;
}

// The outermost node of each macro use is the first one, in pre-order,
// that begins and ends inside it.
void FunctionLowering::findMacroUses(const Stmt *body) {
  if (!site && !unit.macroUsesByBody.count(body)) {
    // a function lowered on its own: most are lowered once, and keeping
    // every body's uses to the unit's end costs memory
    collectMacroUses(body, ownMacroUses);
    macroUses = &ownMacroUses;
    return;
  }
  std::unique_ptr<llvm::DenseMap<unsigned, PrimitiveUse>> &slot = unit.macroUsesByBody[body];
  if (!slot) {
    // Kept to the unit's end, in a map of its own size (a map that grows
    // by inserting starts at 64 entries).
    llvm::DenseMap<unsigned, PrimitiveUse> found;
    collectMacroUses(body, found);
    slot = std::make_unique<llvm::DenseMap<unsigned, PrimitiveUse>>(found.size());
    slot->insert(found.begin(), found.end());
  }
  macroUses = slot.get();
}

void FunctionLowering::collectMacroUses(const Stmt *statement,
                                        llvm::DenseMap<unsigned, PrimitiveUse> &uses) const {
  if (!statement)
    return;
  if (std::optional<MacroHit> hit = outermostKnownMacro(statement->getBeginLoc())) {
    unsigned key = keyOf(*hit);
    if (!uses.count(key)) {
      std::optional<MacroHit> end = outermostKnownMacro(statement->getEndLoc());
      // A macro that only renames a builtin or a function
      // (`#define atomic_load_explicit __c11_atomic_load`) ends before
      // the call's arguments, which are written outside it.
      bool renamesCallee = !end && (isa<AtomicExpr>(statement) || isa<CallExpr>(statement));
      if ((end && keyOf(*end) == key) || renamesCallee) {
        PrimitiveUse use;
        use.primitive = hit->primitive;
        use.root = statement;
        use.text = hit->expansion;
        use.location = hit->expansion.getBegin();
        uses[key] = use;
      }
    }
  }
  for (const Stmt *child : statement->children())
    collectMacroUses(child, uses);
}

// ---- Barriers that expand to nothing ----

// The barrier macros written in this body that no statement holds: they
// expanded to nothing (cmm_smp_read_barrier_depends() where it is only a
// comment on the order). Each goes into the CFG block of the first
// statement written after it (the one that ends first), before the first
// of the block's elements (subexpressions come first) that begins after
// it.
void FunctionLowering::collectEmptyBarriers(const Stmt *body, const CFG &cfg) {
  SourceRange range(sources.getExpansionLoc(body->getBeginLoc()),
                    sources.getExpansionLoc(body->getEndLoc()));
  // The uses are in the order the preprocessor met them: the body's are
  // found by binary search, not by looking at every use of the unit.
  llvm::ArrayRef<EmptyBarrier> uses =
      unit.macros ? llvm::ArrayRef<EmptyBarrier>(unit.macros->barriers) : std::nullopt;
  const EmptyBarrier *first =
      std::lower_bound(uses.begin(), uses.end(), range.getBegin(),
                       [&](const EmptyBarrier &use, SourceLocation begin) {
                         return sources.isBeforeInTranslationUnit(use.written.getBegin(), begin);
                       });
  for (const EmptyBarrier *use = first; use != uses.end(); ++use) {
    const EmptyBarrier &barrier = *use;
    SourceLocation at = barrier.written.getBegin();
    if (sources.isBeforeInTranslationUnit(range.getEnd(), at))
      break;
    if (macroUses->count(at.getRawEncoding()))
      continue;
    const CFGBlock *nearestBlock = nullptr;
    SourceLocation nearest;
    for (const CFGBlock *block : cfg)
      for (const CFGElement &element : *block)
        if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>()) {
          // the statement that ends first: not a `return` whose value
          // other blocks compute
          SourceLocation begin = sources.getExpansionLoc(statement->getStmt()->getBeginLoc());
          SourceLocation end = sources.getExpansionLoc(statement->getStmt()->getEndLoc());
          if (sources.isBeforeInTranslationUnit(at, begin) &&
              (!nearestBlock || sources.isBeforeInTranslationUnit(end, nearest))) {
            nearest = end;
            nearestBlock = block;
          }
        }
    if (!nearestBlock)
      continue;
    for (const CFGElement &element : *nearestBlock)
      if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>();
          statement && sources.isBeforeInTranslationUnit(
                           at, sources.getExpansionLoc(statement->getStmt()->getBeginLoc()))) {
        emptyBarriers[statement->getStmt()].push_back(&barrier);
        break;
      }
  }
}

void FunctionLowering::placeEmptyBarriersBefore(const Stmt *statement) {
  auto found = emptyBarriers.find(statement);
  if (found == emptyBarriers.end())
    return;
  for (const EmptyBarrier *barrier : found->second) {
    const bp_primitive &primitive = *bp_primitive_get(barrier->primitive);
    addBarrier(bp_order_strength(primitive.order), barrier->primitive, false,
               barrier->written.getBegin(), statement,
               CharSourceRange::getTokenRange(barrier->written));
  }
}

// ---- Calls and atomic builtins ----

// A call or atomic builtin written directly (not through a known macro).
// The primitive a call or a macro's expansion uses: the callee's, or that
// of the known macro whose expansion `statement` is; BP_NO_PRIMITIVE for
// none.
int FunctionLowering::calledPrimitive(const Stmt *statement) const {
  if (std::optional<PrimitiveUse> use = directUse(statement))
    return use->primitive;
  if (std::optional<MacroHit> hit = outermostKnownMacro(statement->getBeginLoc());
      hit && sameUse(statement, *hit))
    return hit->primitive;
  return BP_NO_PRIMITIVE;
}

std::optional<PrimitiveUse> FunctionLowering::directUse(const Stmt *statement) const {
  StringRef name;
  SourceLocation location;
  if (const auto *call = dyn_cast<CallExpr>(statement)) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier())
      return std::nullopt;
    name = callee->getName();
    location = call->getBeginLoc();
  } else if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
    SourceLocation spelling = sources.getSpellingLoc(atomic->getBuiltinLoc());
    Token token;
    if (Lexer::getRawToken(spelling, token, sources, context.getLangOpts()))
      return std::nullopt;
    if (!token.is(tok::raw_identifier))
      return std::nullopt;
    name = token.getRawIdentifier();
    location = atomic->getBeginLoc();
  } else {
    return std::nullopt;
  }
  int primitive = excusingOrPrimitive(name);
  if (primitive < 0)
    return std::nullopt;
  PrimitiveUse use;
  use.primitive = primitive;
  use.root = statement;
  use.text = CharSourceRange::getTokenRange(statement->getSourceRange());
  use.location = location;
  return use;
}

} // namespace barrierpair::lowering
