// AST and CFG to engine events: the driver (lowerTranslationUnit) and the
// walk of a function's CFG, element by element, into the unit's functions
// it calls. FunctionLowering's other concerns have files of their own
// (function_lowering.h lists them).
//
// Primitives are recognised by the outermost name of a statement's macro
// expansion chain that the primitive table knows: on x86 cmm_smp_rmb() and
// cmm_smp_wmb() expand to the same compiler barrier, so the expanded AST alone
// cannot tell them apart.
//
// A primitive that orders (a fence, an acquire load, a release store, a fully
// ordered read-modify-write) is opaque: its whole expansion becomes the
// table's events, emitted once where control enters it. A primitive that only
// marks (CMM_LOAD_SHARED, READ_ONCE, ...) stays transparent: its accesses are
// read from the AST like plain code and marked with the primitive.
#include "lowering.h"

#include "function_lowering.h"

#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace barrierpair {
namespace lowering {

bool hasContract(const FunctionDecl *function) {
  const IdentifierInfo *name = function->getIdentifier();
  return name && bp_has_contract(name->getNameStart(), name->getLength());
}

namespace {

// The order a library's contract says a call of the function makes as a
// barrier itself (BP_CONTRACT(f, BARRIER, order)), if one does.
std::optional<bp_order> barrierContract(const FunctionDecl *function) {
  const IdentifierInfo *name = function->getIdentifier();
  const bp_contract *contract =
      name ? bp_contract_find(name->getNameStart(), name->getLength(), BP_CONTRACT_BARRIER)
           : nullptr;
  return contract ? std::optional<bp_order>(contract->order) : std::nullopt;
}

// The kernel's `__init` and `__exit` functions (`__section(".init.text")`):
// they run once, at boot before what they set up is in use, or at exit
// after it is not.
bool runsAtBootOrExit(const FunctionDecl *function) {
  const auto *section = function->getAttr<SectionAttr>();
  return section && (section->getName() == ".init.text" || section->getName() == ".exit.text");
}

bool isOpaque(const bp_primitive &primitive) {
  if (primitive.op == BP_OP_FENCE || bp_op_is_rmw(primitive.op) || bp_op_is_lock(primitive.op) ||
      primitive.op == BP_OP_SPAWN || primitive.op == BP_OP_JOIN)
    return true;
  return primitive.order != BP_ORDER_RELAXED;
}

} // namespace

std::string functionFieldName(const FieldDecl *field) {
  if (!field || !field->getType()->isFunctionPointerType() || !field->getIdentifier())
    return {};
  std::string container = FunctionLowering::typeName(field->getParent());
  return container.empty() ? std::string() : container + "." + field->getNameAsString();
}

const FieldDecl *calledField(const Expr *callee) {
  const auto *member = dyn_cast<MemberExpr>(callee->IgnoreParenImpCasts());
  return member ? dyn_cast<FieldDecl>(member->getMemberDecl()) : nullptr;
}

void FunctionLowering::lower(const FunctionDecl *function, bool contractOnly) {
  contractRoot = hasContract(function);
  unit.markedRegions = 0;
  unit.markedNext = false;
  bp_function_begin(engine, function->getNameAsString().c_str(),
                    engineLocation(function->getLocation()));
  if (contractOnly)
    bp_set_contract_only(engine);
  if (auto callers = unit.callers.find(function->getCanonicalDecl()); callers != unit.callers.end())
    bp_set_callers(engine, callers->second);
  if (runsAtBootOrExit(function))
    bp_set_boot_only(engine);
  // what other units' calls of it may take for fresh memory
  if (function->isExternallyVisible() && function->getReturnType()->isPointerType() &&
      isAllocator(function))
    bp_set_returns_fresh(engine);
  // Blocks control never reaches (a `do { } while (0)`'s loop-back, the
  // exit of an inlined helper whose every return goes to the caller's
  // branches) lead nowhere.
  size_t eventsBefore = bp_event_count(engine);
  if (std::optional<std::pair<uint32_t, uint32_t>> blocks = lowerBody(function)) {
    bp_function_entry(engine, blocks->first);
    bp_function_exit(engine, blocks->second);
    // A barrier by contract whose code orders nothing at all (`static
    // void smp_mb_master(void) { }` once its cmm_smp_mb() is gone) still
    // breaks the contract, at its body.
    if (bp_event_count(engine) == eventsBefore && barrierContract(function) && function->getBody())
      bp_add_place(engine, blocks->first, eventLocation(function->getBody()->getBeginLoc()));
  }
  bp_function_end(engine);
}

// Whether a function, or one it calls within the depth that lowering
// follows calls, uses a table primitive.
bool FunctionLowering::calleeUsesPrimitives(const FunctionDecl *callee) const {
  return primitiveDepth(callee) <= InlineDepth;
}

// How many calls below `function` its nearest use of a primitive is (0:
// in its own body), InlineDepth + 1 when there is none that lowering
// would reach. Breadth first, so that the answer is the shortest chain of
// calls whatever order they are met in: a depth-first walk that cuts a
// recursion where it re-enters gave a recursion's members the depth seen
// from wherever the walk entered it, which followed the order of a
// pointer-keyed set and so changed with the heap's layout (a unit lowered
// twice gave two programs).
unsigned FunctionLowering::primitiveDepth(const FunctionDecl *function) const {
  if (auto known = unit.primitiveDepths.find(function); known != unit.primitiveDepths.end())
    return known->second;
  unsigned best = InlineDepth + 1;
  llvm::SmallPtrSet<const FunctionDecl *, 16> seen{function};
  std::vector<const FunctionDecl *> level{function}, next;
  for (unsigned depth = 0; depth < best && !level.empty(); depth++) {
    next.clear();
    for (const FunctionDecl *reached : level) {
      // a depth already known is exact: nothing below it comes closer
      if (auto known = unit.primitiveDepths.find(reached);
          reached != function && known != unit.primitiveDepths.end()) {
        best = std::min(best, depth + known->second);
        continue;
      }
      const UnitState::CallSummary &summary = callSummary(reached);
      if (summary.usesPrimitives) {
        best = depth;
        break;
      }
      for (const FunctionDecl *callee : summary.callees)
        if (seen.insert(callee).second)
          next.push_back(callee);
    }
    level.swap(next);
  }
  return unit.primitiveDepths[function] = std::min(best, InlineDepth + 1);
}

// Whether `function`'s own body uses a primitive, and the defined
// functions it calls; worked out once per unit.
const UnitState::CallSummary &FunctionLowering::callSummary(const FunctionDecl *function) const {
  if (auto known = unit.callSummaries.find(function); known != unit.callSummaries.end())
    return known->second;
  llvm::SmallPtrSet<const FunctionDecl *, 8> callees;
  bool uses = usesPrimitives(function->getBody(), callees);
  UnitState::CallSummary &summary = unit.callSummaries[function];
  summary.usesPrimitives = uses;
  summary.callees.assign(callees.begin(), callees.end());
  return summary;
}

// Lowers `body`'s CFG into new engine blocks of the function being built;
// returns its entry block and the block control leaves it from.
std::optional<std::pair<uint32_t, uint32_t>>
FunctionLowering::lowerBody(const FunctionDecl *lowered) {
  function = lowered;
  Stmt *body = lowered->getBody();
  // An inlined body's graph is the same at each of its calls: built once.
  UnitState::BodyGraph ownGraph;
  UnitState::BodyGraph &graph = site ? unit.inlinedGraphs[lowered] : ownGraph;
  if (!graph.built) {
    graph.built = true;
    CFG::BuildOptions options;
    options.setAllAlwaysAdd();
    graph.cfg = CFG::buildCFG(lowered, body, &context, options);
    if (graph.cfg) {
      graph.dominators = std::make_unique<CFGDomTree>(graph.cfg.get());
      graph.order = reversePostOrder(*graph.cfg);
    }
  }
  // What `graph` owns stays where it is; `graph` itself moves when the
  // calls this body inlines add to the map.
  CFG *cfg = graph.cfg.get();
  if (!cfg)
    return std::nullopt;
  CFGDomTree &dominators = *graph.dominators;
  llvm::ArrayRef<const CFGBlock *> order = graph.order;
  loweredBody = body;
  loweredCfg = cfg;
  assigningStatements.reset();
  bodyWrites.reset();
  nonNullLocals.reset();
  findMacroUses(body);
  collectEmptyBarriers(body, *cfg);
  collectFreshLocals(body, /*gatherAssignments=*/true);
  bindParameters();
  collectDowncasts(body);
  collectBlockGuards(*cfg, dominators);
  collectPublications(*cfg);
  storedInBlock.assign(cfg->getNumBlockIDs(), {});
  acquiredInBlock.assign(cfg->getNumBlockIDs(), {});
  blockEvents.assign(cfg->getNumBlockIDs(), {0, 0});
  establishedByCalls.clear();
  loweredDominators = &dominators;

  std::vector<uint32_t> heads(cfg->getNumBlockIDs());
  for (uint32_t &head : heads)
    head = bp_add_block(engine);
  std::vector<uint32_t> tails = heads;
  blockTails = &tails;
  // In reverse post-order, an opaque use is met first where control enters it.
  for (const CFGBlock *block : order) {
    currentCfgBlock = block->getBlockID();
    loweringBlock = block;
    size_t eventsBefore = bp_event_count(engine);
    currentBlock = heads[currentCfgBlock];
    if (auto pending = carried.find(currentCfgBlock); pending != carried.end()) {
      pending->second.continuation = currentBlock;
      pending->second.events = bp_event_count(engine);
      inlinedHere.push_back(std::move(pending->second));
      carried.erase(pending);
    }
    blockTest =
        block->succ_size() == 2 ? dyn_cast_or_null<Expr>(block->getTerminatorCondition()) : nullptr;
    publishedHere = publishedAtEntry[currentCfgBlock];
    storePublishedHere = storePublishedAtEntry[currentCfgBlock];
    ownPublishedHere = ownPublishedAtEntry[currentCfgBlock];
    llvm::SmallPtrSet<const Stmt *, 4> unevaluated = unevaluatedOperands(*block);
    for (const CFGElement &element : *block) {
      if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>()) {
        if (unevaluated.count(statement->getStmt()))
          continue;
        placeEmptyBarriersBefore(statement->getStmt());
        lowerElement(statement->getStmt());
        collectPublished(statement->getStmt(), publishedHere);
        if (ownAllocationsShared) {
          collectPublished(statement->getStmt(), storePublishedHere, Publication::Store);
          collectPublished(statement->getStmt(), ownPublishedHere, Publication::Own);
        }
      }
    }
    // an `asm goto` ends its block
    if (const auto *assembly = dyn_cast_or_null<GCCAsmStmt>(block->getTerminatorStmt()))
      lowerAssemblyAccess(*assembly);
    routeKnownReturns(*block);
    endTestedSwap();
    tails[currentCfgBlock] = currentBlock;
    blockEvents[currentCfgBlock] = {eventsBefore, bp_event_count(engine)};
  }
  auto addEdge = [&](const CFGBlock *block, uint32_t from, const CFGBlock *target) {
    uint32_t to = heads[target->getBlockID()];
    if (dominators.dominates(target, block))
      bp_add_loop_edge(engine, from, to); // back to the head of a loop
    else
      bp_add_edge(engine, from, to);
  };
  const CFGBlock *exit = &cfg->getExit();
  for (const CFGBlock *block : *cfg) {
    std::optional<int64_t> returned;
    if (site && block->succ_size() == 1 && *block->succ_begin() == exit && !block->empty())
      if (std::optional<CFGStmt> last = block->back().getAs<CFGStmt>())
        if (const auto *statement = dyn_cast<ReturnStmt>(last->getStmt());
            statement && statement->getRetValue())
          returned = knownValue(statement->getRetValue());
    if (returned) {
      knownReturns.push_back({tails[block->getBlockID()], *returned});
      continue;
    }
    // A call that does not return (an assert()'s failure, abort()) ends
    // its path: an inlined helper's does not go on in its caller.
    if (site && block->hasNoReturnElement())
      continue;
    auto decided = decidedBy.find(block->getBlockID());
    unsigned index = 0;
    for (const CFGBlock::AdjacentBlock &successor : block->succs()) {
      const CFGBlock *target = successor.getReachableBlock();
      bool taken = index++ == 0; // a test's successors: where it holds, then where not
      if (!target)
        continue;
      uint32_t from = tails[block->getBlockID()];
      if (auto swap = testedSwaps.find(block->getBlockID()); swap != testedSwaps.end()) {
        const auto *test = dyn_cast_or_null<Expr>(block->getTerminatorCondition());
        bool holds = swap->second.expected
                         ? *holdsWhenSwapped(test, swap->second.root, swap->second.expected)
                         : *valueWith(test, swap->second.root, swap->second.succeededAs) != 0;
        from = holds == taken ? swap->second.succeeded : swap->second.failed;
      }
      addEdge(block, from, target);
      if (decided == decidedBy.end())
        continue;
      for (const KnownReturn &known : decided->second.returns) {
        std::optional<int64_t> test =
            valueWith(dyn_cast_or_null<Expr>(block->getTerminatorCondition()), decided->second.call,
                      known.value);
        if (!test || (*test != 0) == taken)
          addEdge(block, known.block, target);
      }
    }
  }
  if (site)
    establishedFlags(*cfg, order);
  loweringBlock = nullptr;
  loweredDominators = nullptr;
  loweredBody = nullptr;
  parentMap = nullptr;
  maskedValues.reset();
  assigningStatements.reset();
  bodyWrites.reset();
  blockTails = nullptr;
  return std::make_pair(heads[cfg->getEntry().getBlockID()], tails[exit->getBlockID()]);
}

