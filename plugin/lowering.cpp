// AST and CFG to engine events.
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

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <functional>
#include <optional>
#include <string>

using namespace clang;

namespace barrierpair {
namespace {

struct SharedObject {
  std::string key;
  std::string display;
  bool threadOwn = false; // a field of the thread's own thread-local variable
};

// A use of a table primitive: one macro expansion, call or atomic builtin.
struct PrimitiveUse {
  int primitive = BP_NO_PRIMITIVE;
  const Stmt *root = nullptr; // the outermost node inside the use
  CharSourceRange text;       // the use's own text
  SourceLocation location;    // where the use is written
};

// The outermost macro of an expansion chain that the primitive table knows.
struct MacroHit {
  int primitive = BP_NO_PRIMITIVE;
  CharSourceRange expansion;
};

bool isOpaque(const bp_primitive &primitive) {
  if (primitive.op == BP_OP_FENCE || primitive.op == BP_OP_RMW || primitive.op == BP_OP_LOCK ||
      primitive.op == BP_OP_UNLOCK || primitive.op == BP_OP_SPAWN || primitive.op == BP_OP_JOIN)
    return true;
  return primitive.order != BP_ORDER_RELAXED;
}

// What lowering learns across a translation unit's functions.
struct UnitState {
  // What tells this translation unit's `static` variables from another's:
  // its main file and the macros its command line defines.
  std::string identity;
  // How far below a function its nearest primitive is (primitiveDepth).
  llvm::DenseMap<const FunctionDecl *, unsigned> primitiveDepths;
  // What each helper's return values read (lowering.cpp's returnedObjects).
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<uint32_t, 2>> returnedObjects;
  // Whether a function returns only memory it has just allocated.
  llvm::DenseMap<const FunctionDecl *, bool> allocators;
  // Whether a function keeps the memory its parameter points to to itself
  // (keepsParameterPrivate).
  llvm::DenseMap<const ParmVarDecl *, bool> privateParameters;
  // The thread function a pthread_t variable (or array) was started with.
  llvm::DenseMap<const VarDecl *, std::string> threads;
  // Uses of barrier macros written in a file (lowerTranslationUnit).
  llvm::ArrayRef<EmptyBarrier> barrierMacroUses;
  // Per file, what every function of the unit and every inlined copy would
  // otherwise look up again (a file's absolute path costs system calls).
  llvm::DenseMap<FileID, uint32_t> engineFiles;
  llvm::DenseMap<FileID, std::string> absolutePaths;
  // The uses of known macros in each body: a helper's body is lowered at
  // each of its calls, its macro uses found once.
  llvm::DenseMap<const Stmt *, std::unique_ptr<llvm::DenseMap<unsigned, PrimitiveUse>>>
      macroUsesByBody;
};

// Where an inlined body is lowered: the call it stands for, in the function
// being built. Events of an inlined body written in a system header are
// placed at the outermost call (the user's code); those of the program's own
// headers stay where the helper's code is, one place for every caller. Fix-its
// that insert go before the outermost call's statement, so that other callers
// are not changed.
struct CallSite {
  const class FunctionLowering *caller = nullptr;
  const CallExpr *call = nullptr;
  SourceLocation location; // the outermost call, in the main file
  bp_location statement{0, 0, 0};
  std::string indentation;
  llvm::SmallVector<uint32_t, 2> guards;            // the caller's, at the call
  llvm::SmallVector<const FunctionDecl *, 4> stack; // callers first, for recursion
};

// Calls to functions defined in the translation unit are lowered at the
// call, this many calls deep.
constexpr unsigned InlineDepth = 3;

class FunctionLowering {
public:
  FunctionLowering(ASTContext &context, bp_engine *engine, FileMap &files, UnitState &unit,
                   const CallSite *site = nullptr)
      : context(context), sources(context.getSourceManager()), engine(engine), files(files),
        unit(unit), site(site) {}

  void lower(const FunctionDecl *function) {
    bp_function_begin(engine, function->getNameAsString().c_str(),
                      engineLocation(function->getLocation()));
    lowerBody(function);
    bp_function_end(engine);
  }

  // Whether a function, or one it calls within the depth that lowering
  // follows calls, uses a table primitive.
  bool calleeUsesPrimitives(const FunctionDecl *callee) const {
    return primitiveDepth(callee) <= InlineDepth;
  }

  // How many calls below `function` its nearest use of a primitive is (0:
  // in its own body), InlineDepth + 1 when there is none that lowering
  // would reach; a function being looked at counts as having none, which
  // ends recursion.
  unsigned primitiveDepth(const FunctionDecl *function) const {
    auto [known, added] = unit.primitiveDepths.try_emplace(function, InlineDepth + 1);
    if (!added)
      return known->second;
    llvm::SmallPtrSet<const FunctionDecl *, 8> callees;
    unsigned depth = InlineDepth + 1;
    if (usesPrimitives(function->getBody(), callees))
      depth = 0;
    for (const FunctionDecl *callee : callees)
      if (depth > 1)
        depth = std::min(depth, primitiveDepth(callee) + 1);
    return unit.primitiveDepths[function] = depth;
  }

private:
  ASTContext &context;
  SourceManager &sources;
  bp_engine *engine;
  FileMap &files;
  UnitState &unit;
  const CallSite *site;
  const FunctionDecl *function = nullptr;
  ParentMap *parentMap = nullptr;
  uint32_t currentBlock = 0;    // engine block
  unsigned currentCfgBlock = 0; // its CFG block
  // By expansion location: the unit's, shared by every inlined copy of one
  // body, or ownMacroUses.
  const llvm::DenseMap<unsigned, PrimitiveUse> *macroUses = nullptr;
  llvm::DenseMap<unsigned, PrimitiveUse> ownMacroUses;
  // The known macro of each expansion met (outermostKnownMacro), per
  // function: kept for the unit, it would hold every expansion of the file.
  mutable llvm::DenseMap<FileID, std::optional<MacroHit>> outermostByExpansion;
  // A store into memory only a fresh local points to was met (it is no
  // event: nobody else sees that memory until the function hands it on).
  bool initialisedPrivately = false;
  // The barriers that expand to nothing, by the element they go before.
  llvm::DenseMap<const Stmt *, llvm::SmallVector<const EmptyBarrier *, 1>> emptyBarriers;
  llvm::SmallPtrSet<const void *, 16> emittedUses;
  llvm::SmallPtrSet<const VarDecl *, 8> freshLocals;
  // Locals that only ever hold memory just allocated, published or not.
  llvm::SmallPtrSet<const VarDecl *, 8> allocatedLocals;
  // A local that names part of another's allocation (`heap = &td->heap`)
  // to that other: one allocation, published at once.
  llvm::DenseMap<const VarDecl *, const VarDecl *> allocationOf;
  // By CFG block, the allocated locals that may have been published (stored
  // somewhere shared, or handed to another function) when it starts; and
  // those published so far in the block being lowered.
  std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> publishedAtEntry;
  llvm::SmallPtrSet<const VarDecl *, 2> publishedHere;
  // The same for publications by a store into a shared place (not a call):
  // a store into the memory after one of those comes too late.
  std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> storePublishedAtEntry;
  llvm::SmallPtrSet<const VarDecl *, 2> storePublishedHere;
  // The shared objects whose values a local may carry.
  mutable llvm::DenseMap<const VarDecl *, llvm::SmallVector<uint32_t, 2>> localSources;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> localAssignments;
  // By CFG block: the objects whose checked values decide that it runs.
  std::vector<llvm::SmallVector<uint32_t, 2>> blockGuards;

  // Lowers `body`'s CFG into new engine blocks of the function being built;
  // returns its entry block and the block control leaves it from.
  std::optional<std::pair<uint32_t, uint32_t>> lowerBody(const FunctionDecl *lowered) {
    function = lowered;
    Stmt *body = lowered->getBody();
    CFG::BuildOptions options;
    options.setAllAlwaysAdd();
    std::unique_ptr<CFG> cfg = CFG::buildCFG(lowered, body, &context, options);
    if (!cfg)
      return std::nullopt;
    ParentMap parents(body);
    parentMap = &parents;
    findMacroUses(body);
    collectEmptyBarriers(body, *cfg);
    collectFreshLocals(body);
    bindParameters();
    collectLocalSources(body);
    CFGDomTree dominators(cfg.get());
    collectBlockGuards(*cfg, dominators);
    collectPublications(*cfg);

    std::vector<uint32_t> heads(cfg->getNumBlockIDs());
    for (uint32_t &head : heads)
      head = bp_add_block(engine);
    std::vector<uint32_t> tails = heads;
    // In reverse post-order, an opaque use is met first where control enters it.
    for (const CFGBlock *block : reversePostOrder(*cfg)) {
      currentCfgBlock = block->getBlockID();
      currentBlock = heads[currentCfgBlock];
      publishedHere = publishedAtEntry[currentCfgBlock];
      storePublishedHere = storePublishedAtEntry[currentCfgBlock];
      for (const CFGElement &element : *block) {
        if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>()) {
          placeEmptyBarriersBefore(statement->getStmt());
          lowerElement(statement->getStmt());
          collectPublished(statement->getStmt(), publishedHere);
          collectPublished(statement->getStmt(), storePublishedHere, true);
        }
      }
      tails[currentCfgBlock] = currentBlock;
    }
    for (const CFGBlock *block : *cfg) {
      for (const CFGBlock::AdjacentBlock &successor : block->succs()) {
        const CFGBlock *target = successor.getReachableBlock();
        if (!target)
          continue;
        uint32_t from = tails[block->getBlockID()], to = heads[target->getBlockID()];
        if (dominators.dominates(target, block))
          bp_add_loop_edge(engine, from, to); // back to the head of a loop
        else
          bp_add_edge(engine, from, to);
      }
    }
    parentMap = nullptr;
    return std::make_pair(heads[cfg->getEntry().getBlockID()], tails[cfg->getExit().getBlockID()]);
  }