// ---- Calls to functions of the translation unit ----

// Whether the unit calls a function of the table that opens a region KCSAN
// takes as marked (Sema marks a function used where it is called).
bool FunctionLowering::unitOpensRegions() const {
  if (!unit.opensRegions) {
    unit.opensRegions = false;
    for (size_t p = 0; p < bp_primitive_count() && !*unit.opensRegions; p++) {
      const bp_primitive *row = bp_primitive_get(int(p));
      auto name = context.Idents.find(row->name);
      if (row->op != BP_OP_MARKED_BEGIN || name == context.Idents.end())
        continue;
      for (const NamedDecl *declaration :
           context.getTranslationUnitDecl()->lookup(DeclarationName(name->getValue())))
        if (declaration->isUsed())
          unit.opensRegions = true;
    }
  }
  return *unit.opensRegions;
}

// How many more regions KCSAN takes as marked a call of `definition` opens
// than it closes, through its callees at any depth (write sections are
// opened and closed on every way through a helper, so the count ignores
// its paths).
int FunctionLowering::regionBalance(const FunctionDecl *definition) const {
  auto [known, added] = unit.regionBalances.try_emplace(definition, 0);
  if (!added)
    return known->second; // 0 while being worked out: recursion ends
  int balance = 0;
  llvm::SmallVector<const Stmt *, 16> pending{definition->getBody()};
  while (!pending.empty()) {
    const Stmt *statement = pending.pop_back_val();
    if (!statement)
      continue;
    if (const auto *call = dyn_cast<CallExpr>(statement)) {
      int primitive = calledPrimitive(call);
      bp_op op = primitive == BP_NO_PRIMITIVE ? BP_OP_FENCE : bp_primitive_get(primitive)->op;
      if (primitive != BP_NO_PRIMITIVE && op == BP_OP_MARKED_BEGIN)
        balance++;
      else if (primitive != BP_NO_PRIMITIVE && op == BP_OP_MARKED_END)
        balance--;
      else if (const FunctionDecl *callee = call->getDirectCallee();
               primitive == BP_NO_PRIMITIVE && callee && callee->getDefinition() &&
               callee->getDefinition()->hasBody())
        balance += regionBalance(callee->getDefinition());
    }
    for (const Stmt *child : statement->children())
      pending.push_back(child);
  }
  return unit.regionBalances[definition] = balance;
}

// A kernel trace event is neither lowered nor a call of the program: its
// body is the tracing's own (a static key, the probes' array read under
// RCU, which orders against the probes' registration, not the caller's
// protocol), and its probes keep nothing they are handed (isTraceEvent).
const FunctionDecl *FunctionLowering::inlinableCallee(const Stmt *statement) const {
  const auto *call = dyn_cast<CallExpr>(statement);
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  if (!definition || !definition->hasBody() || definition->isVariadic() || isTraceEvent(callee))
    return nullptr;
  unsigned depth = site ? site->stack.size() : 0;
  if (depth >= InlineDepth || definition == function ||
      (site && llvm::is_contained(site->stack, definition)))
    return nullptr;
  return calleeUsesPrimitives(definition) ? definition : nullptr;
}

// A function of the program whose code is not lowered at this call: one
// defined in another file (the analysis looks it up in the program), or
// one of this file past the depth calls are followed. The C library's and
// the system's functions are not the program's, nor a trace event.
const FunctionDecl *FunctionLowering::unloweredCallee(const Stmt *statement) const {
  const auto *call = dyn_cast<CallExpr>(statement);
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || !callee->getIdentifier() || callee->getBuiltinID() != 0 ||
      sources.isInSystemHeader(sources.getExpansionLoc(callee->getLocation())) ||
      isTraceEvent(callee))
    return nullptr;
  const FunctionDecl *definition = callee->getDefinition();
  if (!definition || !definition->hasBody())
    return callee;
  return calleeUsesPrimitives(definition) ? callee : nullptr;
}

// A function of this unit lowered on its own whose every call is a call
// event: so that it runs under the locks its callers hold there.
const FunctionDecl *FunctionLowering::calleeWithKnownCallers(const Stmt *statement) const {
  const auto *call = dyn_cast<CallExpr>(statement);
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  return callee && unit.callers.count(callee->getCanonicalDecl()) ? callee : nullptr;
}

// Only a callee that uses a table primitive (a barrier, a marked or atomic
// access, a lock) is lowered at its calls: plain helpers, such as a
// generic list's, would only add accesses to objects every caller shares
// by type.
// Whether `statement` itself uses a primitive; the defined functions it
// calls go to `callees`.
bool FunctionLowering::usesPrimitives(const Stmt *statement,
                                      llvm::SmallPtrSetImpl<const FunctionDecl *> &callees) const {
  if (!statement)
    return false;
  if (outermostKnownMacro(statement->getBeginLoc()) || directUse(statement) ||
      assemblyAccess(statement))
    return true;
  // A volatile or _Atomic access marks a race as a primitive does.
  if (const auto *expression = dyn_cast<Expr>(statement);
      expression && expression->isGLValue() && isMarkedType(expression->getType()))
    return true;
  if (const auto *call = dyn_cast<CallExpr>(statement)) {
    const FunctionDecl *callee = call->getDirectCallee();
    const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    if (definition && definition->hasBody())
      callees.insert(definition);
  }
  for (const Stmt *child : statement->children())
    if (usesPrimitives(child, callees))
      return true;
  return false;
}

void FunctionLowering::inlineCall(const CallExpr *call, const FunctionDecl *callee,
                                  std::optional<unsigned> contractStrength) {
  CallSite inner;
  inner.caller = this;
  inner.call = call;
  inner.location = site ? site->location : sources.getExpansionLoc(call->getBeginLoc());
  if (site) {
    inner.statement = site->statement;
    inner.indentation = site->indentation;
    inner.stack = site->stack;
  } else if (SourceLocation start = statementBegin(call); start.isValid()) {
    inner.statement = engineLocation(start);
    inner.indentation = indentationAt(start);
  }
  inner.stack.push_back(function);
  inner.guards = currentGuards();
  inner.afterSetUp = currentAfterSetUp();
  inner.valueGuards = currentValueGuards();
  FunctionLowering body(context, engine, files, unit, &inner);
  if (contractStrength) {
    // the callee's code is the one barrier its contract says it is
    body.function = callee;
    body.currentBlock = currentBlock;
    body.addBarrier(*contractStrength, BP_NO_PRIMITIVE, false, call->getBeginLoc(), nullptr);
    return;
  }
  std::optional<std::pair<uint32_t, uint32_t>> blocks = body.lowerBody(callee);
  if (!blocks)
    return;
  bp_add_edge(engine, currentBlock, blocks->first);
  currentBlock = bp_add_block(engine);
  bp_add_edge(engine, blocks->second, currentBlock);
  noteStores(callee, body, inner.stack.size());
  inlinedHere.push_back({call, std::move(body.knownReturns), currentBlock, bp_event_count(engine)});
}

// What an inlined body stores with a release and establishes, in the block
// of its call, and kept for calls of it past the depth (the least deep copy
// sees most).
void FunctionLowering::noteStores(const FunctionDecl *callee, const FunctionLowering &body,
                                  size_t depth) {
  UnitState::StoreSummary summary;
  summary.depth = depth;
  for (const llvm::SmallVector<uint32_t, 2> &objects : body.storedInBlock)
    for (uint32_t object : objects)
      addUnique(summary.stored, object);
  summary.established = body.establishedAtExit;
  addCalleeStores(summary);
  auto [kept, added] = unit.storeSummaries.try_emplace(callee->getCanonicalDecl(), summary);
  if (!added && kept->second.depth > depth)
    kept->second = std::move(summary);
}

void FunctionLowering::addCalleeStores(const UnitState::StoreSummary &summary) {
  if (currentCfgBlock < storedInBlock.size())
    for (uint32_t object : summary.stored)
      addUnique(storedInBlock[currentCfgBlock], object);
  for (uint32_t flag : summary.established)
    establishedByCalls.push_back({loweringBlock, flag});
}

// An integer constant (evaluate), or a null pointer constant.
std::optional<int64_t> FunctionLowering::knownValue(const Expr *value) const {
  if (std::optional<int64_t> constant = evaluate(value))
    return constant;
  if (!value->isValueDependent() &&
      value->isNullPointerConstant(context, Expr::NPC_ValueDependentIsNotNull))
    return 0;
  return std::nullopt;
}

// A value that is not zero though not a known constant: the address of an
// object or of a part of one (`&node->next`, an array), also where an
// inlined call's parameter is bound to one.
bool FunctionLowering::knownNonZero(const Expr *value) const {
  value = value->IgnoreParenCasts();
  if (const auto *unary = dyn_cast<UnaryOperator>(value); unary && unary->getOpcode() == UO_AddrOf)
    return true;
  if (value->getType()->isArrayType() || value->getType()->isFunctionType())
    return true;
  if (std::optional<int64_t> constant = knownValue(value))
    return *constant != 0;
  if (auto [argument, caller] = argumentOf(value); argument)
    return caller->knownNonZero(argument);
  if (const VarDecl *local = localOf(value); local && nonNullHere(local))
    return true;
  if (const auto *call = dyn_cast<CallExpr>(value))
    if (const FunctionDecl *callee = call->getDirectCallee())
      if (const FunctionDecl *definition = callee->getDefinition();
          definition && definition->hasBody())
        return returnsNonZero(definition);
  if (const VarDecl *local = localOf(value);
      local && local->hasLocalStorage() && !isa<ParmVarDecl>(local))
    if (const Expr *only = onlyValue(local))
      return knownNonZero(only);
  return false;
}

// The local pointer `test` finds null or not (`p`, `!p`, `p == NULL`, `(p =
// load(...)) != NULL`), and which of the test's two ways (0: where it
// holds) has it not null.
std::optional<std::pair<const VarDecl *, unsigned>>
FunctionLowering::nullTest(const Expr *test) const {
  unsigned nonNullWay = 0;
  for (;;) {
    test = test->IgnoreParenImpCasts();
    if (const auto *negation = dyn_cast<UnaryOperator>(test);
        negation && negation->getOpcode() == UO_LNot) {
      nonNullWay ^= 1;
      test = negation->getSubExpr();
    } else if (const auto *comparison = dyn_cast<BinaryOperator>(test);
               comparison && comparison->isEqualityOp()) {
      const Expr *left = comparison->getLHS(), *right = comparison->getRHS();
      auto null = [&](const Expr *side) {
        return side->IgnoreParenCasts()->isNullPointerConstant(context,
                                                               Expr::NPC_ValueDependentIsNotNull);
      };
      if (comparison->getOpcode() == BO_EQ)
        nonNullWay ^= 1;
      test = null(right) ? left : null(left) ? right : nullptr;
      if (!test)
        return std::nullopt;
    } else if (const auto *assignment = dyn_cast<BinaryOperator>(test);
               assignment && assignment->getOpcode() == BO_Assign) {
      test = assignment->getLHS(); // `(next = load(...)) == NULL` tests `next`
    } else {
      break;
    }
  }
  const VarDecl *variable = localOf(test);
  if (!variable || !variable->getType()->isPointerType())
    return std::nullopt;
  return std::make_pair(variable, nonNullWay);
}

// Whether every path to the block being lowered has tested `local` not null
// since its last write (`for (;;) { head = xchg(&q->next, NULL); if (head)
// break; ... }`), and the block does not write it before.
bool FunctionLowering::nonNullHere(const VarDecl *local) const {
  if (!loweredCfg || !local->getType()->isPointerType())
    return false;
  if (!nonNullLocals) {
    const CFG &cfg = *loweredCfg;
    unsigned count = cfg.getNumBlockIDs();
    NonNullLocals flow{std::vector<llvm::SmallPtrSet<const VarDecl *, 2>>(count),
                       std::vector<llvm::SmallPtrSet<const VarDecl *, 2>>(count)};
    // the local a block's test finds not null, and on which of its two ways
    std::vector<std::pair<const VarDecl *, unsigned>> tested(count, {nullptr, 0});
    auto noteWrites = [&](const Stmt *statement, llvm::SmallPtrSetImpl<const VarDecl *> &into) {
      std::function<void(const Stmt *)> walk = [&](const Stmt *part) {
        if (!part)
          return;
        if (const auto *binary = dyn_cast<BinaryOperator>(part); binary && binary->isAssignmentOp())
          if (const VarDecl *target = localOf(binary->getLHS()))
            into.insert(target);
        if (const auto *unary = dyn_cast<UnaryOperator>(part);
            unary && (unary->isIncrementDecrementOp() || unary->getOpcode() == UO_AddrOf))
          if (const VarDecl *target = localOf(unary->getSubExpr()))
            into.insert(target);
        if (const auto *declarations = dyn_cast<DeclStmt>(part))
          for (const Decl *declaration : declarations->decls())
            if (const auto *variable = dyn_cast<VarDecl>(declaration))
              into.insert(variable);
        for (const Stmt *child : part->children())
          walk(child);
      };
      walk(statement);
    };
    for (const CFGBlock *block : cfg) {
      unsigned id = block->getBlockID();
      for (const CFGElement &element : *block)
        if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>())
          noteWrites(statement->getStmt(), flow.written[id]);
      const auto *test = block->succ_size() == 2
                             ? dyn_cast_or_null<Expr>(block->getTerminatorCondition())
                             : nullptr;
      if (std::optional<std::pair<const VarDecl *, unsigned>> found =
              test ? nullTest(test) : std::nullopt)
        tested[id] = *found;
    }
    // Must hold on every path: a block no path has reached yet knows
    // everything; each pass can only take locals away.
    std::vector<bool> reached(count, false);
    unsigned entry = cfg.getEntry().getBlockID();
    reached[entry] = true;
    std::vector<const CFGBlock *> order = reversePostOrder(cfg);
    for (bool changed = true; changed;) {
      changed = false;
      for (const CFGBlock *block : order) {
        unsigned id = block->getBlockID();
        if (id == entry)
          continue;
        bool any = false;
        llvm::SmallPtrSet<const VarDecl *, 2> meet;
        for (const CFGBlock::AdjacentBlock &predecessor : block->preds()) {
          const CFGBlock *from = predecessor.getReachableBlock();
          if (!from || !reached[from->getBlockID()])
            continue;
          unsigned source = from->getBlockID(), way = 0;
          for (const CFGBlock::AdjacentBlock &successor : from->succs()) {
            unsigned index = way++;
            if (successor.getReachableBlock() != block)
              continue;
            llvm::SmallPtrSet<const VarDecl *, 2> out;
            for (const VarDecl *variable : flow.atEntry[source])
              if (!flow.written[source].count(variable))
                out.insert(variable);
            if (tested[source].first && tested[source].second == index)
              out.insert(tested[source].first);
            if (!any) {
              meet = std::move(out);
              any = true;
            } else {
              meet.remove_if([&](const VarDecl *variable) { return !out.count(variable); });
            }
          }
        }
        if (!any)
          continue;
        bool same = reached[id] && meet.size() == flow.atEntry[id].size() &&
                    llvm::all_of(meet, [&](const VarDecl *v) { return flow.atEntry[id].count(v); });
        if (!same) {
          flow.atEntry[id] = std::move(meet);
          reached[id] = true;
          changed = true;
        }
      }
    }
    nonNullLocals = std::move(flow);
  }
  return currentCfgBlock < nonNullLocals->atEntry.size() &&
         nonNullLocals->atEntry[currentCfgBlock].count(local) &&
         !nonNullLocals->written[currentCfgBlock].count(local);
}

// Whether every return of `definition` gives a value that is not zero (a
// helper that waits for a queue's next node: `while ((next =
// CMM_LOAD_SHARED(node->next)) == NULL) ...; return next;`, or returns a
// non-zero constant when told not to wait).
bool FunctionLowering::returnsNonZero(const FunctionDecl *definition) const {
  auto [known, added] = unit.nonZeroReturns.try_emplace(definition, false);
  if (!added)
    return known->second; // false while being worked out: recursion ends
  bool some = false, all = true;
  std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
    if (!statement || !all || isa<Expr>(statement))
      return;
    if (const auto *result = dyn_cast<ReturnStmt>(statement)) {
      some = true;
      all = returnedNonZero(result->getRetValue(), nullptr);
      return;
    }
    if (const auto *compound = dyn_cast<CompoundStmt>(statement)) {
      const Stmt *before = nullptr;
      for (const Stmt *child : compound->body()) {
        if (const auto *result = dyn_cast<ReturnStmt>(child)) {
          some = true;
          all = all && returnedNonZero(result->getRetValue(), before);
        } else {
          walk(child);
        }
        before = child;
      }
      return;
    }
    for (const Stmt *child : statement->children())
      walk(child);
  };
  walk(definition->getBody());
  return unit.nonZeroReturns[definition] = some && all;
}

// `value`, returned right after the statement `before` (or none), is not
// zero: a non-zero constant, an address, or the local that a loop just
// before waited on until it was not null, a loop that nothing but its test
// leaves (`while ((next = load(&node->next)) == NULL)`, a `return` inside
// it goes elsewhere).
bool FunctionLowering::returnedNonZero(const Expr *value, const Stmt *before) const {
  if (!value)
    return false;
  value = value->IgnoreParenCasts();
  if (std::optional<int64_t> constant = knownValue(value))
    return *constant != 0;
  if (const auto *unary = dyn_cast<UnaryOperator>(value); unary && unary->getOpcode() == UO_AddrOf)
    return true;
  const VarDecl *local = localOf(value);
  const Expr *test = nullptr;
  const Stmt *body = nullptr;
  if (const auto *loop = dyn_cast_or_null<WhileStmt>(before)) {
    test = loop->getCond();
    body = loop->getBody();
  } else if (const auto *loop = dyn_cast_or_null<ForStmt>(before)) {
    test = loop->getCond();
    body = loop->getBody();
  }
  // the loop goes round while the local is null: it leaves on the test's
  // false way with the local not null
  std::optional<std::pair<const VarDecl *, unsigned>> tested = test ? nullTest(test) : std::nullopt;
  if (!local || !tested || tested->first != local || tested->second != 1)
    return false;
  // nothing but the test leaves the loop, and nothing else writes the local
  bool leaves = false;
  std::function<void(const Stmt *, bool)> walk = [&](const Stmt *statement, bool nested) {
    if (!statement || leaves)
      return;
    if ((isa<BreakStmt>(statement) && !nested) || isa<GotoStmt>(statement) ||
        isa<IndirectGotoStmt>(statement))
      leaves = true;
    if (const auto *write = dyn_cast<BinaryOperator>(statement);
        write && write->isAssignmentOp() && localOf(write->getLHS()) == local)
      leaves = true;
    if (const auto *unary = dyn_cast<UnaryOperator>(statement);
        unary && unary->getOpcode() == UO_AddrOf && localOf(unary->getSubExpr()) == local)
      leaves = true;
    bool inner = nested || isa<WhileStmt>(statement) || isa<ForStmt>(statement) ||
                 isa<DoStmt>(statement) || isa<SwitchStmt>(statement);
    for (const Stmt *child : statement->children())
      walk(child, inner);
  };
  walk(body, false);
  return !leaves;
}