  // ---- Calls to functions of the translation unit ----

  const FunctionDecl *inlinableCallee(const Stmt *statement) const {
    const auto *call = dyn_cast<CallExpr>(statement);
    const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    if (!definition || !definition->hasBody() || definition->isVariadic())
      return nullptr;
    unsigned depth = site ? site->stack.size() : 0;
    if (depth >= InlineDepth || definition == function ||
        (site && llvm::is_contained(site->stack, definition)))
      return nullptr;
    return calleeUsesPrimitives(definition) ? definition : nullptr;
  }

  // Only a callee that uses a table primitive (a barrier, a marked or atomic
  // access, a lock) is lowered at its calls: plain helpers, such as a
  // generic list's, would only add accesses to objects every caller shares
  // by type.
  // Whether `statement` itself uses a primitive; the defined functions it
  // calls go to `callees`.
  bool usesPrimitives(const Stmt *statement,
                      llvm::SmallPtrSetImpl<const FunctionDecl *> &callees) const {
    if (!statement)
      return false;
    if (outermostKnownMacro(statement->getBeginLoc()) || directUse(statement))
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

  void inlineCall(const CallExpr *call, const FunctionDecl *callee) {
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
    FunctionLowering body(context, engine, files, unit, &inner);
    std::optional<std::pair<uint32_t, uint32_t>> blocks = body.lowerBody(callee);
    if (!blocks)
      return;
    bp_add_edge(engine, currentBlock, blocks->first);
    currentBlock = bp_add_block(engine);
    bp_add_edge(engine, blocks->second, currentBlock);
  }

  // A parameter carries what its argument reads in the caller; `*p` with
  // p = &flag names flag.
  void bindParameters() {
    if (!site)
      return;
    for (unsigned i = 0; i < function->getNumParams() && i < site->call->getNumArgs(); i++) {
      llvm::SmallVector<uint32_t, 2> objects;
      site->caller->collectObjectsRead(site->call->getArg(i), objects);
      localSources[function->getParamDecl(i)] = objects;
    }
  }

  // The argument a parameter of this inlined body is bound to, with the
  // lowering that can name it.
  std::pair<const Expr *, const FunctionLowering *> argumentOf(const Expr *expression) const {
    const auto *reference = dyn_cast<DeclRefExpr>(expression->IgnoreParenCasts());
    return argumentOf(reference ? dyn_cast<ParmVarDecl>(reference->getDecl()) : nullptr);
  }

  std::pair<const Expr *, const FunctionLowering *> argumentOf(const ParmVarDecl *parameter) const {
    if (!site || !parameter || parameter->getFunctionScopeIndex() >= site->call->getNumArgs() ||
        parameter->getDeclContext() != function)
      return {nullptr, nullptr};
    return {site->call->getArg(parameter->getFunctionScopeIndex()), site->caller};
  }

  llvm::SmallVector<uint32_t, 2> currentGuards() const {
    llvm::SmallVector<uint32_t, 2> guards;
    if (site)
      guards = site->guards;
    if (currentCfgBlock < blockGuards.size())
      for (uint32_t guard : blockGuards[currentCfgBlock])
        addUnique(guards, guard);
    return guards;
  }

  static std::vector<const CFGBlock *> reversePostOrder(const CFG &cfg) {
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

  // ---- Macro expansion chains ----

  // Every statement inside a macro asks for its chain, and the nodes of one
  // expansion share it: the answer is remembered per expansion (a FileID),
  // or lexing macro names and looking them up dominates the plugin's time.
  // Macro-argument expansions are stepped through, not remembered: one may
  // hold tokens of several expansions.
  std::optional<MacroHit> outermostKnownMacro(SourceLocation location) const {
    llvm::SmallVector<std::pair<FileID, std::optional<MacroHit>>, 8> walked; // inner first
    std::optional<MacroHit> outermost;
    const LangOptions &language = context.getLangOpts();
    while (location.isMacroID()) {
      FileID id = sources.getFileID(location);
      if (sources.getSLocEntry(id).getExpansion().isMacroArgExpansion()) {
        location = sources.getImmediateSpellingLoc(location);
        continue;
      }
      auto known = outermostByExpansion.find(id);
      if (known != outermostByExpansion.end()) {
        outermost = known->second;
        break;
      }
      StringRef name = Lexer::getImmediateMacroName(location, sources, language);
      CharSourceRange expansion = sources.getImmediateExpansionRange(location);
      int primitive = bp_primitive_find(name.data(), name.size());
      walked.push_back({id, primitive != BP_NO_PRIMITIVE
                                ? std::optional<MacroHit>(MacroHit{primitive, expansion})
                                : std::nullopt});
      location = expansion.getBegin();
    }
    for (auto step = walked.rbegin(); step != walked.rend(); ++step) {
      if (!outermost)
        outermost = step->second;
      outermostByExpansion[step->first] = outermost;
    }
    return outermost;
  }

  static unsigned keyOf(const MacroHit &hit) { return hit.expansion.getBegin().getRawEncoding(); }

  // Whether `statement` is the outermost node of the use `hit` belongs to.
  bool sameUse(const Stmt *statement, const MacroHit &hit) const {
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
  void findMacroUses(const Stmt *body) {
    if (!site && !unit.macroUsesByBody.count(body)) {
      // a function lowered on its own: most are lowered once, and keeping
      // every body's uses to the unit's end costs memory
      collectMacroUses(body, ownMacroUses);
      macroUses = &ownMacroUses;
      return;
    }
    std::unique_ptr<llvm::DenseMap<unsigned, PrimitiveUse>> &slot = unit.macroUsesByBody[body];
    bool found = slot != nullptr;
    if (!found)
      slot = std::make_unique<llvm::DenseMap<unsigned, PrimitiveUse>>();
    llvm::DenseMap<unsigned, PrimitiveUse> *uses = slot.get();
    if (!found)
      collectMacroUses(body, *uses);
    macroUses = uses;
  }

  void collectMacroUses(const Stmt *statement, llvm::DenseMap<unsigned, PrimitiveUse> &uses) const {
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
  void collectEmptyBarriers(const Stmt *body, const CFG &cfg) {
    SourceRange range(sources.getExpansionLoc(body->getBeginLoc()),
                      sources.getExpansionLoc(body->getEndLoc()));
    // The uses are in the order the preprocessor met them: the body's are
    // found by binary search, not by looking at every use of the unit.
    llvm::ArrayRef<EmptyBarrier> uses = unit.barrierMacroUses;
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

  void placeEmptyBarriersBefore(const Stmt *statement) {
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

  // ---- Memory no other thread can see yet ----

  // A call that returns memory nobody else has seen: the C library's
  // allocators, a function declared __attribute__((malloc)), an allocator
  // by name (jsonp_malloc(), mi_zalloc(), an allocator callback
  // `m->malloc(...)`), or a function of the translation unit whose every
  // return is such memory (a map being built, ck_hs_map_create()).
  bool isAllocation(const Expr *expression) const {
    const auto *call = dyn_cast<CallExpr>(expression->IgnoreParenCasts());
    if (!call)
      return false;
    llvm::StringRef name;
    const FunctionDecl *callee = call->getDirectCallee();
    if (callee) {
      // __attribute__((malloc)) is RestrictAttr in Clang's AST.
      if (callee->hasAttr<RestrictAttr>())
        return true;
      switch (callee->getBuiltinID()) {
      case Builtin::BImalloc:
      case Builtin::BIcalloc:
      case Builtin::BIrealloc:
        return true;
      default:
        break;
      }
      name = callee->getIdentifier() ? callee->getName() : "";
    } else if (const auto *member =
                   dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts())) {
      name = member->getMemberDecl()->getName();
    }
    if (name.contains_insensitive("alloc") && !name.contains_insensitive("free"))
      return true;
    const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    return definition && definition->hasBody() && isAllocator(definition);
  }

  bool isAllocator(const FunctionDecl *definition) const {
    auto [known, added] = unit.allocators.try_emplace(definition, false);
    if (!added)
      return known->second; // false while being worked out: recursion ends
    FunctionLowering inner(context, engine, files, unit);
    inner.function = definition;
    inner.collectFreshLocals(definition->getBody());
    bool returnsSome = false, allFresh = true;
    std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
      if (!statement || !allFresh)
        return;
      if (const auto *result = dyn_cast<ReturnStmt>(statement)) {
        const Expr *value = result->getRetValue();
        if (!value)
          return;
        returnsSome = true;
        allFresh = inner.isFreshValue(value);
        return;
      }
      for (const Stmt *child : statement->children())
        walk(child);
    };
    walk(definition->getBody());
    return unit.allocators[definition] = returnsSome && allFresh;
  }

  // Whether `call` hands its argument `index` on: a callee that keeps the
  // memory to itself (the C library, pthreads, a function named to free it,
  // or one of the translation unit whose body neither stores the pointer
  // anywhere nor hands it to one that may) does not publish it.
  bool publishesArgument(const CallExpr *call, unsigned index) const {
    const FunctionDecl *callee = call->getDirectCallee();
    if (keepsMemoryPrivate(callee))
      return false;
    if (!callee)
      return true;
    const FunctionDecl *definition = callee->getDefinition();
    if (!definition || !definition->hasBody() || index >= definition->getNumParams())
      return true;
    return !keepsParameterPrivate(definition->getParamDecl(index));
  }

  bool keepsParameterPrivate(const ParmVarDecl *parameter) const {
    auto [known, added] = unit.privateParameters.try_emplace(parameter, false);
    if (!added)
      return known->second; // false while being worked out: recursion ends
    const auto *definition = cast<FunctionDecl>(parameter->getDeclContext());
    // The parameter and the locals that hold what it points to
    // (`array = container_of(json, ...)`).
    llvm::SmallPtrSet<const VarDecl *, 4> aliases{parameter};
    bool kept = true;
    std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
      if (!statement || !kept)
        return;
      if (const auto *binary = dyn_cast<BinaryOperator>(statement);
          binary && binary->isAssignmentOp()) {
        if (const VarDecl *value = pointerLocal(binary->getRHS()); value && aliases.count(value)) {
          const VarDecl *target = localOf(binary->getLHS());
          if (target && !target->isStaticLocal())
            aliases.insert(target);
          else
            kept = false; // stored into memory
        }
      } else if (const auto *declarations = dyn_cast<DeclStmt>(statement)) {
        for (const Decl *declaration : declarations->decls())
          if (const auto *variable = dyn_cast<VarDecl>(declaration);
              variable && variable->hasInit())
            if (const VarDecl *value = pointerLocal(variable->getInit());
                value && aliases.count(value)) {
              if (variable->hasGlobalStorage())
                kept = false;
              else
                aliases.insert(variable);
            }
      } else if (const auto *result = dyn_cast<ReturnStmt>(statement)) {
        if (const VarDecl *value = pointerLocal(result->getRetValue());
            value && aliases.count(value))
          kept = false; // the caller gets it back under another name
      } else if (const auto *unary = dyn_cast<UnaryOperator>(statement)) {
        if (const VarDecl *value = localOf(unary->getSubExpr());
            value && aliases.count(value) && unary->getOpcode() == UO_AddrOf)
          kept = false;
      } else if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
        for (const Stmt *argument : atomic->children())
          if (const auto *value = dyn_cast<Expr>(argument); value && argument != atomic->getPtr() &&
                                                            pointerLocal(value) &&
                                                            aliases.count(pointerLocal(value)))
            kept = false;
      } else if (const auto *call = dyn_cast<CallExpr>(statement)) {
        for (unsigned i = 0; i < call->getNumArgs() && kept; i++)
          if (const VarDecl *value = pointerLocal(call->getArg(i));
              value && aliases.count(value) && publishesArgument(call, i))
            kept = false;
      }
      for (const Stmt *child : statement->children())
        walk(child);
    };
    // Twice: an alias made late in the body may be used earlier in a loop.
    walk(definition->getBody());
    walk(definition->getBody());
    return unit.privateParameters[parameter] = kept;
  }

  // The local whose pointer `value` is, through casts and pointer
  // arithmetic (`(T *)((char *)p - offsetof(T, member))`).
  static const VarDecl *pointerLocal(const Expr *value) {
    if (!value)
      return nullptr;
    value = value->IgnoreParenCasts();
    if (const auto *binary = dyn_cast<BinaryOperator>(value);
        binary && binary->isAdditiveOp() && binary->getType()->isPointerType())
      return pointerLocal(binary->getLHS()->getType()->isPointerType() ? binary->getLHS()
                                                                       : binary->getRHS());
    if (const auto *address = dyn_cast<UnaryOperator>(value);
        address && address->getOpcode() == UO_AddrOf)
      return baseLocal(address->getSubExpr());
    return localOf(value);
  }

  // NULL, an allocation, or a local that only ever holds one (`p`,
  // `&p->member`).
  bool isFreshValue(const Expr *value) const {
    value = value->IgnoreParenCasts();
    if (value->isNullPointerConstant(context, Expr::NPC_ValueDependentIsNotNull) ||
        isAllocation(value))
      return true;
    if (const auto *address = dyn_cast<UnaryOperator>(value);
        address && address->getOpcode() == UO_AddrOf) {
      const Expr *base = address->getSubExpr()->IgnoreParenImpCasts();
      while (const auto *member = dyn_cast<MemberExpr>(base)) {
        base = member->getBase()->IgnoreParenImpCasts();
        if (member->isArrow())
          break;
      }
      value = base;
    }
    const VarDecl *variable = localOf(value);
    return variable && allocatedLocals.count(variable);
  }

  // Local pointers whose every value is memory the function has just
  // allocated (p = malloc(...)) and that the function never stores anywhere:
  // what they point to is being initialised and is not shared yet, so stores
  // through them (workqueue->qlen = 0 before pthread_create() hands the
  // structure over) pair with nothing. A pointer the function publishes
  // (global = p, rcu_assign_pointer(global, p)) or passes on (other than to
  // the C library or pthreads) is not fresh: its initialisation is the payload
  // of a message.
  static const VarDecl *localOf(const Expr *expression) {
    const auto *reference = dyn_cast<DeclRefExpr>(expression->IgnoreParenCasts());
    const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
    return variable && !variable->hasGlobalStorage() ? variable : nullptr;
  }

  void collectFreshLocals(const Stmt *body) {
    llvm::DenseMap<const VarDecl *, bool> candidates; // false once assigned anything else
    llvm::SmallPtrSet<const VarDecl *, 8> escaped;
    // The local whose memory a store goes into (`p->entries = &p[1]` keeps
    // p's memory to itself).
    const VarDecl *storedInto = nullptr;
    // Every local whose value `value` may carry.
    std::function<void(const Stmt *)> escapes = [&](const Stmt *value) {
      if (!value)
        return;
      if (const auto *reference = dyn_cast<DeclRefExpr>(value)) {
        if (const auto *variable = dyn_cast<VarDecl>(reference->getDecl());
            variable && variable != storedInto &&
            (!storedInto || allocation(variable) != allocation(storedInto)))
          escaped.insert(variable);
        return;
      }
      if (const auto *member = dyn_cast<MemberExpr>(value)) {
        if (member->isArrow())
          return; // p->field is a value read from the structure, not p
      }
      for (const Stmt *child : value->children())
        escapes(child);
    };
    // A parameter given memory its caller has allocated and not yet
    // published is that memory's only name here, until this body publishes it.
    if (site)
      for (const ParmVarDecl *parameter : function->parameters())
        if (auto [argument, caller] = argumentOf(parameter);
            argument && caller->isUnpublishedValue(argument))
          candidates.try_emplace(parameter, true);
    // Locals that name the memory of another (`array = container_of(json,
    // ...)`): one is fresh and private only if the other is.
    llvm::SmallVector<std::pair<const VarDecl *, const VarDecl *>, 2> derived;
    auto consider = [&](const VarDecl *variable, const Expr *value) {
      if (!variable || variable->hasGlobalStorage() || !variable->getType()->isPointerType())
        return;
      bool fresh =
          value && (isAllocation(value) || value->IgnoreParenCasts()->isNullPointerConstant(
                                               context, Expr::NPC_ValueDependentIsNotNull));
      if (const VarDecl *source = value ? pointerLocal(value) : nullptr;
          !fresh && source && source != variable && candidates.lookup(source)) {
        fresh = true;
        derived.emplace_back(variable, source);
        if (const VarDecl *root = allocation(source); root != variable)
          allocationOf[variable] = root;
      }
      auto [entry, added] = candidates.try_emplace(variable, fresh);
      if (!added)
        entry->second = entry->second && fresh;
    };
    std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
      if (!statement)
        return;
      if (const auto *declarations = dyn_cast<DeclStmt>(statement)) {
        for (const Decl *declaration : declarations->decls()) {
          if (const auto *variable = dyn_cast<VarDecl>(declaration);
              variable && variable->hasInit())
            consider(variable, variable->getInit());
        }
      } else if (const auto *binary = dyn_cast<BinaryOperator>(statement)) {
        if (binary->isAssignmentOp()) {
          if (const VarDecl *target = localOf(binary->getLHS()))
            consider(target, binary->getOpcode() == BO_Assign ? binary->getRHS() : nullptr);
          else {
            storedInto = baseLocal(binary->getLHS());
            escapes(binary->getRHS()); // stored into memory
            storedInto = nullptr;
          }
        }
      } else if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
        for (const Stmt *argument : atomic->children())
          if (argument != atomic->getPtr())
            escapes(argument);
      } else if (const auto *call = dyn_cast<CallExpr>(statement)) {
        // Only a local that may hold fresh memory asks what the callee does.
        for (unsigned i = 0; i < call->getNumArgs(); i++)
          if (const VarDecl *variable = localOf(call->getArg(i));
              variable && candidates.count(variable) && publishesArgument(call, i))
            escaped.insert(variable);
      } else if (const auto *unary = dyn_cast<UnaryOperator>(statement)) {
        // p++ or &p: no longer only the allocation.
        if (unary->isIncrementDecrementOp() || unary->getOpcode() == UO_AddrOf) {
          if (const auto *target =
                  dyn_cast<DeclRefExpr>(unary->getSubExpr()->IgnoreParenImpCasts()))
            consider(dyn_cast<VarDecl>(target->getDecl()), nullptr);
        }
      }
      for (const Stmt *child : statement->children())
        walk(child);
    };
    walk(body);
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [variable, source] : derived) {
        for (auto [from, to] : {std::pair{variable, source}, std::pair{source, variable}}) {
          if (candidates[from] && !candidates[to])
            changed = true, candidates[from] = false;
          if (escaped.count(to) && escaped.insert(from).second)
            changed = true;
        }
      }
    }
    for (const auto &[variable, fresh] : candidates) {
      if (!fresh)
        allocationOf.erase(variable);
      if (fresh)
        allocatedLocals.insert(variable);
      // A parameter's memory is published by the caller later on: its
      // initialisation here is still a payload.
      if (fresh && !escaped.count(variable) && !isa<ParmVarDecl>(variable))
        freshLocals.insert(variable);
    }
  }

  // The C library (memset, free, ...), pthreads (pthread_create hands the
  // structure over with the ordering thread creation gives) and a function
  // named to free memory (jsonp_free(), which calls through a pointer) do
  // not publish the memory they are given.
  static bool keepsMemoryPrivate(const FunctionDecl *callee) {
    llvm::StringRef name = callee && callee->getIdentifier() ? callee->getName() : "";
    return callee && (callee->getBuiltinID() != 0 || name.starts_with("pthread_") ||
                      name.contains_insensitive("free"));
  }

  // The allocated locals a CFG element publishes: stores into shared
  // memory, hands to a function (other than the C library's and pthreads')
  // or to an atomic operation.
  void collectPublished(const Stmt *element, llvm::SmallPtrSetImpl<const VarDecl *> &out,
                        bool storesOnly = false) const {
    auto carried = [&](const Expr *value) {
      if (!value)
        return;
      if (const VarDecl *variable = localOf(value); variable && allocatedLocals.count(variable))
        out.insert(allocation(variable));
    };
    if (const auto *binary = dyn_cast<BinaryOperator>(element)) {
      // A pointer stored into its own allocation (`heap->tld = tld` with both
      // in one `td`) is not handed to anyone.
      const VarDecl *target = baseLocal(binary->getLHS());
      const VarDecl *value = localOf(binary->getRHS());
      bool ownAllocation = target && value && allocatedLocals.count(target) &&
                           allocation(target) == allocation(value);
      // Counted as a store publication only when the store is marked (an
      // atomic or volatile store: rcu_assign_pointer(), WRITE_ONCE()): the
      // code says other threads read that place.
      bool shown = !storesOnly || isMarkedType(binary->getLHS()->getType());
      if (binary->getOpcode() == BO_Assign && !localOf(binary->getLHS()) && !ownAllocation && shown)
        carried(binary->getRHS());
    } else if (const auto *atomic = dyn_cast<AtomicExpr>(element)) {
      for (const Stmt *argument : atomic->children())
        if (argument != atomic->getPtr())
          if (const auto *value = dyn_cast<Expr>(argument))
            carried(value);
    } else if (const auto *call = dyn_cast<CallExpr>(element); call && !storesOnly) {
      for (unsigned i = 0; i < call->getNumArgs(); i++) {
        const VarDecl *variable = localOf(call->getArg(i));
        if (variable && allocatedLocals.count(variable) && publishesArgument(call, i))
          carried(call->getArg(i));
      }
    }
  }

  // What each block may have published when it starts: a path from a
  // publication reaches it (loops included: it is control, not order).
  void collectPublications(const CFG &cfg) {
    unsigned count = cfg.getNumBlockIDs();
    publishedAtEntry.assign(count, {});
    storePublishedAtEntry.assign(count, {});
    if (allocatedLocals.size() == freshLocals.size())
      return; // every allocated local stays private
    flowPublications(cfg, publishedAtEntry, false);
    flowPublications(cfg, storePublishedAtEntry, true);
  }

  void flowPublications(const CFG &cfg, std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> &atEntry,
                        bool storesOnly) const {
    unsigned count = cfg.getNumBlockIDs();
    std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> publishedIn(count);
    for (const CFGBlock *block : cfg)
      for (const CFGElement &element : *block)
        if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>())
          collectPublished(statement->getStmt(), publishedIn[block->getBlockID()], storesOnly);
    for (bool changed = true; changed;) {
      changed = false;
      for (const CFGBlock *block : cfg) {
        llvm::SmallPtrSet<const VarDecl *, 2> out = atEntry[block->getBlockID()];
        out.insert(publishedIn[block->getBlockID()].begin(),
                   publishedIn[block->getBlockID()].end());
        for (const CFGBlock::AdjacentBlock &successor : block->succs()) {
          const CFGBlock *next = successor.getReachableBlock();
          if (!next)
            continue;
          for (const VarDecl *variable : out)
            changed |= atEntry[next->getBlockID()].insert(variable).second;
        }
      }
    }
  }

  // `value` is an allocated local not yet published here (`p` in
  // `init(p)` before `publish(p)`).
  bool isUnpublishedValue(const Expr *value) const {
    const VarDecl *variable = localOf(value);
    return variable && allocatedLocals.count(variable) &&
           !publishedHere.count(allocation(variable));
  }

  // The local whose allocation `variable` names part of (itself if none).
  const VarDecl *allocation(const VarDecl *variable) const {
    for (auto found = allocationOf.find(variable); found != allocationOf.end();
         found = allocationOf.find(variable))
      variable = found->second;
    return variable;
  }

  // `lvalue` is in memory of an allocated local (`p->field`,
  // `p->slots[i]`) that is not published yet.
  bool isUnpublished(const Expr *lvalue) const {
    const VarDecl *variable = baseLocal(lvalue);
    return variable && allocatedLocals.count(variable) &&
           !publishedHere.count(allocation(variable));
  }

  // The local pointer an lvalue's memory is reached through (`p->a.b[i]`).
  static const VarDecl *baseLocal(const Expr *lvalue) {
    const Expr *base = lvalue->IgnoreParenImpCasts();
    for (;;) {
      if (const auto *member = dyn_cast<MemberExpr>(base)) {
        if (member->isArrow())
          return localOf(member->getBase());
        base = member->getBase()->IgnoreParenImpCasts();
      } else if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(base)) {
        base = subscript->getBase()->IgnoreParenImpCasts();
        if (!base->getType()->isArrayType())
          return localOf(base);
      } else {
        return nullptr;
      }
    }
  }

  // A local variable, or memory only a fresh local points to: not shared.
  bool isUnshared(const Expr *base, bool arrow) const {
    base = base->IgnoreParenImpCasts();
    while (const auto *member = dyn_cast<MemberExpr>(base)) {
      if (member->isArrow())
        return false;
      base = member->getBase()->IgnoreParenImpCasts();
    }
    const auto *reference = dyn_cast<DeclRefExpr>(base);
    const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
    if (!variable || variable->hasGlobalStorage())
      return false;
    return arrow ? freshLocals.count(variable) > 0 : !variable->getType()->isPointerType();
  }

  // ---- What decides that an access runs, or where it goes ----

  static void addUnique(llvm::SmallVectorImpl<uint32_t> &objects, uint32_t object) {
    if (!llvm::is_contained(objects, object))
      objects.push_back(object);
  }

  uint32_t internObject(const SharedObject &object) const {
    return bp_intern_object(engine, object.key.c_str(), object.display.c_str());
  }

  // The shared objects whose values `statement` computes with: the objects
  // it loads (plainly, through a marking or an atomic builtin) and the
  // sources of the locals it reads.
  void collectObjectsRead(const Stmt *statement, llvm::SmallVectorImpl<uint32_t> &objects) const {
    if (!statement)
      return;
    if (const auto *cast = dyn_cast<ImplicitCastExpr>(statement);
        cast && cast->getCastKind() == CK_LValueToRValue) {
      if (std::optional<SharedObject> object = nameObject(cast->getSubExpr()))
        addUnique(objects, internObject(*object));
    } else if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
      const Expr *pointer = atomic->getPtr()->IgnoreParenCasts();
      if (const auto *address = dyn_cast<UnaryOperator>(pointer);
          address && address->getOpcode() == UO_AddrOf) {
        if (std::optional<SharedObject> object = nameObject(address->getSubExpr()))
          addUnique(objects, internObject(*object));
      }
    } else if (const auto *reference = dyn_cast<DeclRefExpr>(statement)) {
      if (const auto *variable = dyn_cast<VarDecl>(reference->getDecl())) {
        if (!variable->hasGlobalStorage())
          for (uint32_t object : sourcesOf(variable))
            addUnique(objects, object);
      }
    } else if (const auto *call = dyn_cast<CallExpr>(statement)) {
      // A called marking (ck_pr_load_uint(&x)) reads its argument's object.
      int primitive = BP_NO_PRIMITIVE;
      if (std::optional<PrimitiveUse> use = directUse(call))
        primitive = use->primitive;
      else if (std::optional<MacroHit> hit = outermostKnownMacro(call->getBeginLoc());
               hit && sameUse(call, *hit))
        primitive = hit->primitive;
      if (primitive != BP_NO_PRIMITIVE && call->getNumArgs() > 0) {
        bp_op op = bp_primitive_get(primitive)->op;
        if (op == BP_OP_LOAD || op == BP_OP_RMW || op == BP_OP_ACCESS)
          if (std::optional<SharedObject> object = nameThroughPointer(call->getArg(0)))
            addUnique(objects, internObject(*object));
      }
      // A helper's value is what its returns read (`if (ring_full(r))`).
      const FunctionDecl *callee = call->getDirectCallee();
      const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
      if (definition && definition->hasBody())
        for (uint32_t object : returnedObjects(definition))
          addUnique(objects, object);
    }
    for (const Stmt *child : statement->children())
      collectObjectsRead(child, objects);
  }

  // What a helper's returns read, worked out once per translation unit;
  // empty while being worked out, which ends recursion.
  const llvm::SmallVector<uint32_t, 2> &returnedObjects(const FunctionDecl *definition) const {
    auto [known, added] = unit.returnedObjects.try_emplace(definition);
    if (!added)
      return known->second;
    // The helper's own locals carry what its returns read.
    FunctionLowering helper(context, engine, files, unit);
    helper.function = definition;
    helper.findMacroUses(definition->getBody());
    helper.collectLocalSources(definition->getBody());
    llvm::SmallVector<uint32_t, 2> objects;
    helper.collectReturnedObjects(definition->getBody(), objects);
    return unit.returnedObjects[definition] = objects;
  }

  void collectReturnedObjects(const Stmt *statement,
                              llvm::SmallVectorImpl<uint32_t> &objects) const {
    if (!statement)
      return;
    if (const auto *result = dyn_cast<ReturnStmt>(statement)) {
      collectObjectsRead(result->getRetValue(), objects);
      return;
    }
    for (const Stmt *child : statement->children())
      collectReturnedObjects(child, objects);
  }

  // Flow-insensitive: a local carries what any of its assignments reads.
  // The assignments are gathered once; what they read is worked out when a
  // check or an address asks (most locals never matter).
  void collectLocalSources(const Stmt *body) {
    std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
      if (!statement)
        return;
      if (const auto *declarations = dyn_cast<DeclStmt>(statement)) {
        for (const Decl *declaration : declarations->decls()) {
          if (const auto *variable = dyn_cast<VarDecl>(declaration);
              variable && variable->hasInit() && !variable->hasGlobalStorage())
            localAssignments[variable].push_back(variable->getInit());
        }
      } else if (const auto *binary = dyn_cast<BinaryOperator>(statement);
                 binary && binary->isAssignmentOp()) {
        if (const VarDecl *target = localOf(binary->getLHS()))
          localAssignments[target].push_back(binary->getRHS());
      }
      for (const Stmt *child : statement->children())
        walk(child);
    };
    walk(body);
  }

  llvm::SmallVector<uint32_t, 2> sourcesOf(const VarDecl *variable) const {
    auto known = localSources.find(variable);
    if (known != localSources.end())
      return known->second;
    // Empty while being worked out: a cycle of copies ends here.
    localSources[variable];
    llvm::SmallVector<uint32_t, 2> sources;
    auto assignments = localAssignments.find(variable);
    if (assignments != localAssignments.end())
      for (const Expr *value : assignments->second)
        collectObjectsRead(value, sources);
    return localSources[variable] = sources;
  }

  // A block is guarded by a branch on a shared value when the branch
  // dominates it and one way out of the branch never reaches it (an `if`
  // around it, a spin loop or an early return before it): the block runs
  // only for some values of the objects the condition reads.
  void collectBlockGuards(CFG &cfg, CFGDomTree &dominators) {
    unsigned count = cfg.getNumBlockIDs();
    blockGuards.assign(count, {});
    for (const CFGBlock *branch : cfg) {
      const Stmt *condition = branch->getTerminatorCondition();
      if (!condition || branch->succ_size() < 2)
        continue;
      llvm::SmallVector<uint32_t, 2> objects;
      collectObjectsRead(condition, objects);
      if (objects.empty())
        continue;
      std::vector<llvm::BitVector> reached;
      for (const CFGBlock::AdjacentBlock &successor : branch->succs()) {
        if (const CFGBlock *start = successor.getReachableBlock())
          reached.push_back(reachableAvoiding(start, branch, count));
      }
      for (const CFGBlock *block : cfg) {
        if (block == branch || !dominators.dominates(branch, block))
          continue;
        bool someWayMisses = llvm::any_of(
            reached, [&](const llvm::BitVector &set) { return !set.test(block->getBlockID()); });
        if (someWayMisses)
          for (uint32_t object : objects)
            addUnique(blockGuards[block->getBlockID()], object);
      }
    }
  }

  static llvm::BitVector reachableAvoiding(const CFGBlock *start, const CFGBlock *avoided,
                                           unsigned count) {
    llvm::BitVector seen(count);
    if (start == avoided)
      return seen;
    std::vector<const CFGBlock *> work{start};
    seen.set(start->getBlockID());
    while (!work.empty()) {
      const CFGBlock *block = work.back();
      work.pop_back();
      for (const CFGBlock::AdjacentBlock &successor : block->succs()) {
        const CFGBlock *next = successor.getReachableBlock();
        if (next && next != avoided && !seen.test(next->getBlockID())) {
          seen.set(next->getBlockID());
          work.push_back(next);
        }
      }
    }
    return seen;
  }

  // The objects an lvalue's address is computed from: `p->field` with
  // p = rcu_dereference(gp), `slots[tail]`.
  void collectAddressSources(const Expr *lvalue, llvm::SmallVectorImpl<uint32_t> &objects) const {
    lvalue = lvalue->IgnoreParens();
    if (const auto *member = dyn_cast<MemberExpr>(lvalue)) {
      if (member->isArrow())
        collectObjectsRead(member->getBase(), objects);
      else
        collectAddressSources(member->getBase(), objects);
    } else if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(lvalue)) {
      collectObjectsRead(subscript->getIdx(), objects);
      const Expr *base = subscript->getBase()->IgnoreParenImpCasts();
      if (base->getType()->isArrayType())
        collectAddressSources(base, objects);
      else
        collectObjectsRead(subscript->getBase(), objects);
    } else if (const auto *unary = dyn_cast<UnaryOperator>(lvalue);
               unary && unary->getOpcode() == UO_Deref) {
      collectObjectsRead(unary->getSubExpr(), objects);
    }
  }

  // ---- Naming shared objects ----

  std::optional<SharedObject> nameObject(const Expr *expression) const {
    expression = expression->IgnoreParens();
    if (const auto *unary = dyn_cast<UnaryOperator>(expression)) {
      if (unary->getOpcode() != UO_Deref)
        return std::nullopt;
      return nameThroughPointer(unary->getSubExpr());
    }
    if (const auto *cast = dyn_cast<CastExpr>(expression)) {
      if (cast->getCastKind() == CK_NoOp || cast->getCastKind() == CK_LValueBitCast)
        return nameObject(cast->getSubExpr());
      return std::nullopt;
    }
    if (const auto *reference = dyn_cast<DeclRefExpr>(expression)) {
      const auto *variable = dyn_cast<VarDecl>(reference->getDecl());
      // Each thread has its own thread-local variable: nothing to share.
      if (!variable || !variable->hasGlobalStorage() || variable->isStaticLocal() ||
          variable->getTLSKind() != VarDecl::TLS_None)
        return std::nullopt;
      // The C library's own globals (stderr, optind, ...) are not the
      // program's shared objects.
      if (sources.isInSystemHeader(sources.getExpansionLoc(variable->getLocation())))
        return std::nullopt;
      std::string name = variable->getNameAsString();
      std::string key = name;
      if (!variable->isExternallyVisible()) {
        // Each translation unit has its own: one file built twice with
        // other macros (liburcu's flavours) or a header's static included
        // by two files are two objects.
        FileID file = sources.getFileID(sources.getExpansionLoc(variable->getLocation()));
        OptionalFileEntryRef entry = sources.getFileEntryRefForID(file);
        key = (entry ? absolutePath(file, entry->getName()) : std::string()) + ":" + name +
              unit.identity;
      }
      return SharedObject{key, name};
    }
    if (const auto *member = dyn_cast<MemberExpr>(expression)) {
      if (isUnshared(member->getBase(), member->isArrow()))
        return std::nullopt;
      const auto *field = dyn_cast<FieldDecl>(member->getMemberDecl());
      if (!field)
        return std::nullopt;
      const RecordDecl *record = field->getParent();
      std::string type = record->getNameAsString();
      if (type.empty()) {
        if (const TypedefNameDecl *alias = record->getTypedefNameForAnonDecl())
          type = alias->getNameAsString();
      }
      if (type.empty())
        return std::nullopt;
      std::string display = type + "." + field->getNameAsString();
      std::string key = std::string(record->isUnion() ? "union " : "struct ") + display;
      // A field of a global reached with `.` is that variable's instance:
      // the engine keeps it apart from other instances of the type unless
      // the program also reaches the field through a pointer.
      std::optional<SharedObject> base;
      if (!member->isArrow())
        base = nameObject(member->getBase());
      else if (auto [argument, caller] = argumentOf(member->getBase()); argument)
        base = caller->nameThroughPointer(argument); // `p->f` with p bound to `&global`
      if (base && !base->threadOwn)
        return instanceField(*base, key, field->getNameAsString());
      return SharedObject{key, display, isThreadLocal(member)};
    }
    if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(expression)) {
      // Elements collapse onto their array.
      const Expr *base = subscript->getBase()->IgnoreParenImpCasts();
      std::optional<SharedObject> array = nameObject(base);
      if (auto [argument, caller] = argumentOf(base); !array && argument)
        array = caller->nameObject(argument->IgnoreParenImpCasts());
      if (array) {
        std::string key = array->key;
        if (size_t at = key.find(BP_INSTANCE_SEPARATOR); at != std::string::npos)
          key = key.substr(0, at) + "[]" + key.substr(at); // the type's object is T.f[]
        return SharedObject{key + "[]", array->display + "[]", array->threadOwn};
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  // Field `name` (whose type's object is `key`) of the instance `base`.
  static SharedObject instanceField(const SharedObject &base, const std::string &key,
                                    const std::string &name) {
    std::string instance = base.key;
    if (size_t at = instance.find(BP_INSTANCE_SEPARATOR); at != std::string::npos)
      instance = instance.substr(at + 1);
    return SharedObject{key + BP_INSTANCE_SEPARATOR + instance + "." + name,
                        base.display + "." + name, false};
  }

  // The field `field` of the structure `object` names, as nameObject
  // names `object.field`.
  static SharedObject fieldOf(const SharedObject &object, const RecordDecl *record,
                              const FieldDecl *field) {
    std::string type = record->getNameAsString();
    if (type.empty())
      if (const TypedefNameDecl *alias = record->getTypedefNameForAnonDecl())
        type = alias->getNameAsString();
    std::string display = type + "." + field->getNameAsString();
    std::string key = "struct " + display;
    if (object.key.find(BP_INSTANCE_SEPARATOR) != std::string::npos && !object.threadOwn)
      return instanceField(object, key, field->getNameAsString());
    return SharedObject{key, display, object.threadOwn};
  }

  // `reader.ctr` of a thread-local `reader`: each thread's own instance,
  // while another thread reaches it only through a pointer.
  static bool isThreadLocal(const MemberExpr *member) {
    const Expr *base = member;
    while (const auto *dot = dyn_cast<MemberExpr>(base->IgnoreParenImpCasts())) {
      if (dot->isArrow())
        return false;
      base = dot->getBase();
    }
    const auto *reference = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
    const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
    return variable && variable->getTLSKind() != VarDecl::TLS_None;
  }

  // The object `*pointer` names: `*&x`, or `*p` in an inlined body whose
  // parameter p was bound to `&x`.
  std::optional<SharedObject> nameThroughPointer(const Expr *pointer) const {
    pointer = pointer->IgnoreParenCasts();
    if (const auto *address = dyn_cast<UnaryOperator>(pointer)) {
      if (address->getOpcode() == UO_AddrOf)
        return nameObject(address->getSubExpr());
    }
    if (auto [argument, caller] = argumentOf(pointer); argument)
      return caller->nameThroughPointer(argument);
    return std::nullopt;
  }

  // The first shared object a primitive's own text mentions: the object it
  // accesses (`&x`, `x`, `p->field`).
  std::optional<SharedObject> findTarget(const Stmt *statement,
                                         const Expr **lvalue = nullptr) const {
    // A C11 or GCC atomic on a helper's pointer parameter bound to `&x` at
    // the call (`atomic_fetch_sub_explicit(refcount, 1, ...)` in a helper
    // handed `&obj->refcount`): no lvalue of this body names it.
    if (const auto *atomic = dyn_cast<AtomicExpr>(statement);
        atomic && isa<DeclRefExpr>(atomic->getPtr()->IgnoreParenCasts())) {
      if (std::optional<SharedObject> object = nameThroughPointer(atomic->getPtr())) {
        if (lvalue)
          *lvalue = nullptr;
        return object;
      }
    }
    if (const auto *expression = dyn_cast<Expr>(statement)) {
      if (std::optional<SharedObject> object = nameObject(expression)) {
        if (lvalue)
          *lvalue = expression;
        return object;
      }
    }
    for (const Stmt *child : statement->children()) {
      if (!child)
        continue;
      if (std::optional<SharedObject> object = findTarget(child, lvalue))
        return object;
    }
    return std::nullopt;
  }

  std::optional<int64_t> evaluate(const Expr *expression) const {
    Expr::EvalResult result;
    if (expression && !expression->isValueDependent() && expression->EvaluateAsInt(result, context))
      return result.Val.getInt().getExtValue();
    return std::nullopt;
  }

  // The memory order of a C11 or GCC atomic operation inside `statement`.
  std::optional<bp_order> findOrder(const Stmt *statement) const {
    if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
      if (std::optional<int64_t> order = evaluate(atomic->getOrder()))
        return bp_order_from_c11(static_cast<int>(*order));
      return std::nullopt;
    }
    if (const auto *call = dyn_cast<CallExpr>(statement)) {
      if (call->getNumArgs() == 1) {
        if (std::optional<int64_t> order = evaluate(call->getArg(0)))
          return bp_order_from_c11(static_cast<int>(*order));
      }
    }
    for (const Stmt *child : statement->children()) {
      if (!child)
        continue;
      if (std::optional<bp_order> order = findOrder(child))
        return order;
    }
    return std::nullopt;
  }

  // ---- Locations ----

  // Files are named by absolute paths, so the translation units of a program
  // (each compiled in its own directory) agree on them.
  const std::string &absolutePath(FileID id, StringRef name) const {
    auto [known, added] = unit.absolutePaths.try_emplace(id);
    if (added) {
      llvm::SmallString<256> path(name);
      sources.getFileManager().makeAbsolutePath(path);
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      known->second = std::string(path);
    }
    return known->second;
  }

  bp_location engineLocation(SourceLocation location) const {
    SourceLocation file = sources.getExpansionLoc(location);
    FileID id = sources.getFileID(file);
    OptionalFileEntryRef entry = sources.getFileEntryRefForID(id);
    if (file.isInvalid() || !entry)
      return bp_location{0, 0, 0};
    auto known = unit.engineFiles.find(id);
    uint32_t engineFile = known != unit.engineFiles.end()
                              ? known->second
                              : bp_intern_file(engine, absolutePath(id, entry->getName()).c_str());
    unit.engineFiles[id] = engineFile;
    files[engineFile] = id;
    return bp_location{engineFile, sources.getExpansionLineNumber(file),
                       sources.getExpansionColumnNumber(file)};
  }

  // An event of an inlined body written in a system header (a library's
  // static inline function, installed) is reported at the call in the main
  // file; one in a header of the program, where its code is.
  bp_location eventLocation(SourceLocation location) const {
    SourceLocation written = sources.getExpansionLoc(location);
    if (site && !sources.isWrittenInMainFile(written) && sources.isInSystemHeader(written))
      return engineLocation(site->location);
    return engineLocation(location);
  }

  SourceLocation fileLocation(SourceLocation location) const {
    SourceLocation file = sources.getExpansionLoc(location);
    return sources.isWrittenInMainFile(file) ? file : SourceLocation();
  }

  // The statement of a block (or a function body) that holds `statement`;
  // a GNU statement expression, as CMM_LOAD_SHARED() expands to, is part of
  // an expression, not a block of its own.
  SourceLocation statementBegin(const Stmt *statement) const {
    const Stmt *current = statement;
    while (const Stmt *parent = parentMap->getParent(current)) {
      if (isa<CompoundStmt>(parent) && !isa_and_nonnull<StmtExpr>(parentMap->getParent(parent)))
        return fileLocation(current->getBeginLoc());
      current = parent;
    }
    return SourceLocation();
  }

  // The whitespace that starts the line holding `location`.
  std::string indentationAt(SourceLocation location) const {
    std::pair<FileID, unsigned> position = sources.getDecomposedLoc(location);
    StringRef buffer = sources.getBufferData(position.first);
    size_t lineStart = buffer.rfind('\n', position.second == 0 ? 0 : position.second - 1);
    lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
    size_t end = lineStart;
    while (end < position.second && (buffer[end] == ' ' || buffer[end] == '\t'))
      end++;
    return buffer.substr(lineStart, end - lineStart).str();
  }

  // Fix-its go only where the code is written in the main file, never into
  // a macro definition or a header.
  void recordText(uint32_t event, const Stmt *statement,
                  CharSourceRange ownText = CharSourceRange()) {
    bp_location nowhere{0, 0, 0}, begin = nowhere, end = nowhere, statementAt = nowhere;
    std::string indentation;
    if (site) {
      statementAt = site->statement;
      indentation = site->indentation;
    } else if (SourceLocation start = statementBegin(statement); start.isValid()) {
      statementAt = engineLocation(start);
      indentation = indentationAt(start);
    }
    if (ownText.isValid() && ownText.getBegin().isFileID() && ownText.getEnd().isFileID() &&
        sources.isWrittenInMainFile(ownText.getBegin())) {
      SourceLocation last = ownText.getEnd();
      if (ownText.isTokenRange())
        last = Lexer::getLocForEndOfToken(last, 0, sources, context.getLangOpts());
      begin = engineLocation(ownText.getBegin());
      end = engineLocation(last);
    }
    bp_set_event_text(engine, event, statementAt, indentation.c_str(), begin, end);
    if (site)
      bp_set_event_callee(engine, event, function->getNameAsString().c_str());
  }

  // ---- Events ----

  void addBarrier(unsigned strength, int primitive, bool implicit, SourceLocation location,
                  const Stmt *statement, CharSourceRange ownText = CharSourceRange()) {
    uint32_t event = bp_add_barrier(engine, currentBlock, strength, primitive, implicit,
                                    eventLocation(location));
    recordText(event, statement, ownText);
    if (initialisedPrivately)
      bp_set_after_private_stores(engine, event);
  }

  uint32_t addAccess(const SharedObject &object, bp_access_kind kind, bool marked, int primitive,
                     SourceLocation location, const Stmt *statement) {
    uint32_t event = bp_add_access(engine, currentBlock, internObject(object), kind, marked,
                                   primitive, eventLocation(location));
    recordText(event, statement);
    if (object.threadOwn)
      bp_set_thread_own(engine, event);
    for (uint32_t guard : currentGuards())
      bp_add_guard(engine, event, guard);
    return event;
  }

  // Where access `event`'s memory comes from: the loads its address is
  // computed from, and whether it is memory not yet published.
  void addProvenance(uint32_t event, const Expr *lvalue) {
    if (!lvalue)
      return;
    llvm::SmallVector<uint32_t, 2> addressSources;
    collectAddressSources(lvalue, addressSources);
    for (uint32_t source : addressSources)
      bp_add_address_source(engine, event, source);
    if (isUnpublished(lvalue))
      bp_set_unpublished(engine, event);
  }

  // The text of `range` when it is written as it is in the main file (not
  // produced by a macro), so that a fix-it can rewrite it.
  std::optional<std::string> mainFileText(SourceRange range) const {
    if (!range.getBegin().isFileID() || !range.getEnd().isFileID() ||
        !sources.isWrittenInMainFile(range.getBegin()))
      return std::nullopt;
    bool invalid = false;
    StringRef text = Lexer::getSourceText(CharSourceRange::getTokenRange(range), sources,
                                          context.getLangOpts(), &invalid);
    if (invalid || text.empty())
      return std::nullopt;
    return text.str();
  }

  // What a fix-it that marks an unmarked access rewrites: a load's lvalue,
  // or a whole `lvalue = value` store.
  void recordAccessText(uint32_t event, const Expr *lvalue, const Stmt *statement,
                        bp_access_kind kind) {
    const Expr *value = nullptr;
    SourceRange range = lvalue->getSourceRange();
    if (kind == BP_ACCESS_STORE) {
      const auto *assignment = dyn_cast<BinaryOperator>(statement);
      if (!assignment || assignment->getOpcode() != BO_Assign)
        return;
      value = assignment->getRHS();
      range = assignment->getSourceRange();
    }
    std::optional<std::string> whole = mainFileText(range);
    std::optional<std::string> target = mainFileText(lvalue->getSourceRange());
    std::optional<std::string> stored;
    if (value)
      stored = mainFileText(value->getSourceRange());
    if (!whole || !target || (value && !stored))
      return;
    SourceLocation end =
        Lexer::getLocForEndOfToken(range.getEnd(), 0, sources, context.getLangOpts());
    bp_set_access_text(engine, event, engineLocation(range.getBegin()), engineLocation(end),
                       target->c_str(), stored ? stored->c_str() : nullptr);
  }

  // The call a primitive's use makes: the use itself, or the first call on
  // its leftmost path (a macro around the call).
  static const CallExpr *callOf(const PrimitiveUse &use) {
    const Stmt *root = use.root;
    while (root && !isa<CallExpr>(root)) {
      auto children = root->children();
      root = children.empty() ? nullptr : *children.begin();
    }
    return dyn_cast_or_null<CallExpr>(root);
  }

  // The variable a thread handle argument is (or is an element of):
  // `&thread`, `thread`, `&threads[i]`.
  static const VarDecl *handleOf(const CallExpr *call) {
    if (!call || call->getNumArgs() == 0)
      return nullptr;
    const Expr *handle = call->getArg(0)->IgnoreParenImpCasts();
    if (const auto *address = dyn_cast<UnaryOperator>(handle);
        address && address->getOpcode() == UO_AddrOf)
      handle = address->getSubExpr()->IgnoreParenImpCasts();
    while (const auto *element = dyn_cast<ArraySubscriptExpr>(handle))
      handle = element->getBase()->IgnoreParenImpCasts();
    const auto *reference = dyn_cast<DeclRefExpr>(handle);
    return reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
  }

  // A join of a handle a start in this translation unit filled.
  void addJoin(const PrimitiveUse &use) {
    auto thread = unit.threads.find(handleOf(callOf(use)));
    if (thread != unit.threads.end())
      bp_add_join(engine, currentBlock, thread->second.c_str(), use.primitive,
                  eventLocation(use.location));
  }

  // The thread function a thread start's arguments name.
  void addSpawn(const PrimitiveUse &use) {
    const CallExpr *call = callOf(use);
    for (unsigned i = 0; call && i < call->getNumArgs(); i++) {
      const Expr *argument = call->getArg(i)->IgnoreParenCasts();
      if (const auto *address = dyn_cast<UnaryOperator>(argument);
          address && address->getOpcode() == UO_AddrOf)
        argument = address->getSubExpr()->IgnoreParenCasts();
      const auto *reference = dyn_cast<DeclRefExpr>(argument);
      if (const auto *thread = reference ? dyn_cast<FunctionDecl>(reference->getDecl()) : nullptr) {
        bp_add_spawn(engine, currentBlock, thread->getNameAsString().c_str(), use.primitive,
                     eventLocation(use.location));
        if (const VarDecl *handle = handleOf(call))
          unit.threads[handle] = thread->getNameAsString();
        return;
      }
    }
  }

  // The lock a lock primitive's first argument points to.
  void addLock(const PrimitiveUse &use, bool acquire) {
    const CallExpr *call = callOf(use);
    std::optional<SharedObject> lock;
    if (call && call->getNumArgs() > 0)
      lock = nameThroughPointer(call->getArg(0));
    if (lock)
      bp_add_lock(engine, currentBlock, internObject(*lock), acquire, use.primitive,
                  eventLocation(use.location));
  }

  // An ordering primitive becomes: [barrier before] access(es) [barrier after].
  void emitOpaque(const PrimitiveUse &use) {
    const bp_primitive &primitive = *bp_primitive_get(use.primitive);
    bp_order order = primitive.order;
    if (order == BP_ORDER_FROM_ARG)
      order = findOrder(use.root).value_or(BP_ORDER_SEQ_CST);

    if (primitive.op == BP_OP_SPAWN) {
      addSpawn(use);
      return;
    }
    if (primitive.op == BP_OP_JOIN) {
      addJoin(use);
      return;
    }
    if (primitive.op == BP_OP_LOCK || primitive.op == BP_OP_UNLOCK) {
      addLock(use, primitive.op == BP_OP_LOCK);
      return;
    }
    if (primitive.op == BP_OP_FENCE) {
      addBarrier(bp_order_strength(order), use.primitive, false, use.location, use.root, use.text);
      return;
    }
    unsigned before = 0, after = 0;
    switch (order) {
    case BP_ORDER_MB:
      before = after = BP_STRENGTH_FULL;
      break;
    case BP_ORDER_SEQ_CST:
      if (primitive.op == BP_OP_RMW) {
        before = BP_STRENGTH_FULL | BP_STRENGTH_RELEASE;
        after = BP_STRENGTH_FULL | BP_STRENGTH_ACQUIRE;
      } else {
        before = after = BP_STRENGTH_FULL;
      }
      break;
    case BP_ORDER_ACQ_REL:
      before = BP_STRENGTH_FULL | BP_STRENGTH_RELEASE;
      after = BP_STRENGTH_FULL | BP_STRENGTH_ACQUIRE;
      break;
    case BP_ORDER_RELEASE:
      before = BP_STRENGTH_FULL | BP_STRENGTH_RELEASE;
      break;
    case BP_ORDER_ACQUIRE:
      after = BP_STRENGTH_FULL | BP_STRENGTH_ACQUIRE;
      break;
    case BP_ORDER_CONSUME:
      after = BP_STRENGTH_FULL | BP_STRENGTH_CONSUME;
      break;
    default:
      break;
    }
    if (primitive.op == BP_OP_LOAD)
      before = before == BP_STRENGTH_FULL ? before : 0;
    if (primitive.op == BP_OP_STORE)
      after = after == BP_STRENGTH_FULL ? after : 0;

    if (before)
      addBarrier(before, use.primitive, true, use.location, use.root);
    const Expr *lvalue = nullptr;
    if (std::optional<SharedObject> target = findTarget(use.root, &lvalue)) {
      if (primitive.op != BP_OP_STORE)
        addProvenance(
            addAccess(*target, BP_ACCESS_LOAD, true, use.primitive, use.location, use.root),
            lvalue);
      if (primitive.op != BP_OP_LOAD) {
        uint32_t store =
            addAccess(*target, BP_ACCESS_STORE, true, use.primitive, use.location, use.root);
        addProvenance(store, lvalue);
        if (primitive.op == BP_OP_RMW && isReferencePut(use, lvalue))
          bp_set_reference_put(engine, store);
        // A store of a loaded value depends on the load, as a plain one does.
        llvm::SmallVector<uint32_t, 2> dataSources;
        if (primitive.op == BP_OP_STORE)
          collectObjectsRead(storedValue(use.root), dataSources);
        for (uint32_t source : dataSources)
          bp_add_guard(engine, store, source);
      }
    }
    if (after)
      addBarrier(after, use.primitive, true, use.location, use.root);
  }

  // ---- Reference counts ----

  // Whether the read-modify-write `use` of `lvalue` (a field of what a
  // pointer `p` points to) is a reference count's put: it subtracts, and
  // its result decides a call that is handed `p` itself (`if
  // (__atomic_sub_fetch(&json->refcount, 1, __ATOMIC_RELEASE) == 0)
  // json_delete(json)`; liburcu's `res = uatomic_sub_return(&ref->refcount,
  // 1); if (res == 0) release(ref)`). A call handed another field of the
  // same memory (`futex_wake_up(&c->futex)` after a countdown) is no put.
  bool isReferencePut(const PrimitiveUse &use, const Expr *lvalue) const {
    StringRef name = bp_primitive_get(use.primitive)->name;
    if ((!name.contains("sub") && !name.contains("dec")) || !lvalue || !parentMap || !function)
      return false;
    const VarDecl *counted = baseLocal(lvalue);
    if (!counted)
      return false;
    const Stmt *current = use.root;
    while (const Stmt *parent = parentMap->getParent(current)) {
      if (const auto *branch = dyn_cast<IfStmt>(parent))
        return branch->getCond() == current &&
               (handsOver(branch->getThen(), counted) ||
                (returns(branch->getThen()) && handsOverAfter(branch, counted)));
      if (const auto *declaration = dyn_cast<DeclStmt>(parent)) {
        const auto *result =
            declaration->isSingleDecl() ? dyn_cast<VarDecl>(declaration->getSingleDecl()) : nullptr;
        return result && testedThenHandedOver(function->getBody(), result, counted);
      }
      if (const auto *assignment = dyn_cast<BinaryOperator>(parent);
          assignment && assignment->getOpcode() == BO_Assign) {
        const VarDecl *result = localOf(assignment->getLHS());
        return assignment->getRHS()->IgnoreParenImpCasts() == current && result &&
               testedThenHandedOver(function->getBody(), result, counted);
      }
      if (!isa<Expr>(parent))
        return false;
      current = parent;
    }
    return false;
  }

  // Whether `statement` ends in a return (`if (dec(&p->refs) != 0) return;`).
  static bool returns(const Stmt *statement) {
    if (const auto *block = dyn_cast_or_null<CompoundStmt>(statement))
      statement = block->body_empty() ? nullptr : block->body_back();
    return isa_and_nonnull<ReturnStmt>(statement);
  }

  // Whether a statement after `branch` in its block hands `counted` over.
  bool handsOverAfter(const Stmt *branch, const VarDecl *counted) const {
    const auto *block = dyn_cast_or_null<CompoundStmt>(parentMap->getParent(branch));
    if (!block)
      return false;
    bool after = false;
    for (const Stmt *statement : block->body()) {
      if (after && handsOver(statement, counted))
        return true;
      after = after || statement == branch;
    }
    return false;
  }

  // An `if` in `statement` whose condition reads `result` and whose branch
  // hands `counted` over.
  static bool testedThenHandedOver(const Stmt *statement, const VarDecl *result,
                                   const VarDecl *counted) {
    if (!statement)
      return false;
    if (const auto *branch = dyn_cast<IfStmt>(statement);
        branch && mentions(branch->getCond(), result, false) &&
        handsOver(branch->getThen(), counted))
      return true;
    for (const Stmt *child : statement->children())
      if (testedThenHandedOver(child, result, counted))
        return true;
    return false;
  }

  // A call in `statement` with an argument that is `counted` (through casts
  // and pointer arithmetic, not one of its fields).
  static bool handsOver(const Stmt *statement, const VarDecl *counted) {
    if (!statement)
      return false;
    if (const auto *call = dyn_cast<CallExpr>(statement))
      for (const Expr *argument : call->arguments())
        if (mentions(argument, counted, true))
          return true;
    for (const Stmt *child : statement->children())
      if (handsOver(child, counted))
        return true;
    return false;
  }

  static bool mentions(const Stmt *statement, const VarDecl *variable, bool skipFields) {
    if (!statement || (skipFields && isa<MemberExpr>(statement)))
      return false;
    if (const auto *reference = dyn_cast<DeclRefExpr>(statement))
      return reference->getDecl() == variable;
    for (const Stmt *child : statement->children())
      if (mentions(child, variable, skipFields))
        return true;
    return false;
  }

  // The value a store primitive writes: its call's second argument
  // (ck_pr_store_uint(&x, v)), an atomic builtin's value (__atomic_store_n).
  static const Expr *storedValue(const Stmt *root) {
    if (const auto *expression = dyn_cast<Expr>(root))
      root = expression->IgnoreParenCasts();
    if (const auto *call = dyn_cast<CallExpr>(root))
      return call->getNumArgs() > 1 ? call->getArg(1) : nullptr;
    if (const auto *atomic = dyn_cast<AtomicExpr>(root))
      return atomic->getNumSubExprs() > 2 ? atomic->getVal1() : nullptr;
    return nullptr;
  }

  // A call or atomic builtin written directly (not through a known macro).
  std::optional<PrimitiveUse> directUse(const Stmt *statement) const {
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
    int primitive = bp_primitive_find(name.data(), name.size());
    if (primitive == BP_NO_PRIMITIVE)
      return std::nullopt;
    PrimitiveUse use;
    use.primitive = primitive;
    use.root = statement;
    use.text = CharSourceRange::getTokenRange(statement->getSourceRange());
    use.location = location;
    return use;
  }

  void lowerElement(const Stmt *statement) {
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
      inlineCall(cast<CallExpr>(statement), callee);
      return;
    }
    lowerPlain(statement, marking);
  }

  bool isMarkedType(QualType type) const {
    return type.isVolatileQualified() || type->isAtomicType();
  }

  void lowerAccess(const Expr *lvalue, bp_access_kind kind, int marking, SourceLocation location,
                   const Stmt *statement) {
    std::optional<SharedObject> object = nameObject(lvalue);
    if (!object) {
      if (const VarDecl *base = baseLocal(lvalue);
          kind == BP_ACCESS_STORE && base && freshLocals.count(base))
        initialisedPrivately = true;
      return;
    }
    bool atomic = lvalue->getType()->isAtomicType();
    // A plain access to an _Atomic object is sequentially consistent.
    if (atomic && kind == BP_ACCESS_STORE)
      addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, statement);
    bool marked = marking != BP_NO_PRIMITIVE || isMarkedType(lvalue->getType());
    llvm::SmallVector<uint32_t, 2> dataSources;
    // A store of a value computed from a load depends on it (a data
    // dependency), as a store under a check of it does.
    if (const auto *assignment = dyn_cast<BinaryOperator>(statement);
        kind == BP_ACCESS_STORE && assignment && assignment->getOpcode() == BO_Assign)
      collectObjectsRead(assignment->getRHS(), dataSources);
    auto emit = [&](const SharedObject &accessed) {
      uint32_t event = addAccess(accessed, kind, marked, marking, location, statement);
      addProvenance(event, lvalue);
      for (uint32_t source : dataSources)
        bp_add_guard(engine, event, source);
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
    if (kind == BP_ACCESS_STORE)
      if (const VarDecl *base = baseLocal(lvalue);
          base && allocatedLocals.count(base) && storePublishedHere.count(allocation(base)))
        bp_set_after_publication(engine, event);
    if (!marked)
      recordAccessText(event, lvalue, statement, kind);
    if (atomic)
      addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, statement);
  }

  void lowerPlain(const Stmt *statement, int marking) {
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
};