// What `expression` (a branch's test) comes to when `call` returns `value`,
// if that decides it. In the block that tests the right side of `&&` or
// `||`, the whole test is that side's value.
std::optional<int64_t> FunctionLowering::valueWith(const Expr *expression, const Expr *subject,
                                                   int64_t value) const {
  if (!expression)
    return std::nullopt;
  expression = expression->IgnoreParenImpCasts();
  if (expression == subject->IgnoreParenImpCasts())
    return value;
  // `ret = helper(); if (!ret)`: a local that holds the value and nothing else
  if (const auto *reference = dyn_cast<DeclRefExpr>(expression);
      reference && reference->getDecl() == resultHolder(subject))
    return value;
  if (const auto *unary = dyn_cast<UnaryOperator>(expression);
      unary && unary->getOpcode() == UO_LNot) {
    std::optional<int64_t> operand = valueWith(unary->getSubExpr(), subject, value);
    return operand ? std::optional<int64_t>(*operand == 0) : std::nullopt;
  }
  if (const auto *builtin = dyn_cast<CallExpr>(expression);
      builtin && builtin->getBuiltinCallee() == Builtin::BI__builtin_expect)
    return valueWith(builtin->getArg(0), subject, value);
  const auto *binary = dyn_cast<BinaryOperator>(expression);
  if (!binary)
    return knownValue(expression);
  if (binary->getOpcode() == BO_Assign || binary->isLogicalOp())
    return valueWith(binary->getRHS(), subject, value);
  if (binary->getOpcode() != BO_EQ && binary->getOpcode() != BO_NE)
    return std::nullopt;
  std::optional<int64_t> left = valueWith(binary->getLHS(), subject, value);
  std::optional<int64_t> right = valueWith(binary->getRHS(), subject, value);
  if (!left || !right)
    return std::nullopt;
  return (*left == *right) == (binary->getOpcode() == BO_EQ);
}

// The local that `subject` (a call) is stored into, `ret = call` or `T ret =
// call`, when that is the only write to it and its address is never taken:
// a test of the local is a test of the call's value.
const VarDecl *FunctionLowering::resultHolder(const Expr *subject) const {
  if (!loweredBody || !parents())
    return nullptr;
  auto [known, added] = holders.try_emplace(subject, nullptr);
  if (!added)
    return known->second;
  const Stmt *parent = parents()->getParentIgnoreParenImpCasts(const_cast<Expr *>(subject));
  const VarDecl *holder = nullptr;
  if (const auto *assignment = dyn_cast_or_null<BinaryOperator>(parent);
      assignment && assignment->getOpcode() == BO_Assign &&
      assignment->getRHS()->IgnoreParenImpCasts() == subject->IgnoreParenImpCasts())
    if (const auto *target = dyn_cast<DeclRefExpr>(assignment->getLHS()->IgnoreParenImpCasts()))
      holder = dyn_cast<VarDecl>(target->getDecl());
  if (const auto *declaration = dyn_cast_or_null<DeclStmt>(parent);
      declaration && declaration->isSingleDecl())
    if (const auto *variable = dyn_cast<VarDecl>(declaration->getSingleDecl());
        variable && variable->getInit() &&
        variable->getInit()->IgnoreParenImpCasts() == subject->IgnoreParenImpCasts())
      holder = variable;
  if (!holder || !holder->hasLocalStorage() || holder->getType().isVolatileQualified())
    return nullptr;
  unsigned writes = holder->getInit() ? 1 : 0;
  bool escapes = false;
  countWrites(holder, writes, escapes);
  return holders[subject] = writes == 1 && !escapes ? holder : nullptr;
}

// Adds to `writes` the assignments of `local` in the body being lowered,
// and sets `escapes` where it is incremented or decremented or its address
// taken (after which nothing is known of its writes).
void FunctionLowering::countWrites(const VarDecl *local, unsigned &writes, bool &escapes) const {
  // One walk of the body counts every local's writes (a test of a local, a
  // parameter or a value holder asks, each for its own).
  if (!bodyWrites) {
    bodyWrites.emplace();
    auto localOfTarget = [](const Expr *target) -> const VarDecl * {
      const auto *reference = dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts());
      return reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
    };
    std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
      if (!statement)
        return;
      if (const auto *binary = dyn_cast<BinaryOperator>(statement);
          binary && binary->isAssignmentOp())
        if (const VarDecl *target = localOfTarget(binary->getLHS()))
          (*bodyWrites)[target].first++;
      if (const auto *unary = dyn_cast<UnaryOperator>(statement);
          unary && (unary->isIncrementDecrementOp() || unary->getOpcode() == UO_AddrOf))
        if (const VarDecl *target = localOfTarget(unary->getSubExpr()))
          (*bodyWrites)[target].second = true;
      for (const Stmt *child : statement->children())
        walk(child);
    };
    walk(loweredBody);
  }
  auto found = bodyWrites->find(local);
  if (found == bodyWrites->end())
    return;
  writes += found->second.first;
  escapes = escapes || found->second.second;
}

// Whether the test that ends the block being lowered takes one branch when
// `subject` is true and the other when it is false.
bool FunctionLowering::testDecidedBy(const Expr *subject) const {
  return testDecides(blockTest, subject);
}

// Whether `test` takes one branch when `subject` is true and the other when
// it is false.
bool FunctionLowering::testDecides(const Expr *test, const Expr *subject) const {
  if (!test)
    return false;
  std::optional<int64_t> succeeded = valueWith(test, subject, 1);
  std::optional<int64_t> failed = valueWith(test, subject, 0);
  return succeeded && failed && (*succeeded != 0) != (*failed != 0);
}

// Whether `test` holds where `swap`, a compare-and-swap that returns the
// value it found, stored: the test compares that value with `expected`,
// the value the swap expected (`cmpxchg(p, old, new) == old`, `!=`, under
// `!` or likely()). None for any other test.
std::optional<bool> FunctionLowering::holdsWhenSwapped(const Expr *test, const Expr *swap,
                                                       const Expr *expected) const {
  if (!test || !swap || !expected)
    return std::nullopt;
  // the same constant, variable or field of one (casts and lvalue reads aside)
  std::function<bool(const Expr *, const Expr *)> same = [&](const Expr *a, const Expr *b) {
    a = a->IgnoreParenCasts();
    b = b->IgnoreParenCasts();
    if (std::optional<int64_t> left = knownValue(a))
      return left == knownValue(b);
    if (const auto *left = dyn_cast<DeclRefExpr>(a))
      if (const auto *right = dyn_cast<DeclRefExpr>(b))
        return left->getDecl() == right->getDecl();
    if (const auto *left = dyn_cast<MemberExpr>(a))
      if (const auto *right = dyn_cast<MemberExpr>(b))
        return left->getMemberDecl() == right->getMemberDecl() &&
               left->isArrow() == right->isArrow() && same(left->getBase(), right->getBase());
    return false;
  };
  // a macro's sign-keeping cast (`signed ? (long)v : (unsigned long)v`) is v
  auto operand = [&](const Expr *value) {
    value = value->IgnoreParenCasts();
    if (const auto *choice = dyn_cast<ConditionalOperator>(value);
        choice && same(choice->getTrueExpr(), choice->getFalseExpr()))
      value = choice->getTrueExpr()->IgnoreParenCasts();
    return value;
  };
  const Expr *swapped = swap->IgnoreParenCasts(), *guess = operand(expected);
  bool negated = false;
  for (;;) {
    test = test->IgnoreParenCasts();
    if (const auto *unary = dyn_cast<UnaryOperator>(test); unary && unary->getOpcode() == UO_LNot) {
      negated = !negated;
      test = unary->getSubExpr();
    } else if (const auto *call = dyn_cast<CallExpr>(test);
               call && call->getBuiltinCallee() == Builtin::BI__builtin_expect &&
               call->getNumArgs() == 2) {
      test = call->getArg(0);
    } else {
      break;
    }
  }
  const auto *comparison = dyn_cast<BinaryOperator>(test);
  if (!comparison || !comparison->isEqualityOp())
    return std::nullopt;
  const Expr *left = operand(comparison->getLHS()), *right = operand(comparison->getRHS());
  if (!((left == swapped && same(right, guess)) || (right == swapped && same(left, guess))))
    return std::nullopt;
  return (comparison->getOpcode() == BO_EQ) != negated;
}

// At the end of a CFG block: a compare-and-swap its test reads goes on to
// the test's branches from the block of its outcome. Where something was
// emitted after it (`if (cas(...) == (x = load(...)))`), both outcomes
// join before that, as if the store came after it.
void FunctionLowering::endTestedSwap() {
  if (!testedSwap)
    return;
  TestedSwap swap = *testedSwap;
  testedSwap.reset();
  if (swap.events == bp_event_count(engine)) {
    bp_add_edge(engine, currentBlock, swap.succeeded);
    bp_add_edge(engine, currentBlock, swap.failed);
    testedSwaps[currentCfgBlock] = swap;
    return;
  }
  uint32_t joined = bp_add_block(engine);
  bp_add_edge(engine, currentBlock, swap.succeeded);
  bp_add_edge(engine, currentBlock, swap.failed);
  bp_add_edge(engine, swap.succeeded, joined);
  bp_add_edge(engine, swap.failed, joined);
  currentBlock = joined;
}

// At the end of a CFG block: the known returns of each call inlined in it
// go to the branch its terminator's test takes with their value, or on to
// the caller when the block returns the call's value, or on with the
// call's other returns. Only where nothing happened after the call.
void FunctionLowering::routeKnownReturns(const CFGBlock &block) {
  std::vector<InlinedCall> calls = std::move(inlinedHere);
  inlinedHere.clear();
  for (InlinedCall &inlined : calls) {
    if (inlined.returns.empty())
      continue;
    bool last = &inlined == &calls.back() && inlined.continuation == currentBlock &&
                inlined.events == bp_event_count(engine);
    // An assertion's test is no use of the value: the test may come after.
    const CFGBlock *next = last ? pastAssertion(block) : nullptr;
    if (next && block.succ_size() == 2) {
      endFailedAssertion(block, inlined);
      carried[next->getBlockID()] = std::move(inlined);
      continue;
    }
    const auto *test = dyn_cast_or_null<Expr>(block.getTerminatorCondition());
    if (last && test && block.succ_size() == 2 &&
        valueWith(test, inlined.call, inlined.returns.front().value)) {
      decidedBy[block.getBlockID()] = std::move(inlined);
      continue;
    }
    const ReturnStmt *returned = nullptr;
    if (!block.empty())
      if (std::optional<CFGStmt> statement = block.back().getAs<CFGStmt>())
        returned = dyn_cast<ReturnStmt>(statement->getStmt());
    if (last && site && returned && returned->getRetValue() &&
        returned->getRetValue()->IgnoreParenImpCasts() == inlined.call) {
      knownReturns.insert(knownReturns.end(), inlined.returns.begin(), inlined.returns.end());
      continue;
    }
    if (next) {
      carried[next->getBlockID()] = std::move(inlined);
      continue;
    }
    for (const KnownReturn &known : inlined.returns)
      bp_add_edge(engine, known.block, inlined.continuation);
  }
}

// At a block that ends in an assertion (one way does not return): the
// known returns whose value fails it end there (`assert(ret != BUSY)` after
// a helper that returns BUSY only where it would not wait).
void FunctionLowering::endFailedAssertion(const CFGBlock &block, InlinedCall &inlined) const {
  const auto *test = dyn_cast_or_null<Expr>(block.getTerminatorCondition());
  const CFGBlock *whereTrue = block.succ_begin()->getReachableBlock();
  if (!test || !whereTrue)
    return;
  bool failsWhenTrue = whereTrue->hasNoReturnElement();
  std::vector<KnownReturn> &returns = inlined.returns;
  returns.erase(std::remove_if(returns.begin(), returns.end(),
                               [&](const KnownReturn &known) {
                                 std::optional<int64_t> holds =
                                     valueWith(test, inlined.call, known.value);
                                 return holds && (*holds != 0) == failsWhenTrue;
                               }),
                returns.end());
}

// The way on from a block that has one, or that ends in a test one of whose
// ways does not return (an assert()'s failure), when this block is the only
// way into it; null otherwise.
const CFGBlock *FunctionLowering::pastAssertion(const CFGBlock &block) {
  // the only way into `on` (a failed assertion's block never goes on)
  auto onlyFrom = [](const CFGBlock *on) {
    unsigned ways = 0;
    for (const CFGBlock::AdjacentBlock &predecessor : on->preds())
      ways += predecessor.getReachableBlock() != nullptr;
    return ways == 1;
  };
  if (block.succ_size() == 1) {
    const CFGBlock *on = block.succ_begin()->getReachableBlock();
    return on && onlyFrom(on) ? on : nullptr;
  }
  if (block.succ_size() != 2)
    return nullptr;
  const CFGBlock *on = nullptr;
  unsigned ending = 0;
  for (const CFGBlock::AdjacentBlock &successor : block.succs()) {
    const CFGBlock *target = successor.getReachableBlock();
    if (!target)
      return nullptr;
    if (target->hasNoReturnElement())
      ending++;
    else
      on = target;
  }
  return ending == 1 && on && onlyFrom(on) ? on : nullptr;
}

// A parameter carries what its argument reads in the caller; `*p` with
// p = &flag names flag.
void FunctionLowering::bindParameters() {
  if (!site)
    return;
  for (unsigned i = 0; i < function->getNumParams() && i < site->call->getNumArgs(); i++) {
    const ParmVarDecl *parameter = function->getParamDecl(i);
    llvm::SmallVector<uint32_t, 2> objects;
    site->caller->collectObjectsRead(site->call->getArg(i), objects);
    // a parameter the body assigns (`for_each_pmc_rcu(in_dev, pmc)` when
    // the caller passed none) also holds what those assignments read
    if (auto assigned = localAssignments.find(parameter); assigned != localAssignments.end())
      for (const Expr *value : assigned->second)
        collectObjectsRead(value, objects);
    localSources[parameter] = objects;
  }
}

// The argument a parameter of this inlined body is bound to, with the
// lowering that can name it.
std::pair<const Expr *, const FunctionLowering *>
FunctionLowering::argumentOf(const Expr *expression) const {
  const auto *reference = dyn_cast<DeclRefExpr>(expression->IgnoreParenCasts());
  if (!reference || !site)
    return {nullptr, nullptr};
  if (const auto *parameter = dyn_cast<ParmVarDecl>(reference->getDecl()))
    return argumentOf(parameter);
  // A local that holds a parameter and nothing else (`struct __cds_wfs_stack
  // *s = u_stack._s;`, the member of a transparent union the caller's
  // pointer was passed as) is that parameter.
  const auto *local = dyn_cast<VarDecl>(reference->getDecl());
  if (!local || !local->hasLocalStorage() || !local->getInit() ||
      !local->getType()->isPointerType() || !writtenOnlyByInit(local))
    return {nullptr, nullptr};
  const Expr *value = local->getInit()->IgnoreParenCasts();
  bool throughUnion = false;
  if (const auto *member = dyn_cast<MemberExpr>(value);
      member && !member->isArrow() && member->getBase()->getType()->isUnionType()) {
    value = member->getBase()->IgnoreParenCasts();
    throughUnion = true;
  }
  const auto *source = dyn_cast<DeclRefExpr>(value);
  auto [argument, caller] = argumentOf(source ? dyn_cast<ParmVarDecl>(source->getDecl()) : nullptr);
  // The caller's pointer, made the union's value (a compound literal of it).
  if (argument && throughUnion) {
    const auto *literal = dyn_cast<CompoundLiteralExpr>(argument->IgnoreParenCasts());
    const auto *list = literal ? dyn_cast<InitListExpr>(literal->getInitializer()) : nullptr;
    if (!list || list->getNumInits() != 1)
      return {nullptr, nullptr};
    argument = list->getInit(0);
  }
  return {argument, caller};
}

// Whether nothing but its initialiser writes `local` (no assignment, no
// increment, its address never taken) in the body being lowered.
bool FunctionLowering::writtenOnlyByInit(const VarDecl *local) const {
  auto [known, added] = initialisedOnly.try_emplace(local, true);
  if (!added || !loweredBody)
    return known->second;
  unsigned writes = 0;
  bool escapes = false;
  countWrites(local, writes, escapes);
  return initialisedOnly[local] = writes == 0 && !escapes;
}

std::pair<const Expr *, const FunctionLowering *>
FunctionLowering::argumentOf(const ParmVarDecl *parameter) const {
  if (!site || !parameter || parameter->getFunctionScopeIndex() >= site->call->getNumArgs() ||
      parameter->getDeclContext() != function)
    return {nullptr, nullptr};
  return {site->call->getArg(parameter->getFunctionScopeIndex()), site->caller};
}

// The expressions of `block` that only `__builtin_constant_p()` looks at,
// never evaluated (the kernel's test_bit() asks it of the word it tests).
llvm::SmallPtrSet<const Stmt *, 4> FunctionLowering::unevaluatedOperands(const CFGBlock &block) {
  llvm::SmallPtrSet<const Stmt *, 4> operands;
  llvm::SmallVector<const Stmt *, 8> pending;
  for (const CFGElement &element : block)
    if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>())
      if (const auto *call = dyn_cast<CallExpr>(statement->getStmt());
          call && call->getNumArgs() == 1 &&
          call->getBuiltinCallee() == Builtin::BI__builtin_constant_p)
        pending.push_back(call->getArg(0));
  while (!pending.empty()) {
    const Stmt *operand = pending.pop_back_val();
    if (!operand || !operands.insert(operand).second)
      continue;
    for (const Stmt *child : operand->children())
      pending.push_back(child);
  }
  return operands;
}

std::vector<const CFGBlock *> FunctionLowering::reversePostOrder(const CFG &cfg) {
  std::vector<const CFGBlock *> order;
  std::vector<bool> seen(cfg.getNumBlockIDs());
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> stack;
  const CFGBlock *entry = &cfg.getEntry();
  seen[entry->getBlockID()] = true;
  stack.push_back({entry, entry->succ_begin()});
  while (!stack.empty()) {
    auto &[block, next] = stack.back();
    if (next == block->succ_end()) {
      order.push_back(block);
      stack.pop_back();
      continue;
    }
    const CFGBlock *successor = next->getReachableBlock();
    ++next;
    if (successor && !seen[successor->getBlockID()]) {
      seen[successor->getBlockID()] = true;
      stack.push_back({successor, successor->succ_begin()});
    }
  }
  return {order.rbegin(), order.rend()};
}

// ---- Elements of a block ----

void FunctionLowering::lowerElement(const Stmt *statement) {
  if (statement->getBeginLoc().isMacroID() && inExcusedCode(statement->getBeginLoc()))
    return;
  int marking = BP_NO_PRIMITIVE;
  if (std::optional<MacroHit> hit = outermostKnownMacro(statement->getBeginLoc())) {
    const bp_primitive &primitive = *bp_primitive_get(hit->primitive);
    // A marking macro over a call (CK's ck_pr_load_int() over an inline
    // function whose access is assembly) accesses what the call is given.
    bool overCall = isa<CallExpr>(statement) && sameUse(statement, *hit);
    if (isOpaque(primitive) || overCall) {
      auto found = macroUses->find(keyOf(*hit));
      if (found == macroUses->end())
        return;
      if (emittedUses.insert(found->second.root).second)
        emitOpaque(found->second);
      return;
    }
    marking = hit->primitive;
  }
  if (std::optional<PrimitiveUse> use = directUse(statement)) {
    // A called marking (ck_pr_load_int(&x)) accesses through its
    // argument, which its caller's AST never loads: the call is the access.
    if (isOpaque(*bp_primitive_get(use->primitive)) || isa<CallExpr>(statement)) {
      emitOpaque(*use);
      return;
    }
    marking = use->primitive;
  }
  if (const FunctionDecl *callee = inlinableCallee(statement)) {
    // A function lowered on its own too runs, there, under the locks held
    // at every call of it, these included
    if (unit.callers.count(callee->getCanonicalDecl())) {
      uint32_t call = bp_add_call(engine, currentBlock, callee->getNameAsString().c_str(),
                                  eventLocation(statement->getBeginLoc()));
      bp_set_call_inlined(engine, call);
      noteUnpublishedArguments(call, statement);
    }
    // The membarrier scheme's two sides: what the callee's paths order
    // differs (a system call or a full barrier; a compiler barrier the
    // system call promotes, or a full barrier), and the library's contract
    // states what a call of it is. The callee's own code is checked
    // against the contract where it is defined.
    if (std::optional<bp_order> order = lowering::barrierContract(callee)) {
      inlineCall(cast<CallExpr>(statement), callee, bp_order_strength(*order));
      return;
    }
    inlineCall(cast<CallExpr>(statement), callee);
    return;
  }
  const FunctionDecl *callee = unloweredCallee(statement);
  // a helper past the depth lowering follows that opens a region KCSAN
  // takes as marked (write_seqlock()'s kcsan_nestable_atomic_begin(), four
  // calls down from xfrm_set_spdinfo()): what follows is in it
  if (const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
      definition && definition->hasBody() && unitOpensRegions()) {
    int opened = regionBalance(definition);
    unit.markedRegions = opened < 0 && unit.markedRegions < unsigned(-opened)
                             ? 0
                             : unsigned(int(unit.markedRegions) + opened);
  }
  // what a helper past the depth stores and establishes, as its copy
  // inlined least deep found
  if (callee)
    if (auto summary = unit.storeSummaries.find(callee->getCanonicalDecl());
        summary != unit.storeSummaries.end())
      addCalleeStores(summary->second);
  if (!callee)
    callee = calleeWithKnownCallers(statement);
  if (callee)
    noteUnpublishedArguments(bp_add_call(engine, currentBlock, callee->getNameAsString().c_str(),
                                         eventLocation(statement->getBeginLoc())),
                             statement);
  // A call through a function-pointer field: the functions stored there run
  // under the locks held here (bp_add_field_taken).
  if (const auto *call = dyn_cast<CallExpr>(statement); call && !call->getDirectCallee())
    if (std::string field = functionFieldName(calledField(call->getCallee())); !field.empty())
      noteUnpublishedArguments(
          bp_add_call(engine, currentBlock, field.c_str(), eventLocation(statement->getBeginLoc())),
          statement);
  if (const auto *call = dyn_cast<CallExpr>(statement); call && writesThroughArgument(call))
    storedUnnamed = true;
  lowerPlain(statement, marking);
}