// The main file and a hash of the predefined buffer, which holds the
// command line's -D and -U: "@<main file>#<hash>".
std::string unitIdentity(const SourceManager &sources) {
  std::string identity = "@";
  if (OptionalFileEntryRef main = sources.getFileEntryRefForID(sources.getMainFileID()))
    identity += main->getName().str();
  for (unsigned i = 0; i < sources.local_sloc_entry_size(); i++) {
    const SrcMgr::SLocEntry &entry = sources.getLocalSLocEntry(i);
    if (!entry.isFile())
      continue;
    const SrcMgr::ContentCache &content = entry.getFile().getContentCache();
    if (content.OrigEntry || !content.getBufferIfLoaded())
      continue;
    llvm::StringRef name = content.getBufferIfLoaded()->getBufferIdentifier();
    if (name == "<built-in>") {
      identity +=
          "#" + llvm::utohexstr(llvm::xxh3_64bits(content.getBufferIfLoaded()->getBuffer()));
      break;
    }
  }
  return identity;
}

// Functions the translation unit calls directly.
void collectCallees(const Stmt *statement, llvm::SmallPtrSetImpl<const FunctionDecl *> &callees) {
  if (!statement)
    return;
  if (const auto *call = dyn_cast<CallExpr>(statement)) {
    if (const FunctionDecl *callee = call->getDirectCallee())
      callees.insert(callee->getCanonicalDecl());
  }
  for (const Stmt *child : statement->children())
    collectCallees(child, callees);
}