// The variable whose storage `lvalue` is, or a part of (`v.a[i]`), or null
// (memory reached through a pointer).
const VarDecl *FunctionLowering::storageVariable(const Expr *lvalue) {
  const Expr *base = lvalue->IgnoreParenImpCasts();
  for (;;) {
    if (const auto *member = dyn_cast<MemberExpr>(base); member && !member->isArrow())
      base = member->getBase()->IgnoreParenImpCasts();
    else if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(base);
             subscript && subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      base = subscript->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  const auto *reference = dyn_cast<DeclRefExpr>(base);
  return reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
}

// `lvalue` is a local variable or a part of one (`local.a[i]`): memory of
// the function's own frame, which no other thread sees.
bool FunctionLowering::inLocalStorage(const Expr *lvalue) {
  const VarDecl *variable = storageVariable(lvalue);
  return variable && !variable->hasGlobalStorage();
}

// A call that is not lowered here and is handed a pointer to writable
// memory may store through it (memcpy(), a helper filling a buffer).
bool FunctionLowering::writesThroughArgument(const CallExpr *call) {
  for (const Expr *argument : call->arguments()) {
    QualType type = argument->IgnoreParenImpCasts()->getType();
    if (const auto *pointer = type->getAs<PointerType>();
        pointer && !pointer->getPointeeType().isConstQualified() &&
        !pointer->getPointeeType()->isFunctionType())
      return true;
  }
  return false;
}

bool FunctionLowering::isMarkedType(QualType type) const {
  return type.isVolatileQualified() || type->isAtomicType();
}

void FunctionLowering::lowerAccess(const Expr *lvalue, bp_access_kind kind, int marking,
                                   SourceLocation location, const Stmt *statement,
                                   bool oneInstruction) {
  std::optional<SharedObject> object = nameObject(lvalue);
  if (!object) {
    if (kind == BP_ACCESS_STORE && !inLocalStorage(lvalue))
      storedUnnamed = true;
    return;
  }
  bool atomic = lvalue->getType()->isAtomicType();
  // A plain access to an _Atomic object is sequentially consistent.
  if (atomic && kind == BP_ACCESS_STORE)
    addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, statement);
  bool marked = marking != BP_NO_PRIMITIVE || oneInstruction || isMarkedType(lvalue->getType());
  llvm::SmallVector<uint32_t, 2> dataSources;
  std::optional<int64_t> constant;
  const Expr *storedExpression = nullptr;
  // A store of a value computed from a load depends on it (a data
  // dependency), as a store under a check of it does.
  if (const auto *assignment = dyn_cast<BinaryOperator>(statement);
      kind == BP_ACCESS_STORE && assignment && assignment->getOpcode() == BO_Assign) {
    collectObjectsRead(assignment->getRHS(), dataSources);
    constant = boundValue(assignment->getRHS());
    storedExpression = assignment->getRHS();
  }
  // `flags |= STOP` changes only STOP; `uatomic_read(&flags) & PAUSED`
  // tells only PAUSED.
  // A read whose value only goes back into the bits it does not change
  // (`flags &= ~STOP;`) decides nothing, as an atomic one's dropped result.
  uint64_t bits = 0;
  bool readForWriteBack = false;
  if (const auto *compound = dyn_cast<CompoundAssignOperator>(statement)) {
    BinaryOperatorKind opcode = compound->getOpcode();
    bp_op op = opcode == BO_OrAssign    ? BP_OP_OR
               : opcode == BO_AndAssign ? BP_OP_AND
               : opcode == BO_XorAssign ? BP_OP_XOR
                                        : BP_OP_RMW;
    uint64_t changed = changedBits(op, compound->getRHS(), lvalue->getType());
    if (kind == BP_ACCESS_STORE)
      bits = changed;
    else
      readForWriteBack = changed && resultDropped(compound);
  } else if (kind == BP_ACCESS_LOAD) {
    bits = testedBits(dyn_cast<Expr>(statement));
  }
  auto emit = [&](const SharedObject &accessed) {
    uint32_t event = addAccess(accessed, kind, marked, marking, location, statement);
    addProvenance(event, lvalue);
    addRoots(event, lvalue, nullptr, storedExpression,
             kind == BP_ACCESS_LOAD ? statement : nullptr);
    if (constant)
      bp_set_stored_value(engine, event, *constant);
    else if (incrementsGuardedValue(storedExpression, bp_event_get(engine, event)->object))
      bp_set_stored_increment(engine, event);
    else if (storedExpression && kind == BP_ACCESS_STORE && knownNonZero(storedExpression))
      bp_set_stored_nonzero(engine, event);
    if (bits)
      bp_set_access_bits(engine, event, bits);
    if (readForWriteBack)
      bp_set_value_unused(engine, event);
    for (uint32_t source : dataSources)
      bp_add_value_source(engine, event, source);
    return event;
  };
  // A structure copied whole (`*out = ring.events[i]`) accesses each of
  // its fields, which is how the other side names them.
  const RecordDecl *record = lvalue->getType()->getAsRecordDecl();
  if (record && record->isStruct() && !record->field_empty()) {
    for (const FieldDecl *field : record->fields())
      emit(fieldOf(*object, record, field));
    if (atomic)
      addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, statement);
    return;
  }
  uint32_t event = emit(*object);
  if (const auto *assignment = dyn_cast<BinaryOperator>(statement);
      kind == BP_ACCESS_STORE && assignment && assignment->getOpcode() == BO_Assign)
    noteStoredAddress(event, assignment->getRHS());
  if (kind == BP_ACCESS_STORE)
    if (const VarDecl *base = baseLocal(lvalue); base && allocatedLocals.count(base) &&
                                                 storePublishedHere.count(allocation(base)) &&
                                                 !entryParameter(base))
      bp_set_after_publication(engine, event);
  if (!marked)
    recordAccessText(event, lvalue, statement, kind);
  if (atomic)
    addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, statement);
}

void FunctionLowering::lowerPlain(const Stmt *statement, int marking) {
  if (const auto *assembly = dyn_cast<GCCAsmStmt>(statement)) {
    lowerAssemblyAccess(*assembly);
    return;
  }
  if (const auto *cast = dyn_cast<ImplicitCastExpr>(statement)) {
    if (cast->getCastKind() == CK_LValueToRValue)
      lowerAccess(cast->getSubExpr(), BP_ACCESS_LOAD, marking, cast->getBeginLoc(), cast);
    return;
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(statement)) {
    if (!binary->isAssignmentOp())
      return;
    if (binary->isCompoundAssignmentOp())
      lowerAccess(binary->getLHS(), BP_ACCESS_LOAD, marking, binary->getBeginLoc(), binary);
    lowerAccess(binary->getLHS(), BP_ACCESS_STORE, marking, binary->getBeginLoc(), binary);
    return;
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(statement)) {
    if (!unary->isIncrementDecrementOp())
      return;
    lowerAccess(unary->getSubExpr(), BP_ACCESS_LOAD, marking, unary->getBeginLoc(), unary);
    lowerAccess(unary->getSubExpr(), BP_ACCESS_STORE, marking, unary->getBeginLoc(), unary);
  }
}

// The instruction after the `lock` prefix (the kernel's LOCK_PREFIX puts a
// section directive before it), or the first instruction; empty when the
// text is neither a locked instruction nor a bit test.
static llvm::StringRef atomicInstruction(llvm::StringRef text, bool &locked) {
  size_t prefix = text.find("lock;");
  if (prefix == llvm::StringRef::npos)
    prefix = text.find("lock ");
  locked = prefix != llvm::StringRef::npos;
  llvm::StringRef rest = locked ? text.substr(prefix + 5) : text;
  llvm::StringRef instruction = rest.ltrim(" \t\n;").take_until([](char c) { return isspace(c); });
  if (!locked && !(instruction.starts_with("bt") && instruction.size() <= 3))
    return {};
  return instruction;
}

std::optional<AssemblyAccess> assemblyAccess(const Stmt *statement) {
  const auto *assembly = dyn_cast<GCCAsmStmt>(statement);
  if (!assembly)
    return std::nullopt;
  bool locked = false;
  llvm::StringRef instruction = atomicInstruction(assembly->getAsmString()->getString(), locked);
  if (instruction.empty())
    return std::nullopt;
  AssemblyAccess access;
  access.readOnly = !locked;
  access.returnsValue = locked && assembly->isAsmGoto();
  for (unsigned i = 0; i < assembly->getNumOutputs(); i++) {
    // "=rm": the value, where the compiler likes (CK's `setz %1` result)
    llvm::StringRef constraint = assembly->getOutputConstraint(i);
    if (constraint.contains('m') && !constraint.contains('r') && !constraint.contains('g'))
      access.memory.push_back(assembly->getOutputExpr(i));
    else if (locked)
      access.returnsValue = true;
  }
  const Expr *operand = nullptr;
  unsigned operands = 0;
  for (unsigned i = 0; i < assembly->getNumInputs(); i++) {
    if (assembly->getInputConstraint(i).contains('m')) {
      access.memory.push_back(assembly->getInputExpr(i));
    } else {
      operand = assembly->getInputExpr(i);
      operands++;
    }
  }
  if (access.memory.size() != 1 && (access.readOnly || !access.memory.size()))
    return std::nullopt;
  // Which bits it changes or reads, when its one other input says: a bit
  // number (`bts`, `btr`, `btc`, `bt`) or a mask of full width (`orl`);
  // the byte forms (`orb` on the byte that holds a constant bit) are left
  // at all bits.
  llvm::StringRef name = instruction.rtrim("bwlq");
  bool wide = instruction.size() == name.size() || !instruction.ends_with("b");
  if (operands == 1) {
    if (instruction.starts_with("bt"))
      access.op = BP_OP_BIT;
    else if (wide && name == "or")
      access.op = BP_OP_OR;
    else if (wide && name == "and")
      access.op = BP_OP_AND;
    else if (wide && name == "xor")
      access.op = BP_OP_XOR;
    if (access.op != BP_OP_RMW)
      access.operand = operand;
  }
  return access;
}

// A constant, also where it is an inlined call's parameter bound to one
// that the body never assigns (`set_bit(PG_locked, &page->flags)` reaches
// the instruction as `nr`; `sk_dst_reset(sk)` stores NULL through
// `xchg(&sk->sk_dst_cache, dst)` in sk_dst_set()).
std::optional<int64_t> FunctionLowering::boundValue(const Expr *value) const {
  if (std::optional<int64_t> constant = knownValue(value))
    return constant;
  const auto *reference = dyn_cast<DeclRefExpr>(value->IgnoreParenCasts());
  if (const auto *parameter = reference ? dyn_cast<ParmVarDecl>(reference->getDecl()) : nullptr;
      parameter && !writtenOnlyByInit(parameter))
    return std::nullopt;
  if (auto [argument, caller] = argumentOf(value); argument)
    return caller->boundValue(argument);
  return std::nullopt;
}

// Other assembly is left alone: a memory operand of an empty statement
// only hides a value from the optimiser.
void FunctionLowering::lowerAssemblyAccess(const GCCAsmStmt &assembly) {
  std::optional<AssemblyAccess> access = assemblyAccess(&assembly);
  if (!access)
    return;
  bool returns = access->returnsValue;
  SourceLocation location = assembly.getBeginLoc();
  uint64_t bits = 0;
  if (access->operand)
    if (std::optional<int64_t> value = boundValue(access->operand)) {
      if (access->op == BP_OP_BIT)
        bits = *value >= 0 ? uint64_t{1} << (*value % 64) : 0;
      else
        bits = access->op == BP_OP_AND ? ~static_cast<uint64_t>(*value)
                                       : static_cast<uint64_t>(*value);
    }
  if (returns)
    addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, &assembly);
  for (const Expr *operand : access->memory) {
    uint64_t width = bits ? withinWidth(bits, operand->getType()) : 0;
    uint32_t first = bp_event_count(engine);
    lowerAccess(operand, BP_ACCESS_LOAD, BP_NO_PRIMITIVE, location, &assembly, true);
    for (uint32_t read = first; read < bp_event_count(engine); read++) {
      // the read of one that returns nothing decides nothing (`uatomic_inc(&n);`)
      if (!returns && !access->readOnly)
        bp_set_value_unused(engine, read);
      else if (width)
        bp_set_access_bits(engine, read, width);
    }
    if (access->readOnly)
      continue;
    first = bp_event_count(engine);
    lowerAccess(operand, BP_ACCESS_STORE, BP_NO_PRIMITIVE, location, &assembly, true);
    for (uint32_t written = first; width && written < bp_event_count(engine); written++)
      bp_set_access_bits(engine, written, width);
  }
  if (returns)
    addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, &assembly);
}

} // namespace lowering

namespace {

// The main file and a hash of the command line's -D and -U, which the
// predefined buffer holds after the compiler's own macros:
// "@<main file>#<hash>". libtool's -DPIC, which only a position-independent
// copy of the same build has, does not count.
std::string commandLineMacros(llvm::StringRef predefines) {
  size_t start = predefines.find("# 1 \"<command line>\"");
  if (start == llvm::StringRef::npos)
    return predefines.str();
  std::string macros;
  llvm::SmallVector<llvm::StringRef, 16> lines;
  predefines.substr(start).split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (line.trim() != "#define PIC 1")
      macros += line.str() + "\n";
  return macros;
}

std::string unitIdentity(const SourceManager &sources) {
  std::string identity = "@";
  if (OptionalFileEntryRef main = sources.getFileEntryRefForID(sources.getMainFileID())) {
    // Absolute: two files of one name in two directories are two sources.
    llvm::SmallString<256> path(main->getName());
    sources.getFileManager().makeAbsolutePath(path);
    identity += path.str().str();
  }
  for (unsigned i = 0; i < sources.local_sloc_entry_size(); i++) {
    const SrcMgr::SLocEntry &entry = sources.getLocalSLocEntry(i);
    if (!entry.isFile())
      continue;
    const SrcMgr::ContentCache &content = entry.getFile().getContentCache();
    if (content.OrigEntry || !content.getBufferIfLoaded())
      continue;
    llvm::StringRef name = content.getBufferIfLoaded()->getBufferIdentifier();
    if (name == "<built-in>") {
      identity += "#" + llvm::utohexstr(llvm::xxh3_64bits(
                            commandLineMacros(content.getBufferIfLoaded()->getBuffer())));
      break;
    }
  }
  return identity;
}

// The directory that holds a file, or none (a buffer of no file).
const DirectoryEntry *directoryOf(const SourceManager &sources, FileID file) {
  OptionalFileEntryRef entry = sources.getFileEntryRefForID(file);
  return entry ? &entry->getDir().getDirEntry() : nullptr;
}

// The files, other than the main file, where the unit defines a function
// that is not inline: implementation files included into the main file
// (liburcu's urcu-call-rcu-impl.h), whose functions are the unit's own as
// the main file's are. A header's inline functions are not: every unit
// that includes it has them, and they are lowered where they are called.
// Only a file beside the main file is one: a header of another directory
// that defines functions does so for every unit that includes it (the
// kernel's trace-event headers, expanded with CREATE_TRACE_POINTS).
llvm::DenseSet<FileID> implementationFiles(ASTContext &context) {
  const SourceManager &sources = context.getSourceManager();
  const DirectoryEntry *mainDirectory = directoryOf(sources, sources.getMainFileID());
  llvm::DenseSet<FileID> files;
  for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
    const auto *function = dyn_cast<FunctionDecl>(declaration);
    if (!function || !function->doesThisDeclarationHaveABody() || function->isInlineSpecified())
      continue;
    SourceLocation location = sources.getExpansionLoc(function->getLocation());
    FileID file = sources.getFileID(location);
    if (file != sources.getMainFileID() && !sources.isInSystemHeader(location) &&
        directoryOf(sources, file) == mainDirectory)
      files.insert(file);
  }
  return files;
}

// The functions a body calls directly (into `callees`, when given) and
// those whose address it takes (into `taken`, when given): a thread's start
// routine handed to pthread_create(), a callback, which other threads may
// run.
void collectFunctionUses(const Stmt *statement,
                         llvm::SmallPtrSetImpl<const FunctionDecl *> *callees,
                         llvm::SmallPtrSetImpl<const FunctionDecl *> *taken) {
  if (!statement)
    return;
  if (const auto *call = dyn_cast<CallExpr>(statement)) {
    if (const FunctionDecl *callee = call->getDirectCallee(); callee && callees)
      callees->insert(callee->getCanonicalDecl());
    collectFunctionUses(call->getCallee(), callees, nullptr); // called, not taken
    for (const Expr *argument : call->arguments())
      collectFunctionUses(argument, callees, taken);
    return;
  }
  if (const auto *reference = dyn_cast<DeclRefExpr>(statement); reference && taken)
    if (const auto *function = dyn_cast<FunctionDecl>(reference->getDecl()))
      taken->insert(function->getCanonicalDecl());
  for (const Stmt *child : statement->children())
    collectFunctionUses(child, callees, taken);
}

// The function an initializer's value names (`.release_cb = tcp_release_cb`,
// also `&f` and through casts), or null.
const FunctionDecl *namedFunction(const Expr *value) {
  value = value->IgnoreParenCasts();
  if (const auto *address = dyn_cast<UnaryOperator>(value);
      address && address->getOpcode() == UO_AddrOf)
    value = address->getSubExpr()->IgnoreParenCasts();
  const auto *reference = dyn_cast<DeclRefExpr>(value);
  return reference ? dyn_cast<FunctionDecl>(reference->getDecl()) : nullptr;
}

using FieldTakes = llvm::DenseMap<const FunctionDecl *, std::set<std::string>>;

// A field an initializer leaves null: written as null, or not named by a
// designated initializer (`{.name = "NETLINK"}` leaves every method null).
bool initializesNull(const Expr *value, ASTContext &context) {
  return isa<ImplicitValueInitExpr>(value->IgnoreParenImpCasts()) ||
         value->isNullPointerConstant(context, Expr::NPC_ValueDependentIsNotNull);
}

// A global's initializer: a function stored into a function-pointer field of
// a structure (`struct proto tcp_prot = { .release_cb = tcp_release_cb }`)
// goes to `fieldTaken` with that field's name; any other use of a function's
// address to `taken`; a function-pointer field given any other value than a
// function or null to `openFields`.
void collectInitializerUses(const Expr *initializer, FieldTakes &fieldTaken,
                            llvm::SmallPtrSetImpl<const FunctionDecl *> &taken,
                            std::set<std::string> &openFields, ASTContext &context) {
  const auto *list = dyn_cast<InitListExpr>(initializer->IgnoreParenImpCasts());
  if (!list) {
    collectFunctionUses(initializer, nullptr, &taken);
    return;
  }
  const RecordDecl *record = list->getType()->getAsRecordDecl();
  std::vector<const FieldDecl *> fields;
  if (record && !record->isUnion())
    fields.assign(record->field_begin(), record->field_end());
  for (unsigned i = 0; i < list->getNumInits(); i++) {
    const Expr *value = list->getInit(i);
    const FieldDecl *field = record && record->isUnion() ? list->getInitializedFieldInUnion()
                             : i < fields.size()         ? fields[i]
                                                         : nullptr;
    std::string name = lowering::functionFieldName(field);
    if (const FunctionDecl *function = namedFunction(value); function && !name.empty()) {
      fieldTaken[function->getCanonicalDecl()].insert(name);
      continue;
    }
    if (!name.empty() && !initializesNull(value, context))
      openFields.insert(name);
    collectInitializerUses(value, fieldTaken, taken, openFields, context);
  }
}

// The function-pointer fields a function's body stores into (`ops->close =
// f`, `struct ops o = { .close = f }`): what they hold is not only what the
// unit's initializers put there. An initializer's fields left null store
// nothing (`struct ops o = { .name = "x" }`), nor does the copy of a whole
// structure that holds one (it copies what an initializer put there).
void collectStoredFields(const Stmt *statement, std::set<std::string> &openFields,
                         ASTContext &context) {
  if (!statement)
    return;
  if (const auto *binary = dyn_cast<BinaryOperator>(statement);
      binary && binary->isAssignmentOp()) {
    if (const auto *member = dyn_cast<MemberExpr>(binary->getLHS()->IgnoreParenImpCasts()))
      if (std::string name =
              lowering::functionFieldName(dyn_cast<FieldDecl>(member->getMemberDecl()));
          !name.empty())
        openFields.insert(name);
  } else if (const auto *list = dyn_cast<InitListExpr>(statement)) {
    const RecordDecl *record = list->getType()->getAsRecordDecl();
    if (record && !record->isUnion()) {
      unsigned i = 0;
      for (const FieldDecl *field : record->fields()) {
        const Expr *value = i < list->getNumInits() ? list->getInit(i) : nullptr;
        i++;
        if (std::string name = lowering::functionFieldName(field);
            !name.empty() && value && !initializesNull(value, context))
          openFields.insert(name);
      }
    } else if (record) {
      for (const FieldDecl *field : record->fields())
        if (std::string name = lowering::functionFieldName(field); !name.empty())
          openFields.insert(name);
    }
  }
  for (const Stmt *child : statement->children())
    collectStoredFields(child, openFields, context);
}

// Each value `statement` keeps or hands on, to `visit`: an assignment's
// value, a variable's initial value, a returned value, and a call's
// argument (with the call and the argument's position), not what is only
// called or tested.
template <typename Visit> void forEachKeptValue(const Stmt *statement, const Visit &visit) {
  if (!statement)
    return;
  if (const auto *binary = dyn_cast<BinaryOperator>(statement); binary && binary->isAssignmentOp())
    visit(binary->getRHS(), nullptr, 0u);
  else if (const auto *declaration = dyn_cast<DeclStmt>(statement))
    for (const Decl *declared : declaration->decls()) {
      if (const auto *variable = dyn_cast<VarDecl>(declared); variable && variable->hasInit())
        visit(variable->getInit(), nullptr, 0u);
    }
  else if (const auto *call = dyn_cast<CallExpr>(statement))
    for (unsigned i = 0; i < call->getNumArgs(); i++)
      visit(call->getArg(i), call, i);
  else if (const auto *result = dyn_cast<ReturnStmt>(statement))
    visit(result->getRetValue(), nullptr, 0u);
  for (const Stmt *child : statement->children())
    forEachKeptValue(child, visit);
}