// Functions whose address a body takes (a thread's start routine handed to
// pthread_create(), a callback): other threads may run them.
void collectAddressTaken(const Stmt *statement,
                         llvm::SmallPtrSetImpl<const FunctionDecl *> &taken) {
  if (!statement)
    return;
  if (const auto *call = dyn_cast<CallExpr>(statement)) {
    for (const Expr *argument : call->arguments())
      collectAddressTaken(argument, taken);
    return; // the callee itself is called, not taken
  }
  if (const auto *reference = dyn_cast<DeclRefExpr>(statement))
    if (const auto *function = dyn_cast<FunctionDecl>(reference->getDecl()))
      taken.insert(function->getCanonicalDecl());
  for (const Stmt *child : statement->children())
    collectAddressTaken(child, taken);
}

} // namespace

FileMap lowerTranslationUnit(ASTContext &context, bp_engine *engine,
                             llvm::ArrayRef<EmptyBarrier> emptyBarriers, bool unitAlone) {
  FileMap files;
  SourceManager &sources = context.getSourceManager();
  llvm::SmallVector<const FunctionDecl *, 32> defined;
  llvm::SmallPtrSet<const FunctionDecl *, 32> called;
  UnitState unit;
  unit.barrierMacroUses = emptyBarriers;
  unit.identity = unitIdentity(sources);
  for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
    const auto *function = dyn_cast<FunctionDecl>(declaration);
    if (!function || !function->doesThisDeclarationHaveABody() ||
        !sources.isWrittenInMainFile(sources.getExpansionLoc(function->getLocation())))
      continue;
    defined.push_back(function);
    collectCallees(function->getBody(), called);
  }
  // The unit alone (the plugin): a function that uses no primitive, volatile
  // or _Atomic access, directly or in what it calls, and that no thread can
  // start (its address is never taken), has no barrier and nothing that
  // links it to another side: it pairs with nothing, and lowering it is
  // wasted work (a file with no barrier costs nothing). A program (check,
  // site files) lowers every function: another unit may start it.
  llvm::SmallPtrSet<const FunctionDecl *, 32> addressTaken;
  bool annotated =
      sources.getBufferData(sources.getMainFileID()).contains_insensitive("barrierpair");
  if (unitAlone && !annotated) {
    for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
      if (const auto *function = dyn_cast<FunctionDecl>(declaration);
          function && function->doesThisDeclarationHaveABody())
        collectAddressTaken(function->getBody(), addressTaken);
      else if (const auto *variable = dyn_cast<VarDecl>(declaration);
               variable && variable->hasInit())
        collectAddressTaken(variable->getInit(), addressTaken);
    }
  }
  for (const FunctionDecl *function : defined) {
    // A function no other file can call, called here and lowered at its
    // calls, is a helper: its callers run it.
    FunctionLowering lowering(context, engine, files, unit);
    bool uses = lowering.calleeUsesPrimitives(function);
    if (!function->isExternallyVisible() && called.count(function->getCanonicalDecl()) && uses)
      continue;
    if (unitAlone && !annotated && !uses && !addressTaken.count(function->getCanonicalDecl()))
      continue;
    lowering.lower(function);
  }
  scanAnnotations(sources, files, engine);
  return files;
}

SourceLocation toSourceLocation(const SourceManager &sources, const FileMap &files,
                                bp_location location) {
  auto file = files.find(location.file);
  if (location.line == 0 || file == files.end())
    return SourceLocation();
  return sources.translateLineCol(file->second, location.line, location.column);
}

} // namespace barrierpair