// Whether a function of this unit only tests its parameter `index` (the
// kernel's `proto_method_implemented(proto->close)`, which says whether a
// method is there): it neither calls it nor keeps or hands it on.
bool onlyTestsParameter(const CallExpr *call, unsigned index) {
  const FunctionDecl *callee = call->getDirectCallee();
  const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  if (!definition || !definition->hasBody() || index >= definition->getNumParams())
    return false;
  const ParmVarDecl *parameter = definition->getParamDecl(index);
  auto isParameter = [&](const Expr *value) {
    const auto *reference = value ? dyn_cast<DeclRefExpr>(value->IgnoreParenCasts()) : nullptr;
    return reference && reference->getDecl() == parameter;
  };
  bool kept = false;
  forEachKeptValue(definition->getBody(), [&](const Expr *value, const CallExpr *, unsigned) {
    kept = kept || isParameter(value);
  });
  auto called = [&](auto &self, const Stmt *statement) -> bool {
    if (!statement)
      return false;
    if (const auto *inner = dyn_cast<CallExpr>(statement); inner && isParameter(inner->getCallee()))
      return true;
    for (const Stmt *child : statement->children())
      if (self(self, child))
        return true;
    return false;
  };
  return !kept && !called(called, definition->getBody());
}

// The function-pointer fields whose value a body reads to keep or hand on
// (assigned, given to a variable, passed, returned), not only to call it or
// to test it: what such a field holds may run anywhere.
void collectEscapingFields(const Stmt *body, std::set<std::string> &escaping) {
  forEachKeptValue(body, [&](const Expr *value, const CallExpr *call, unsigned index) {
    const auto *member = value ? dyn_cast<MemberExpr>(value->IgnoreParenCasts()) : nullptr;
    if (!member)
      return;
    std::string name = lowering::functionFieldName(dyn_cast<FieldDecl>(member->getMemberDecl()));
    if (!name.empty() && !(call && onlyTestsParameter(call, index)))
      escaping.insert(name);
  });
}

} // namespace

using lowering::FunctionLowering;
using lowering::UnitState;

template <typename Container> static void release(Container &container) {
  Container().swap(container);
}

void UnitState::releaseLowering() {
  release(implementationFiles);
  release(buildingBlocks);
  release(callers);
  release(primitiveDepths);
  release(callSummaries);
  release(variables);
  release(fields);
  release(returnedObjects);
  release(returnedObjectsAt);
  release(returnsThroughParameters);
  release(allocators);
  release(privateParameters[0]);
  release(privateParameters[1]);
  release(threads);
  macros = nullptr;
  sawEveryExpansion = false;
  release(expansions);
  release(recentMacros);
  release(macroUsesByBody);
  release(inlinedGraphs);
}

LoweredUnit::LoweredUnit(bp_engine *engine, std::unique_ptr<UnitState> state)
    : engine(engine), state(std::move(state)) {
  if (this->state->deferTexts)
    bp_set_text_source(engine, FunctionLowering::fillDeferredText, this->state.get());
}

LoweredUnit::LoweredUnit(LoweredUnit &&other) noexcept
    : engine(other.engine), state(std::move(other.state)) {}

LoweredUnit::~LoweredUnit() {
  if (state && state->deferTexts)
    bp_set_text_source(engine, nullptr, nullptr);
}

const FileMap &LoweredUnit::files() const {
  return state->files;
}

LoweredUnit lowerTranslationUnit(ASTContext &context, bp_engine *engine,
                                 const MacroExpansions *macros, bool unitAlone, bool deferTexts) {
  SourceManager &sources = context.getSourceManager();
  llvm::SmallVector<const FunctionDecl *, 32> defined;
  llvm::SmallPtrSet<const FunctionDecl *, 32> called;
  auto state = std::make_unique<UnitState>();
  UnitState &unit = *state;
  unit.context = &context;
  unit.deferTexts = deferTexts;
  FileMap &files = unit.files;
  unit.macros = macros;
  unit.sawEveryExpansion = macros && !context.getExternalSource();
  unit.expansions.resize(sources.local_sloc_entry_size());
  unit.identity = unitIdentity(sources);
  unit.implementationFiles = implementationFiles(context);
  bp_set_unit(engine, unit.identity.c_str());
  // The unit alone (the plugin): a function that uses no primitive, volatile
  // or _Atomic access, directly or in what it calls, and that no thread can
  // start (its address is never taken), has no barrier and nothing that
  // links it to another side: it pairs with nothing, and lowering it is
  // wasted work (a file with no barrier costs nothing). A program (check,
  // site files) lowers every function: another unit may start it.
  llvm::SmallPtrSet<const FunctionDecl *, 32> addressTaken;
  auto *taken = &addressTaken;
  // Called from code the unit does not lower (a header's functions).
  llvm::SmallPtrSet<const FunctionDecl *, 32> calledUnseen;
  // Stored only into function-pointer fields of structures' initializers:
  // such a function runs where code calls through the field.
  FieldTakes fieldTaken;
  std::set<std::string> escapingFields, openFields;
  for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
    if (const auto *variable = dyn_cast<VarDecl>(declaration); variable && variable->hasInit()) {
      // EXPORT_SYMBOL()'s __ADDRESSABLE(): kept by the linker's discard
      // only so that the symbol is not dropped; nothing calls through it
      const auto *section = variable->getAttr<SectionAttr>();
      if (!section || section->getName() != ".discard.addressable")
        collectInitializerUses(variable->getInit(), fieldTaken, addressTaken, openFields, context);
    }
    const auto *function = dyn_cast<FunctionDecl>(declaration);
    if (!function || !function->doesThisDeclarationHaveABody())
      continue;
    if (!unitAlone) {
      collectEscapingFields(function->getBody(), escapingFields);
      collectStoredFields(function->getBody(), openFields, context);
    }
    FileID file = sources.getFileID(sources.getExpansionLoc(function->getLocation()));
    bool implementation = unit.implementationFiles.count(file);
    if (file != sources.getMainFileID() && !implementation &&
        !(lowering::hasContract(function) && !sources.isInSystemHeader(function->getLocation()))) {
      collectFunctionUses(function->getBody(), unitAlone ? nullptr : &calledUnseen, taken);
      continue;
    }
    defined.push_back(function);
    collectFunctionUses(function->getBody(), &called, taken);
  }
  // A function no other file can call, called here and lowered at its
  // calls, is a helper: its callers run it.
  auto inlinedHelper = [&](const FunctionDecl *function) {
    return !function->isExternallyVisible() && called.count(function->getCanonicalDecl()) &&
           !lowering::hasContract(function) &&
           FunctionLowering(context, engine, files, unit).calleeUsesPrimitives(function);
  };
  // A program's function that only lowered code calls runs under the locks
  // its callers hold: a `static` one's calls are its unit's, an external
  // one's the program's, as long as no unit takes its address. Where an
  // external one is lowered into a caller of its unit, a call event marks
  // the place (bp_set_call_inlined). A `static` helper lowered at its
  // calls is not lowered on its own. The unit alone lowers no function that
  // has no primitive. The unit alone has no other unit's calls through a
  // field: what it stores in one may run anywhere.
  if (unitAlone)
    for (const auto &entry : fieldTaken)
      addressTaken.insert(entry.first);
  if (!unitAlone) {
    // in the order of their names: site files do not vary
    std::vector<std::pair<std::string, std::string>> fieldTakes;
    for (const auto &[function, fields] : fieldTaken)
      if (function->getIdentifier() && !addressTaken.count(function))
        for (const std::string &field : fields)
          fieldTakes.emplace_back(function->getName().str(), field);
    llvm::sort(fieldTakes);
    for (const auto &[name, field] : fieldTakes)
      bp_add_field_taken(engine, name.c_str(), field.c_str());
    for (const std::string &field : escapingFields)
      bp_add_field_escape(engine, field.c_str());
    // a field that also holds a function taken another way, which no
    // field-taken record names
    for (const auto &[function, fields] : fieldTaken)
      if (!function->getIdentifier() || addressTaken.count(function))
        openFields.insert(fields.begin(), fields.end());
    for (const std::string &field : openFields)
      bp_add_field_open(engine, field.c_str());
    std::vector<std::string> takenNames;
    for (const FunctionDecl *function : addressTaken)
      if (function->isExternallyVisible() && function->getIdentifier())
        takenNames.push_back(function->getName().str());
    llvm::sort(takenNames);
    for (const std::string &name : takenNames)
      bp_add_address_taken(engine, name.c_str());
    for (const FunctionDecl *function : defined)
      if (inlinedHelper(function))
        collectFunctionUses(function->getBody(), &calledUnseen, nullptr);
    for (const FunctionDecl *function : defined) {
      const FunctionDecl *canonical = function->getCanonicalDecl();
      if (addressTaken.count(canonical) || calledUnseen.count(canonical) || inlinedHelper(function))
        continue;
      if (!function->isExternallyVisible()) {
        if (called.count(canonical) || fieldTaken.count(canonical))
          unit.callers[canonical] = BP_CALLERS_IN_UNIT;
      } else {
        unit.callers[canonical] = BP_CALLERS_IN_PROGRAM;
      }
    }
  }
  // Where the text that goes with each function starts: the end of the one
  // before it in its file.
  llvm::DenseMap<FileID, unsigned> textStarts;
  for (const FunctionDecl *function : defined) {
    std::pair<FileID, unsigned> end =
        sources.getDecomposedLoc(sources.getExpansionLoc(function->getEndLoc()));
    unsigned start = std::exchange(textStarts[end.first], end.second);
    if (inlinedHelper(function))
      continue;
    FunctionLowering lowering(context, engine, files, unit);
    bool uses = lowering.calleeUsesPrimitives(function);
    // A helper with a library's contract is also checked on its own.
    bool contract = lowering::hasContract(function);
    bool helper = !function->isExternallyVisible() && called.count(function->getCanonicalDecl());
    // An annotation in a function's text or before it is read as `check`
    // reads it, with the function lowered: one that silences nothing is a
    // finding.
    if (unitAlone && !uses && !addressTaken.count(function->getCanonicalDecl()) && !contract &&
        !(start < end.second &&
          mentionsBarrierpair(sources.getBufferData(end.first).substr(start, end.second - start))))
      continue;
    // Checked for its contract only, unless something else may run it (a
    // thread it starts, a signal handler).
    lowering.lower(function, helper && contract &&
                                 !addressTaken.count(function->getCanonicalDecl()) &&
                                 !fieldTaken.count(function->getCanonicalDecl()));
  }
  bp_set_unit(engine, nullptr);
  unit.releaseLowering();
  scanAnnotations(sources, files, engine);
  return LoweredUnit(engine, std::move(state));
}

SourceLocation toSourceLocation(const SourceManager &sources, const FileMap &files,
                                bp_location location) {
  auto file = files.find(location.file);
  if (location.line == 0 || file == files.end())
    return SourceLocation();
  return sources.translateLineCol(file->second, location.line, location.column);
}

} // namespace barrierpair
