// Shared objects: the name an lvalue's memory has in the engine (a global,
// a field of a type or of one instance, an array's elements), and the
// objects a value is computed from, which make the guards of a block and the
// sources of an address.
#include "function_lowering.h"

#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"

#include <functional>

namespace barrierpair::lowering {

// ---- What decides that an access runs, or where it goes ----

void FunctionLowering::addUnique(llvm::SmallVectorImpl<uint32_t> &objects, uint32_t object) {
  if (!llvm::is_contained(objects, object))
    objects.push_back(object);
}

uint32_t FunctionLowering::internObject(const SharedObject &object) const {
  return object.pointee ? bp_intern_pointee(engine, object.key.c_str(), object.display.c_str())
                        : bp_intern_object(engine, object.key.c_str(), object.display.c_str());
}

// The shared objects whose values `statement` computes with: the objects
// it loads (plainly, through a marking or an atomic builtin) and the
// sources of the locals it reads.
void FunctionLowering::collectObjectsRead(const Stmt *statement,
                                          llvm::SmallVectorImpl<uint32_t> &objects) const {
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
      if (!variable->hasGlobalStorage()) {
        if (const Expr *value = lastAssignmentBefore(reference, variable))
          collectObjectsRead(value, objects);
        else
          for (uint32_t object : sourcesOf(variable))
            addUnique(objects, object);
      }
    }
  } else if (const auto *call = dyn_cast<CallExpr>(statement)) {
    // A called marking (ck_pr_load_uint(&x)) reads its argument's object.
    int primitive = calledPrimitive(call);
    if (primitive != BP_NO_PRIMITIVE && call->getNumArgs() > 0) {
      bp_op op = bp_primitive_get(primitive)->op;
      if (op == BP_OP_LOAD || bp_op_is_rmw(op) || op == BP_OP_ACCESS)
        if (std::optional<SharedObject> object = nameThroughPointer(call->getArg(0)))
          addUnique(objects, internObject(*object));
    }
    // A helper's value is what its returns read (`if (ring_full(r))`).
    const FunctionDecl *callee = call->getDirectCallee();
    const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    if (definition && definition->hasBody()) {
      for (uint32_t object : returnedObjects(definition))
        addUnique(objects, object);
      // `flag_seen(&flag)` returning `CMM_LOAD_SHARED(*p)` reads `flag`: its
      // parameters bound to this call's arguments (once, not inside an
      // inlined body, whose calls the unbound summary stands for).
      if (!site && call->getNumArgs() && returnsThroughParameters(definition))
        for (uint32_t object : returnedObjectsAt(call, definition))
          addUnique(objects, object);
    }
  }
  for (const Stmt *child : statement->children())
    collectObjectsRead(child, objects);
}

// What a helper's returns read, worked out once per translation unit;
// empty while being worked out, which ends recursion.
const llvm::SmallVector<uint32_t, 2> &
FunctionLowering::returnedObjects(const FunctionDecl *definition) const {
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

const llvm::SmallVector<uint32_t, 2> &
FunctionLowering::returnedObjectsAt(const CallExpr *call, const FunctionDecl *definition) const {
  auto [known, added] = unit.returnedObjectsAt.try_emplace(call);
  if (!added)
    return known->second;
  CallSite at;
  at.caller = this;
  at.call = call;
  FunctionLowering helper(context, engine, files, unit, &at);
  helper.function = definition;
  helper.findMacroUses(definition->getBody());
  helper.collectLocalSources(definition->getBody());
  helper.bindParameters();
  llvm::SmallVector<uint32_t, 2> objects;
  helper.collectReturnedObjects(definition->getBody(), objects);
  return unit.returnedObjectsAt[call] = objects;
}

// Whether a parameter takes part in what the helper's returns read: its
// returns' values, or the checks that choose a constant it returns, name
// one (worked out once per unit).
static bool namesParameter(const Stmt *statement) {
  if (!statement)
    return false;
  if (const auto *reference = dyn_cast<DeclRefExpr>(statement))
    return isa<ParmVarDecl>(reference->getDecl());
  for (const Stmt *child : statement->children())
    if (namesParameter(child))
      return true;
  return false;
}

bool FunctionLowering::returnsThroughParameters(const FunctionDecl *definition) const {
  if (!definition->getNumParams())
    return false;
  auto [known, added] = unit.returnsThroughParameters.try_emplace(definition, false);
  if (!added)
    return known->second;
  bool through = false;
  auto walk = [&](auto &self, const Stmt *statement) -> void {
    if (!statement || through)
      return;
    if (const auto *result = dyn_cast<ReturnStmt>(statement))
      through = namesParameter(result->getRetValue());
    else if (const auto *branch = dyn_cast<IfStmt>(statement);
             branch && (returnsConstant(branch->getThen()) || returnsConstant(branch->getElse())))
      through = namesParameter(branch->getCond());
    for (const Stmt *child : statement->children())
      self(self, child);
  };
  walk(walk, definition->getBody());
  return unit.returnsThroughParameters[definition] = through;
}

// Whether `statement` returns a constant somewhere (`return false;`).
bool FunctionLowering::returnsConstant(const Stmt *statement) const {
  if (!statement || isa<Expr>(statement))
    return false;
  if (const auto *result = dyn_cast<ReturnStmt>(statement))
    return result->getRetValue() && knownValue(result->getRetValue());
  for (const Stmt *child : statement->children())
    if (returnsConstant(child))
      return true;
  return false;
}

void FunctionLowering::collectReturnedObjects(const Stmt *statement,
                                              llvm::SmallVectorImpl<uint32_t> &objects) const {
  if (!statement)
    return;
  if (const auto *result = dyn_cast<ReturnStmt>(statement)) {
    collectObjectsRead(result->getRetValue(), objects);
    return;
  }
  // `if (!CMM_LOAD_SHARED(flag)) return false; ... return true;`: which
  // constant it returns is the check's, so a caller testing it tests the
  // flag.
  if (const auto *branch = dyn_cast<IfStmt>(statement);
      branch && (returnsConstant(branch->getThen()) || returnsConstant(branch->getElse())))
    collectObjectsRead(branch->getCond(), objects);
  for (const Stmt *child : statement->children())
    collectReturnedObjects(child, objects);
}

// Flow-insensitive: a local carries what any of its assignments reads.
// The assignments are gathered once; what they read is worked out when a
// check or an address asks (most locals never matter).
void FunctionLowering::collectLocalSources(const Stmt *body) {
  auto walk = [&](auto &self, const Stmt *statement) -> void {
    if (!statement)
      return;
    noteAssignments(statement);
    for (const Stmt *child : statement->children())
      self(self, child);
  };
  walk(walk, body);
}

// The values a declaration or an assignment gives locals.
void FunctionLowering::noteAssignments(const Stmt *statement) {
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
}

llvm::SmallVector<uint32_t, 2> FunctionLowering::sourcesOf(const VarDecl *variable) const {
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

llvm::SmallVector<uint32_t, 2> FunctionLowering::currentGuards() const {
  llvm::SmallVector<uint32_t, 2> guards;
  if (site)
    guards = site->guards;
  if (currentCfgBlock < blockGuards.size())
    for (uint32_t guard : blockGuards[currentCfgBlock])
      addUnique(guards, guard);
  return guards;
}

// The flag a call before this point left set up on every way (the nearest
// such call that dominates it), or the caller's at the call.
uint32_t FunctionLowering::currentAfterSetUp() const {
  for (auto established = establishedByCalls.rbegin(); established != establishedByCalls.rend();
       ++established)
    if (established->first == loweringBlock ||
        (loweredDominators &&
         loweredDominators->properlyDominates(established->first, loweringBlock)))
      return established->second;
  return site ? site->afterSetUp : BP_NO_OBJECT;
}

std::optional<ValueGuard> FunctionLowering::currentValueGuard() const {
  llvm::SmallVector<ValueGuard, 2> guards = currentValueGuards();
  return guards.empty() ? std::nullopt : std::optional<ValueGuard>(guards.front());
}

// The two nearest tests of loaded values that decide the block being
// lowered runs: its own, then its caller's at the call.
llvm::SmallVector<ValueGuard, 2> FunctionLowering::currentValueGuards() const {
  llvm::SmallVector<ValueGuard, 2> guards;
  if (currentCfgBlock < blockValueGuards.size()) {
    if (blockValueGuards[currentCfgBlock])
      guards.push_back(*blockValueGuards[currentCfgBlock]);
    if (blockOuterValueGuards[currentCfgBlock])
      guards.push_back(*blockOuterValueGuards[currentCfgBlock]);
  }
  if (site)
    for (const ValueGuard &guard : site->valueGuards)
      if (guards.size() < 2)
        guards.push_back(guard);
  return guards;
}

// An expression whose value is what one load read: a plain lvalue, an
// atomic load, or a load primitive (`CMM_LOAD_SHARED(x)`, `uatomic_read(&x)`),
// not a helper's result or a macro that computes with the value.
bool FunctionLowering::isLoadedValue(const Expr *expression) const {
  if (isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr>(expression))
    return true;
  if (const auto *unary = dyn_cast<UnaryOperator>(expression))
    return unary->getOpcode() == UO_Deref;
  const bp_primitive *row = bp_primitive_get(calledPrimitive(expression));
  return row && (row->op == BP_OP_LOAD || row->op == BP_OP_ACCESS);
}

// The one value a local of the body is given (its initialiser or its one
// assignment), when nothing else writes it, increments it or takes its
// address; nullptr otherwise.
const Expr *FunctionLowering::onlyValue(const VarDecl *local) const {
  auto [known, added] = onlyValues.try_emplace(local, nullptr);
  if (!added || !loweredBody)
    return known->second;
  auto assignments = localAssignments.find(local);
  if (assignments == localAssignments.end() || assignments->second.size() != 1)
    return nullptr;
  unsigned writes = 0;
  bool escapes = false;
  countWrites(local, writes, escapes);
  if (escapes || writes != (local->getInit() ? 0u : 1u))
    return nullptr;
  return onlyValues[local] = assignments->second.front();
}

// A test of one loaded value against zero: the load, and whether the test
// holds when it read zero (`!CMM_LOAD_SHARED(x)`, `x == NULL`,
// `caa_unlikely(x)`), or of some bits of it against zero (`load(&x) &
// FREE`, `!(x & MASK)`: `bits`), directly or through a local or an inlined
// helper's parameter that holds it (testedLoad). A value computed otherwise
// from the load is not the load's.
std::optional<FunctionLowering::ZeroTest> FunctionLowering::zeroTest(const Expr *condition) const {
  const Expr *tested = condition->IgnoreParenImpCasts();
  bool holdsWhenZero = false;
  uint64_t bits = 0;
  for (;;) {
    if (const auto *unary = dyn_cast<UnaryOperator>(tested);
        unary && unary->getOpcode() == UO_LNot) {
      holdsWhenZero = !holdsWhenZero;
      tested = unary->getSubExpr()->IgnoreParenImpCasts();
    } else if (const auto *binary = dyn_cast<BinaryOperator>(tested);
               binary && binary->isEqualityOp()) {
      std::optional<int64_t> right = knownValue(binary->getRHS());
      std::optional<int64_t> left = right ? std::nullopt : knownValue(binary->getLHS());
      if ((right && *right != 0) || (left && *left != 0) || (!right && !left))
        return std::nullopt;
      if (binary->getOpcode() == BO_EQ)
        holdsWhenZero = !holdsWhenZero;
      tested = (right ? binary->getLHS() : binary->getRHS())->IgnoreParenImpCasts();
    } else if (const auto *call = dyn_cast<CallExpr>(tested);
               call && call->getBuiltinCallee() == Builtin::BI__builtin_expect) {
      tested = call->getArg(0)->IgnoreParenImpCasts();
    } else if (const auto *masking = dyn_cast<BinaryOperator>(tested);
               masking && masking->getOpcode() == BO_And && !bits) {
      auto split = constantOperand(masking);
      if (!split || split->second == 0)
        return std::nullopt;
      bits = withinWidth(static_cast<uint64_t>(split->second), split->first->getType());
      tested = split->first->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  const VarDecl *variable = localOf(tested);
  std::optional<ZeroTest> test = testedLoad(tested, holdsWhenZero, bits);
  if (test)
    test->variable = variable;
  return test;
}

// A store's value that adds a positive constant to the local or parameter
// whose bits the current value guard found non-zero, in a store of the
// guard's own object (a nested rcu_read_lock()'s `tmp + URCU_GP_COUNT`
// under `if (!(tmp & URCU_GP_CTR_NEST_MASK))`'s other branch).
bool FunctionLowering::incrementsGuardedValue(const Expr *value, uint32_t object) const {
  std::optional<ValueGuard> guard = currentValueGuard();
  if (!value || !guard || !guard->variable || !guard->bits || guard->whenZero ||
      guard->object != object)
    return false;
  const auto *sum = dyn_cast<BinaryOperator>(value->IgnoreParenImpCasts());
  auto split = sum && sum->getOpcode() == BO_Add ? constantOperand(sum) : std::nullopt;
  return split && split->second > 0 && localOf(split->first) == guard->variable;
}

// The load whose value `tested` is, for zeroTest. A local written once, by
// a load (`state = ck_pr_load_uint(&r->state); if (state & FREE)
// continue;`), is that load's value; so is a parameter of an inlined body
// that nothing writes, bound to a load in the caller
// (`read_lock_update(self, _CMM_LOAD_SHARED(self->ctr))`).
std::optional<FunctionLowering::ZeroTest>
FunctionLowering::testedLoad(const Expr *tested, bool holdsWhenZero, uint64_t bits) const {
  if (const VarDecl *local = localOf(tested)) {
    if (const auto *parameter = dyn_cast<ParmVarDecl>(local)) {
      unsigned writes = 0;
      bool escapes = false;
      countWrites(parameter, writes, escapes);
      auto [argument, caller] = argumentOf(parameter);
      if (writes || escapes || !argument || !caller)
        return std::nullopt;
      return caller->testedLoad(argument->IgnoreParenImpCasts(), holdsWhenZero, bits);
    }
    const Expr *value = onlyValue(local);
    // a local given other values elsewhere, read here right after one
    // (`dst = __sk_dst_get(sk); if (!dst) return;`, `dst` reused later)
    if (!value)
      value = lastAssignmentBefore(tested, local);
    if (!value)
      return std::nullopt;
    tested = value->IgnoreParenImpCasts();
  }
  // a statement expression's value, a local it declares with its one
  // value (the kernel's rcu_dereference_check(): `({ typeof(*p) *local =
  // (typeof(*p) *)READ_ONCE(p); ...; (typeof(*p) *)(local); })`)
  if (const auto *statements = dyn_cast<StmtExpr>(tested); statements && !isLoadedValue(tested)) {
    const CompoundStmt *body = statements->getSubStmt();
    const auto *last = body->body_empty() ? nullptr : dyn_cast<Expr>(body->body_back());
    const auto *reference = last ? dyn_cast<DeclRefExpr>(last->IgnoreParenCasts()) : nullptr;
    const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
    if (!variable || !variable->hasLocalStorage() || !variable->getInit())
      return std::nullopt;
    bool declared = false;
    for (const Stmt *statement : body->body()) {
      const auto *declarations = dyn_cast<DeclStmt>(statement);
      if (declarations && llvm::is_contained(declarations->decls(), variable))
        declared = true;
      else if (statement != body->body_back() && assigns(statement, variable))
        return std::nullopt;
    }
    if (!declared)
      return std::nullopt;
    return testedLoad(variable->getInit()->IgnoreParenCasts(), holdsWhenZero, bits);
  }
  // a helper whose one statement returns a load (`__sk_dst_get(sk)`:
  // `return rcu_dereference_check(sk->sk_dst_cache, ...);`), read with
  // its parameters bound to this call's arguments
  if (const auto *call = dyn_cast<CallExpr>(tested); call && !isLoadedValue(call)) {
    const FunctionDecl *callee = call->getDirectCallee();
    const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    const auto *body = definition ? dyn_cast_or_null<CompoundStmt>(definition->getBody()) : nullptr;
    const auto *result =
        body && body->size() == 1 ? dyn_cast<ReturnStmt>(body->body_front()) : nullptr;
    // only a value that may be one load is worth binding the helper for
    const Expr *returned = result ? result->getRetValue() : nullptr;
    const Expr *plain = returned ? returned->IgnoreParenCasts() : nullptr;
    const auto *unary = dyn_cast_or_null<UnaryOperator>(plain);
    if (!plain || (unary && unary->getOpcode() != UO_Deref) ||
        (!unary && !isa<MemberExpr, DeclRefExpr, ArraySubscriptExpr, StmtExpr, CallExpr>(plain)))
      return std::nullopt;
    unsigned depth = 0;
    for (const FunctionLowering *outer = this; outer->site; outer = outer->site->caller)
      depth++;
    if (depth > 4)
      return std::nullopt;
    CallSite at;
    at.caller = this;
    at.call = call;
    FunctionLowering helper(context, engine, files, unit, &at);
    helper.function = definition;
    helper.findMacroUses(body);
    helper.bindParameters();
    return helper.testedLoad(returned->IgnoreParenImpCasts(), holdsWhenZero, bits);
  }
  if (!isLoadedValue(tested))
    return std::nullopt;
  // The load's own object comes first, then those its address is read from.
  // A tested lvalue (`flag`, `_CMM_LOAD_SHARED(flag)`, which is
  // `*(volatile int *)&flag`) is the load: its object is the one it names.
  llvm::SmallVector<uint32_t, 2> objects;
  if (tested->isGLValue())
    if (std::optional<SharedObject> object = nameObject(tested))
      addUnique(objects, internObject(*object));
  collectObjectsRead(tested, objects);
  if (objects.empty())
    return std::nullopt;
  return ZeroTest{objects[0], tested, bits, holdsWhenZero, nullptr};
}

// A block is guarded by a branch on a shared value when the branch
// dominates it and one way out of the branch never reaches it (an `if`
// around it, a spin loop or an early return before it): the block runs
// only for some values of the objects the condition reads. A path from
// one of the test's successors that leaves the blocks it dominates never
// comes back to them without passing the test: each test's work is its own
// region of the CFG (sqlite3's interpreter loop has thousands of blocks
// and of tests). Blocks the entry does not reach are never lowered.
void FunctionLowering::collectBlockGuards(CFG &cfg, CFGDomTree &dominators) {
  unsigned count = cfg.getNumBlockIDs();
  blockGuards.assign(count, {});
  blockValueGuards.assign(count, std::nullopt);
  blockOuterValueGuards.assign(count, std::nullopt);
  llvm::BitVector inRegion(count);
  llvm::SmallVector<const CFGBlock *, 16> region;
  for (const CFGBlock *branch : cfg) {
    const Stmt *condition = branch->getTerminatorCondition();
    if (!condition || branch->succ_size() < 2)
      continue;
    llvm::SmallVector<uint32_t, 2> objects;
    collectObjectsRead(condition, objects);
    if (objects.empty())
      continue;
    llvm::DomTreeNodeBase<CFGBlock> *tree =
        dominators.getBase().getNode(const_cast<CFGBlock *>(branch));
    if (!tree)
      continue;
    region.clear();
    llvm::SmallVector<llvm::DomTreeNodeBase<CFGBlock> *, 16> work{tree};
    while (!work.empty()) {
      llvm::DomTreeNodeBase<CFGBlock> *node = work.pop_back_val();
      region.push_back(node->getBlock());
      inRegion.set(node->getBlock()->getBlockID());
      work.append(node->begin(), node->end());
    }
    std::vector<llvm::BitVector> reached;
    for (const CFGBlock::AdjacentBlock &successor : branch->succs()) {
      if (const CFGBlock *start = successor.getReachableBlock())
        reached.push_back(reachableAvoiding(start, branch, inRegion));
    }
    std::optional<ZeroTest> test;
    const auto *expression = dyn_cast<Expr>(condition);
    // the block of `A || B` that tests B branches on B alone (clang's CFG
    // gives it the whole `A || B`, or the `if` around it, as its condition)
    while (const auto *logical =
               expression ? dyn_cast<BinaryOperator>(expression->IgnoreParens()) : nullptr) {
      if (!logical->isLogicalOp())
        break;
      expression = logical->getRHS();
    }
    if (expression && branch->succ_size() == 2 && reached.size() == 2)
      test = zeroTest(expression);
    for (const CFGBlock *block : region) {
      if (block == branch)
        continue;
      bool someWayMisses = llvm::any_of(
          reached, [&](const llvm::BitVector &set) { return !set.test(block->getBlockID()); });
      if (someWayMisses)
        for (uint32_t object : objects)
          addUnique(blockGuards[block->getBlockID()], object);
      // Reached from one way of a test of a loaded value only: the block
      // runs only for the values that way takes. The nearest such test
      // (one the others dominate) is kept.
      bool fromHolding = reached[0].test(block->getBlockID()),
           fromFailing = reached.size() == 2 && reached[1].test(block->getBlockID());
      std::optional<ValueGuard> &kept = blockValueGuards[block->getBlockID()];
      std::optional<ValueGuard> &outer = blockOuterValueGuards[block->getBlockID()];
      if (!test || fromHolding == fromFailing)
        continue;
      ValueGuard guard{test->object,   eventLocation(test->load->getBeginLoc()),
                       test->bits,     fromHolding == test->holdsWhenZero,
                       test->variable, branch};
      if (!kept || dominators.dominates(kept->branch, branch)) {
        outer = kept;
        kept = guard;
      } else if (!outer || dominators.dominates(outer->branch, branch)) {
        outer = guard;
      }
    }
    for (const CFGBlock *block : region)
      inRegion.reset(block->getBlockID());
  }
}

// A flag this body establishes: every way out of it either stored the
// flag with a release or left a test of the flag by the way that never
// stores it, where the test's other way does, and one such test reads the
// flag an acquire loaded. A lazy set-up checked on each use (the kernel's
// check_init_srcu_struct(): `if (ready(smp_load_acquire(&flag))) return;`,
// then under the lock a second check, else the set-up that ends with
// `smp_store_release(&flag, 0)`) leaves its caller running after the
// set-up, as a check of the flag would. The accesses of the set-up (under
// a test of the flag, where it is not yet established) are marked for the
// engine: they happen before what runs after a call that established it.
void FunctionLowering::establishedFlags(const CFG &cfg, llvm::ArrayRef<const CFGBlock *> order) {
  establishedAtExit.clear();
  llvm::SmallVector<uint32_t, 4> stored;
  for (const llvm::SmallVector<uint32_t, 2> &objects : storedInBlock)
    for (uint32_t object : objects)
      addUnique(stored, object);
  for (uint32_t flag : stored) {
    llvm::BitVector settingUp = setUpBlocks(cfg, order, flag);
    if (settingUp.empty())
      continue;
    establishedAtExit.push_back(flag);
    for (unsigned id : settingUp.set_bits())
      for (size_t event = blockEvents[id].first; event < blockEvents[id].second; event++)
        bp_set_set_up_flag(engine, uint32_t(event), flag);
  }
}

// Where `flag` is established on every way out: the blocks that set it up
// (guarded by a test of it, run before it is established); empty where it
// is not.
llvm::BitVector FunctionLowering::setUpBlocks(const CFG &cfg,
                                              llvm::ArrayRef<const CFGBlock *> order,
                                              uint32_t flag) const {
  unsigned count = cfg.getNumBlockIDs();
  llvm::BitVector stores(count);
  for (unsigned id = 0; id < count && id < storedInBlock.size(); id++)
    if (llvm::is_contained(storedInBlock[id], flag))
      stores.set(id);
  llvm::BitVector everywhere(count, true);
  auto reachesStore = [&](const CFGBlock *start, const CFGBlock *test) {
    llvm::BitVector reached = reachableAvoiding(start, test, everywhere);
    return reached.anyCommon(stores);
  };
  // the blocks that load the flag with an acquire
  llvm::SmallVector<const CFGBlock *, 2> acquiring;
  for (const CFGBlock *block : order)
    if (llvm::is_contained(acquiredInBlock[block->getBlockID()], flag))
      acquiring.push_back(block);
  if (acquiring.empty())
    return {};
  // the ways out of tests of the flag that lead to no store of it
  llvm::DenseSet<std::pair<const CFGBlock *, const CFGBlock *>> ready;
  bool acquired = false;
  for (const CFGBlock *test : order) {
    const Stmt *condition = test->getTerminatorCondition();
    if (!condition || test->succ_size() != 2)
      continue;
    llvm::SmallVector<uint32_t, 2> objects;
    collectObjectsRead(condition, objects);
    if (!llvm::is_contained(objects, flag))
      continue;
    const CFGBlock *first = test->succ_begin()->getReachableBlock(),
                   *second = std::next(test->succ_begin())->getReachableBlock();
    if (!first || !second)
      continue;
    bool firstStores = reachesStore(first, test), secondStores = reachesStore(second, test);
    if (firstStores == secondStores)
      continue;
    ready.insert({test, firstStores ? second : first});
    // the acquire in the test's block or one before it (a macro's own
    // branches, such as the kernel's compile-time asserts, split the test's
    // expression into several blocks)
    acquired = acquired || llvm::any_of(acquiring, [&](const CFGBlock *block) {
                 return loweredDominators->dominates(block, test);
               });
  }
  if (!acquired)
    return {};
  // must hold on every way: start from "established" everywhere but the
  // entry and take it away until nothing changes
  const CFGBlock *entry = &cfg.getEntry();
  auto arrives = [&](const CFGBlock *block, const llvm::BitVector &established) {
    if (block == entry)
      return false;
    for (const CFGBlock::AdjacentBlock &predecessor : block->preds()) {
      const CFGBlock *from = predecessor.getReachableBlock();
      if (from && !established.test(from->getBlockID()) && !ready.count({from, block}))
        return false;
    }
    return true;
  };
  llvm::BitVector established(count, true);
  for (bool changed = true; changed;) {
    changed = false;
    for (const CFGBlock *block : order) {
      bool holds = stores.test(block->getBlockID()) || arrives(block, established);
      if (!holds && established.test(block->getBlockID())) {
        established.reset(block->getBlockID());
        changed = true;
      }
    }
  }
  if (!established.test(cfg.getExit().getBlockID()))
    return {};
  llvm::BitVector settingUp(count);
  for (const CFGBlock *block : order) {
    unsigned id = block->getBlockID();
    if (id < blockGuards.size() && llvm::is_contained(blockGuards[id], flag) &&
        !arrives(block, established))
      settingUp.set(id);
  }
  return settingUp;
}

// The blocks of `region` reachable from `start` without passing `avoided`.
llvm::BitVector FunctionLowering::reachableAvoiding(const CFGBlock *start, const CFGBlock *avoided,
                                                    const llvm::BitVector &region) {
  llvm::BitVector seen(region.size());
  if (start == avoided || !region.test(start->getBlockID()))
    return seen;
  std::vector<const CFGBlock *> work{start};
  seen.set(start->getBlockID());
  while (!work.empty()) {
    const CFGBlock *block = work.back();
    work.pop_back();
    for (const CFGBlock::AdjacentBlock &successor : block->succs()) {
      const CFGBlock *next = successor.getReachableBlock();
      if (next && next != avoided && region.test(next->getBlockID()) &&
          !seen.test(next->getBlockID())) {
        seen.set(next->getBlockID());
        work.push_back(next);
      }
    }
  }
  return seen;
}

constexpr unsigned LastAssignmentReach = 32;

// The local `statement` itself assigns (declares, assigns, increments or
// takes the address of), or null.
static const VarDecl *assignedHere(const Stmt *statement) {
  const Expr *target = nullptr;
  if (const auto *binary = dyn_cast<BinaryOperator>(statement); binary && binary->isAssignmentOp())
    target = binary->getLHS();
  else if (const auto *unary = dyn_cast<UnaryOperator>(statement);
           unary && (unary->isIncrementDecrementOp() || unary->getOpcode() == UO_AddrOf))
    target = unary->getSubExpr();
  const auto *reference = target ? dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()) : nullptr;
  return reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
}

// Whether `statement` assigns `variable` anywhere in it. The statements
// that do are found once for the body, each assignment marking its
// ancestors: asking each earlier statement again walked it again, for
// every use of every local.
bool FunctionLowering::assigns(const Stmt *statement, const VarDecl *variable) const {
  ParentMap *map = parents();
  if (!statement)
    return false;
  if (!loweredBody || !map) {
    // text written after lowering, with the function's parents only
    if (assignedHere(statement) == variable)
      return true;
    if (const auto *declarations = dyn_cast<DeclStmt>(statement))
      for (const Decl *declaration : declarations->decls())
        if (declaration == variable)
          return true;
    for (const Stmt *child : statement->children())
      if (assigns(child, variable))
        return true;
    return false;
  }
  if (!assigningStatements) {
    assigningStatements.emplace();
    auto mark = [&](const Stmt *at, const VarDecl *assigned) {
      llvm::DenseSet<const Stmt *> &statements = (*assigningStatements)[assigned];
      for (; at && statements.insert(at).second; at = map->getParent(at))
        ;
    };
    llvm::SmallVector<const Stmt *, 64> work{loweredBody};
    while (!work.empty()) {
      const Stmt *current = work.pop_back_val();
      if (const auto *declarations = dyn_cast<DeclStmt>(current)) {
        for (const Decl *declaration : declarations->decls())
          if (const auto *declared = dyn_cast<VarDecl>(declaration))
            mark(current, declared);
      } else if (const VarDecl *assigned = assignedHere(current)) {
        mark(current, assigned);
      }
      for (const Stmt *child : current->children())
        if (child)
          work.push_back(child);
    }
  }
  auto found = assigningStatements->find(variable);
  return found != assigningStatements->end() && found->second.contains(statement);
}

// The value that the last assignment of local `variable` before `use`
// gives it on every way there, where the code's structure shows one: the
// nearest earlier statement of an enclosing block that assigns the whole
// variable (`entry = rcu_dereference(gp);` or its declaration), with no
// statement between that may assign it, and no loop on the way out (its
// back edge brings other values) nor label between (a `goto` or a `case`
// may come in there). Null when there is none: the variable carries what
// all its assignments read (sourcesOf).
const Expr *FunctionLowering::lastAssignmentBefore(const Stmt *use, const VarDecl *variable) const {
  ParentMap *map = parents();
  if (!map)
    return nullptr;
  const Stmt *current = use;
  for (const Stmt *parent = map->getParent(current); parent;
       current = parent, parent = map->getParent(current)) {
    if (isa<ForStmt, WhileStmt, DoStmt, LabelStmt, SwitchCase>(parent))
      return nullptr;
    const auto *block = dyn_cast<CompoundStmt>(parent);
    if (!block)
      continue;
    const Stmt *const *at = llvm::find(block->body(), current);
    // a bound on the statements looked at, for the interpreter loops of a
    // sqlite3: beyond it, what all the assignments read
    for (unsigned looked = 0; at != block->body_begin(); looked++) {
      if (looked == LastAssignmentReach)
        return nullptr;
      const Stmt *earlier = *--at;
      if (isa<LabelStmt, SwitchCase>(earlier))
        return nullptr;
      if (const auto *declarations = dyn_cast<DeclStmt>(earlier);
          declarations && declarations->isSingleDecl() && declarations->getSingleDecl() == variable)
        return variable->getInit();
      if (const auto *binary = dyn_cast<BinaryOperator>(earlier);
          binary && binary->getOpcode() == BO_Assign && !assigns(binary->getRHS(), variable))
        if (const auto *target = dyn_cast<DeclRefExpr>(binary->getLHS()->IgnoreParenImpCasts());
            target && target->getDecl() == variable)
          return binary->getRHS();
      if (assigns(earlier, variable))
        return nullptr;
    }
  }
  return nullptr;
}

// The objects an lvalue's address is computed from: `p->field` with
// p = rcu_dereference(gp), `slots[tail]`.
void FunctionLowering::collectAddressSources(const Expr *lvalue,
                                             llvm::SmallVectorImpl<uint32_t> &objects) const {
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

std::optional<SharedObject> FunctionLowering::nameObject(const Expr *expression) const {
  expression = expression->IgnoreParens();
  if (const auto *unary = dyn_cast<UnaryOperator>(expression)) {
    if (unary->getOpcode() != UO_Deref)
      return std::nullopt;
    return nameDereferenced(unary->getSubExpr());
  }
  if (const auto *cast = dyn_cast<CastExpr>(expression)) {
    if (cast->getCastKind() == CK_NoOp || cast->getCastKind() == CK_LValueBitCast)
      return nameObject(cast->getSubExpr());
    return std::nullopt;
  }
  if (const auto *reference = dyn_cast<DeclRefExpr>(expression)) {
    const auto *variable = dyn_cast<VarDecl>(reference->getDecl());
    if (!variable || !variable->hasGlobalStorage())
      return std::nullopt;
    return nameGlobal(variable);
  }
  if (const auto *member = dyn_cast<MemberExpr>(expression)) {
    // A field of an unnamed structure or union in another is that one's
    // own (`nh->nh_grp` of `struct nexthop`'s anonymous union), as C names
    // it; clang's AST goes through the unnamed member.
    const Expr *container = member->getBase();
    bool arrow = member->isArrow();
    while (!arrow) {
      const auto *unnamed = dyn_cast<MemberExpr>(container->IgnoreParens());
      const auto *field = unnamed ? dyn_cast<FieldDecl>(unnamed->getMemberDecl()) : nullptr;
      if (!field || !field->isAnonymousStructOrUnion())
        break;
      container = unnamed->getBase();
      arrow = unnamed->isArrow();
    }
    if (isUnshared(container, arrow) || (arrow && pointsToPrivateLocal(container)))
      return std::nullopt;
    const auto *field = dyn_cast<FieldDecl>(member->getMemberDecl());
    if (!field)
      return std::nullopt;
    const FieldNames &names = fieldNames(field);
    if (names.key.empty())
      return std::nullopt;
    const std::string &display = names.display, &key = names.key;
    // A field of a global reached with `.` is that variable's instance:
    // the engine keeps it apart from other instances of the type unless
    // the program also reaches the field through a pointer.
    std::optional<SharedObject> base;
    if (!arrow)
      base = nameObject(container);
    else if (auto [argument, caller] = argumentOf(container); argument)
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

// The variable `expression` (an lvalue, or a pointer's value) starts from:
// through fields, elements, `*`, `&`, pointer arithmetic, the last value of
// a statement expression (container_of()), the pointer an atomic primitive
// read its value from (`old = xchg(&tail->p, node)`), a local that is given
// one value only (when that has a root) and the parameters of inlined calls.
// None for a call's result or a value loaded some other way.
// The expression an lvalue or pointer is reached through, one step down
// (`p->a.b` to `p->a`, `&x[i]` to `x`, a statement expression to its
// value); null where `expression` is none of these. Sets `stop` where it
// is an operator that leaves the memory it is given (`!p`, `-i`).
static const Expr *baseStep(const Expr *expression, bool &stop) {
  stop = false;
  if (const auto *member = dyn_cast<MemberExpr>(expression))
    return member->getBase();
  if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(expression))
    return subscript->getBase();
  if (const auto *unary = dyn_cast<UnaryOperator>(expression)) {
    UnaryOperatorKind opcode = unary->getOpcode();
    stop = opcode != UO_Deref && opcode != UO_AddrOf && opcode != UO_Extension;
    return stop ? nullptr : unary->getSubExpr();
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(expression)) {
    stop = !binary->isAdditiveOp() || !binary->getLHS()->getType()->isPointerType();
    return stop ? nullptr : binary->getLHS();
  }
  if (const auto *statements = dyn_cast<StmtExpr>(expression)) {
    const CompoundStmt *body = statements->getSubStmt();
    stop = body->body_empty() || !isa<Expr>(body->body_back());
    return stop ? nullptr : cast<Expr>(body->body_back());
  }
  if (const auto *atomic = dyn_cast<AtomicExpr>(expression))
    return atomic->getPtr();
  return nullptr;
}

std::optional<uint32_t> FunctionLowering::rootOf(const Expr *expression, unsigned depth) const {
  for (; expression && depth < 32; depth++) {
    expression = expression->IgnoreParenCasts();
    bool stop = false;
    if (const Expr *base = baseStep(expression, stop)) {
      expression = base;
    } else if (stop) {
      return std::nullopt;
    } else if (const auto *call = dyn_cast<CallExpr>(expression)) {
      // what an atomic primitive returns was read from its first argument
      // (also the helper call a primitive's macro expands to)
      int primitive = calledPrimitive(call);
      if (primitive == BP_NO_PRIMITIVE)
        if (std::optional<MacroHit> hit = outermostKnownMacro(call->getBeginLoc()))
          primitive = hit->primitive;
      const bp_primitive *row = bp_primitive_get(primitive);
      std::optional<unsigned> parameter;
      if (!row && call->getDirectCallee())
        parameter = returnedParameter(call->getDirectCallee());
      if (parameter && *parameter < call->getNumArgs()) {
        expression = call->getArg(*parameter);
        continue;
      }
      if (call->getNumArgs() == 0 || !row || row->op == BP_OP_FENCE)
        return std::nullopt;
      expression = call->getArg(0);
    } else if (const auto *reference = dyn_cast<DeclRefExpr>(expression)) {
      if (auto [argument, caller] = argumentOf(expression); argument)
        return caller->rootOf(argument, depth + 1);
      const auto *variable = dyn_cast<VarDecl>(reference->getDecl());
      if (!variable)
        return std::nullopt;
      if (variable->hasLocalStorage() && !isa<ParmVarDecl>(variable) &&
          (variable->getType()->isPointerType() || variable->getType()->isIntegerType()))
        if (const Expr *value = onlyValue(variable))
          if (std::optional<uint32_t> root = rootOf(value, depth + 1))
            return root;
      std::pair<const VarDecl *, unsigned> key{variable, variable->hasGlobalStorage() ? 0 : copy};
      auto [known, added] = unit.roots.try_emplace(key, (uint32_t)unit.roots.size());
      return known->second;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// A getter, whose body only returns memory reached from one parameter
// (`sock_net(sk)`: `return read_pnet(&sk->sk_net);`, and read_pnet():
// `return pnet->net;`): two calls with one argument reach one instance, so
// the call's root is that argument's.
std::optional<unsigned> FunctionLowering::returnedParameter(const FunctionDecl *function) const {
  const FunctionDecl *definition = function->getDefinition();
  if (!definition)
    return std::nullopt;
  auto [known, added] = unit.returnedParameters.try_emplace(definition, std::nullopt);
  if (!added)
    return known->second;
  const auto *body = dyn_cast_or_null<CompoundStmt>(definition->getBody());
  const auto *returned =
      body && body->size() == 1 ? dyn_cast<ReturnStmt>(body->body_front()) : nullptr;
  const Expr *expression = returned ? returned->getRetValue() : nullptr;
  std::optional<unsigned> found;
  for (unsigned depth = 0; expression && depth < 16; depth++) {
    expression = expression->IgnoreParenCasts();
    bool stop = false;
    if (const Expr *base = baseStep(expression, stop)) {
      expression = base;
    } else if (const auto *call = dyn_cast<CallExpr>(expression); call && !stop) {
      const FunctionDecl *callee = call->getDirectCallee();
      std::optional<unsigned> inner = callee && callee->getDefinition() != definition
                                          ? returnedParameter(callee)
                                          : std::nullopt;
      expression = inner && *inner < call->getNumArgs() ? call->getArg(*inner) : nullptr;
    } else {
      if (const auto *reference = dyn_cast<DeclRefExpr>(expression))
        if (const auto *parameter = dyn_cast<ParmVarDecl>(reference->getDecl());
            parameter && parameter->getDeclContext() == definition)
          found = parameter->getFunctionScopeIndex();
      break;
    }
  }
  return unit.returnedParameters[definition] = found;
}

// ---- What a structure pointer points into ----

namespace {

const RecordDecl *pointeeRecord(QualType type) {
  if (const auto *pointer = type->getAs<PointerType>())
    if (const auto *record = pointer->getPointeeType()->getAs<RecordType>())
      return record->getDecl()->getDefinition();
  return nullptr;
}

// The structures from `outer` down to `inner`, each with the member that
// holds the next ("tcp_sock.inet_conn>...>inet_sock.sk>sock"): `member`
// first when a container_of() names them (`inet_conn.icsk_inet.sk`), then
// first members, as a cast between the two types assumes.
std::optional<std::string> embedding(const RecordDecl *outer, const RecordDecl *inner,
                                     llvm::ArrayRef<const FieldDecl *> members) {
  std::string chain;
  const RecordDecl *current = outer;
  for (unsigned depth = 0; current && depth < 8; depth++) {
    if (current->getCanonicalDecl() == inner->getCanonicalDecl())
      return depth == 0 ? std::nullopt : std::optional(chain + FunctionLowering::typeName(current));
    const FieldDecl *field = depth < members.size()   ? members[depth]
                             : current->field_empty() ? nullptr
                                                      : *current->field_begin();
    const auto *next = field ? field->getType()->getAs<RecordType>() : nullptr;
    if (!next)
      return std::nullopt;
    chain += FunctionLowering::typeName(current) + "." + field->getNameAsString() + ">";
    current = next->getDecl()->getDefinition();
  }
  return std::nullopt;
}

const VarDecl *variableOf(const Expr *expression) {
  const auto *reference = dyn_cast<DeclRefExpr>(expression->IgnoreParenCasts());
  return reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
}

// `expression` casts a pointer variable to a pointer to a structure that
// holds what it points to: `(struct tcp_sock *)sk`, the container_of()
// that subtracts a member's offset (`(T *)(__mptr - offsetof(T, m))`, with
// `void *__mptr = (void *)(ptr)`), or a call of a helper whose body only
// returns one of those of its parameter (tcp_sk(sk)). The variable the
// cast starts from, and the chain of structures.
std::optional<std::pair<const Expr *, std::string>> downcastOf(const Expr *expression,
                                                               unsigned depth = 0) {
  if (depth > 4)
    return std::nullopt;
  expression = expression->IgnoreParens();
  // `const T *tp = tcp_sk(sk)` of a `T *` (a _Generic's choice)
  for (const auto *noop = dyn_cast<ImplicitCastExpr>(expression);
       noop && noop->getCastKind() == CK_NoOp; noop = dyn_cast<ImplicitCastExpr>(expression))
    expression = noop->getSubExpr()->IgnoreParens();
  if (const auto *statements = dyn_cast<StmtExpr>(expression)) {
    const CompoundStmt *body = statements->getSubStmt();
    const auto *last = body->body_empty() ? nullptr : dyn_cast<Expr>(body->body_back());
    return last ? downcastOf(last, depth + 1) : std::nullopt;
  }
  if (const auto *call = dyn_cast<CallExpr>(expression)) {
    const FunctionDecl *callee = call->getDirectCallee();
    const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    const auto *body = definition ? dyn_cast_or_null<CompoundStmt>(definition->getBody()) : nullptr;
    const auto *result =
        body && body->size() == 1 ? dyn_cast<ReturnStmt>(body->body_back()) : nullptr;
    if (!result || !result->getRetValue())
      return std::nullopt;
    std::optional<std::pair<const Expr *, std::string>> inner =
        downcastOf(result->getRetValue(), depth + 1);
    const auto *parameter =
        inner ? dyn_cast_or_null<ParmVarDecl>(variableOf(inner->first)) : nullptr;
    if (!parameter || parameter->getFunctionScopeIndex() >= call->getNumArgs())
      return std::nullopt;
    return std::pair(call->getArg(parameter->getFunctionScopeIndex()), inner->second);
  }
  const auto *cast = dyn_cast<ExplicitCastExpr>(expression);
  const RecordDecl *outer = cast ? pointeeRecord(cast->getType()) : nullptr;
  if (!outer)
    return std::nullopt;
  const Expr *operand = cast->getSubExpr()->IgnoreParenCasts();
  // a container_of() cast again to its own type, as the kernel's
  // container_of_const() adds `const` (tcp_sk(sk) since 6.1)
  if (isa<StmtExpr>(operand)) {
    std::optional<std::pair<const Expr *, std::string>> inner = downcastOf(operand, depth + 1);
    if (inner && pointeeRecord(operand->getType()) == outer)
      return inner;
    return std::nullopt;
  }
  llvm::SmallVector<const FieldDecl *, 3> members;
  if (const auto *difference = dyn_cast<BinaryOperator>(operand);
      difference && difference->getOpcode() == BO_Sub) {
    const auto *offset = dyn_cast<OffsetOfExpr>(difference->getRHS()->IgnoreParenCasts());
    if (!offset || !offset->getNumComponents())
      return std::nullopt;
    for (unsigned i = 0; i < offset->getNumComponents(); i++) {
      if (offset->getComponent(i).getKind() != OffsetOfNode::Field)
        return std::nullopt;
      members.push_back(offset->getComponent(i).getField());
    }
    const VarDecl *start = variableOf(difference->getLHS());
    if (!start || !start->hasLocalStorage() || !start->getInit())
      return std::nullopt;
    operand = start->getInit()->IgnoreParenCasts(); // `void *__mptr = (void *)(ptr)`
  }
  const VarDecl *variable = variableOf(operand);
  const RecordDecl *inner = variable ? pointeeRecord(variable->getType()) : nullptr;
  if (!inner)
    return std::nullopt;
  if (std::optional<std::string> chain = embedding(outer, inner, members))
    return std::pair(operand, *chain);
  return std::nullopt;
}

} // namespace

// The casts a function's body makes before anything else, at its top
// level: code that runs on every call says what its pointers point into.
// A cast under a test (`if (sk->sk_type == SOCK_STREAM) tp = tcp_sk(sk)`)
// says nothing of the other way.
void FunctionLowering::collectDowncasts(const Stmt *body) {
  const auto *compound = dyn_cast_or_null<CompoundStmt>(body);
  if (!compound)
    return;
  for (const Stmt *statement : compound->body())
    if (isa<DeclStmt>(statement) || isa<Expr>(statement))
      noteDowncasts(statement);
}

// What this body, or a caller whose code holds it, says `root` points
// into: an inlined helper's own casts hold for its own code, which runs
// only where its caller calls it.
const std::string *FunctionLowering::subtypeOf(uint32_t root) const {
  for (const FunctionLowering *lowering = this; lowering;
       lowering = lowering->site ? lowering->site->caller : nullptr)
    if (auto known = lowering->subtypes.find(root); known != lowering->subtypes.end())
      return known->second.empty() ? nullptr : &known->second;
  return nullptr;
}

void FunctionLowering::noteDowncasts(const Stmt *statement) {
  if (!statement)
    return;
  if (const auto *expression = dyn_cast<Expr>(statement))
    if (std::optional<std::pair<const Expr *, std::string>> cast = downcastOf(expression))
      if (std::optional<uint32_t> root = rootOf(cast->first)) {
        auto [known, added] = subtypes.try_emplace(*root, cast->second);
        if (!added && known->second != cast->second)
          known->second.clear();
        return;
      }
  // what runs only on some values is no statement about every call
  if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt>(statement))
    return;
  if (const auto *binary = dyn_cast<BinaryOperator>(statement); binary && binary->isLogicalOp())
    return noteDowncasts(binary->getLHS());
  if (const auto *conditional = dyn_cast<AbstractConditionalOperator>(statement))
    return noteDowncasts(conditional->getCond());
  for (const Stmt *child : statement->children())
    noteDowncasts(child);
}

// What holds the memory an lvalue (or what a pointer points to) names,
// across functions: the structure the nearest pointer on its way points to
// ("tags" for `bt->wait.first`, also in a helper handed `&bt->wait`;
// "io_rings" for `ring->rings->sq_flags`), or the global variable it is part
// of, as its type, "@" and its name ("ring@ring"). Two functions that reach
// a field named by its type from containers of one type may reach one
// instance; a pointer to a type may point to any global of that type.
std::string FunctionLowering::containerOf(const Expr *expression, unsigned depth) const {
  for (; expression && depth < 32; depth++) {
    expression = expression->IgnoreParens();
    if (const auto *member = dyn_cast<MemberExpr>(expression)) {
      if (member->isArrow())
        return pointedContainer(member->getBase(), depth + 1);
      expression = member->getBase();
    } else if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(expression)) {
      const Expr *base = subscript->getBase()->IgnoreParenImpCasts();
      if (!base->getType()->isArrayType())
        return pointedContainer(subscript->getBase(), depth + 1);
      expression = base;
    } else if (const auto *unary = dyn_cast<UnaryOperator>(expression)) {
      if (unary->getOpcode() != UO_Deref)
        return "";
      return pointedContainer(unary->getSubExpr(), depth + 1);
    } else if (const auto *cast = dyn_cast<CastExpr>(expression)) {
      expression = cast->getSubExpr();
    } else if (const auto *reference = dyn_cast<DeclRefExpr>(expression)) {
      const auto *variable = dyn_cast<VarDecl>(reference->getDecl());
      if (!variable)
        return "";
      if (variable->hasGlobalStorage())
        return recordOrSpelling(variable->getType()) + BP_INSTANCE_SEPARATOR +
               variable->getNameAsString();
      // a building block on the stack: a list head a function collects
      // entries on, handed to helpers by its address
      if (const RecordDecl *record = variable->getType()->getAsRecordDecl();
          record && isBuildingBlock(record))
        return typeName(record) + BP_BUILDING_BLOCK;
      return recordOrSpelling(variable->getType());
    } else {
      return "";
    }
  }
  return "";
}

std::string FunctionLowering::pointedContainer(const Expr *pointer, unsigned depth) const {
  const Expr *bare = pointer->IgnoreParenCasts();
  if (depth < 32) {
    if (const auto *address = dyn_cast<UnaryOperator>(bare);
        address && address->getOpcode() == UO_AddrOf)
      return containerOf(address->getSubExpr(), depth + 1);
    if (auto [argument, caller] = argumentOf(bare); argument)
      return caller->pointedContainer(argument, depth + 1);
  }
  QualType type = bare->getType();
  if (const auto *pointed = type->getAs<PointerType>()) {
    const RecordDecl *record = pointed->getPointeeType()->getAsRecordDecl();
    if (record && isBuildingBlock(record)) {
      if (const VarDecl *global = returnedGlobalArray(bare))
        return typeName(record) + BP_INSTANCE_SEPARATOR + global->getNameAsString();
      return typeName(record) + BP_BUILDING_BLOCK;
    }
    return recordOrSpelling(pointed->getPointeeType());
  }
  return recordOrSpelling(type);
}

// The global array whose element `pointer` is, where it is a local given
// one value, a call of a helper of the unit that returns an element of it
// (a hash table's bucket: audit_tree's `list = chunk_hash(key)`, which
// returns `chunk_hash_heads + n % HASH_SIZE`).
const VarDecl *FunctionLowering::returnedGlobalArray(const Expr *pointer) const {
  const auto *reference = dyn_cast<DeclRefExpr>(pointer->IgnoreParenCasts());
  const auto *local = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
  if (!local || !local->hasLocalStorage() || isa<ParmVarDecl>(local))
    return nullptr;
  const Expr *value = onlyValue(local);
  const auto *call = value ? dyn_cast<CallExpr>(value->IgnoreParenCasts()) : nullptr;
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  const auto *body = definition ? dyn_cast_or_null<CompoundStmt>(definition->getBody()) : nullptr;
  const auto *result =
      body && !body->body_empty() ? dyn_cast<ReturnStmt>(body->body_back()) : nullptr;
  if (!result || !result->getRetValue())
    return nullptr;
  const Expr *element = result->getRetValue()->IgnoreParenCasts();
  if (const auto *sum = dyn_cast<BinaryOperator>(element); sum && sum->isAdditiveOp())
    element = sum->getLHS()->IgnoreParenCasts();
  else if (const auto *address = dyn_cast<UnaryOperator>(element);
           address && address->getOpcode() == UO_AddrOf)
    if (const auto *subscript =
            dyn_cast<ArraySubscriptExpr>(address->getSubExpr()->IgnoreParenImpCasts()))
      element = subscript->getBase()->IgnoreParenCasts();
  const auto *array = dyn_cast<DeclRefExpr>(element);
  const auto *global = array ? dyn_cast<VarDecl>(array->getDecl()) : nullptr;
  return global && global->hasGlobalStorage() && global->getType()->isArrayType() ? global
                                                                                  : nullptr;
}

// How many record types must embed a type by value for it to be a building
// block (`list_head`, `atomic_t`, `rb_node`) rather than a part of one
// design: the kernel embeds `list_head` in thousands.
static constexpr unsigned BUILDING_BLOCK_EMBEDDERS = 4;

static void countEmbedders(const DeclContext *context,
                           llvm::DenseMap<const RecordDecl *, unsigned> &embedders) {
  for (const Decl *declaration : context->decls()) {
    const auto *record = dyn_cast<RecordDecl>(declaration);
    if (!record || !record->isThisDeclarationADefinition())
      continue;
    llvm::SmallPtrSet<const RecordDecl *, 8> embedded;
    for (const FieldDecl *field : record->fields())
      if (const RecordDecl *part = field->getType()->getBaseElementTypeUnsafe()->getAsRecordDecl())
        if (const RecordDecl *definition = part->getDefinition())
          embedded.insert(definition);
    for (const RecordDecl *part : embedded)
      embedders[part]++;
    countEmbedders(record, embedders);
  }
}

// Whether many of the unit's record types embed `record` by value: a
// building block of other structures, whose fields a helper reaches
// through a pointer to it, which may point into any of them.
bool FunctionLowering::isBuildingBlock(const RecordDecl *record) const {
  if (!unit.buildingBlocks) {
    llvm::DenseMap<const RecordDecl *, unsigned> embedders;
    countEmbedders(unit.context->getTranslationUnitDecl(), embedders);
    unit.buildingBlocks.emplace();
    for (const auto &[part, count] : embedders)
      if (count >= BUILDING_BLOCK_EMBEDDERS)
        unit.buildingBlocks->insert(part);
  }
  const RecordDecl *definition = record->getDefinition();
  return definition && unit.buildingBlocks->count(definition) != 0;
}

std::string FunctionLowering::recordOrSpelling(QualType type) {
  while (const ArrayType *array = type->getAsArrayTypeUnsafe())
    type = array->getElementType();
  if (const RecordDecl *record = type->getAsRecordDecl())
    return typeName(record);
  return type.getUnqualifiedType().getAsString();
}

// Store `event` writes `value`: the address of a named object (`gp = &x`,
// an array's first element), which tells what a pointer points to.
void FunctionLowering::noteStoredAddress(uint32_t event, const Expr *value) const {
  value = value->IgnoreParenCasts();
  std::optional<SharedObject> object;
  if (const auto *address = dyn_cast<UnaryOperator>(value);
      address && address->getOpcode() == UO_AddrOf)
    object = nameObject(address->getSubExpr());
  else if (value->getType()->isArrayType())
    object = nameObject(value);
  if (object && !object->pointee)
    bp_set_stored_address(engine, event, internObject(*object));
}

// A global variable's object, once per unit.
std::optional<SharedObject> FunctionLowering::nameGlobal(const VarDecl *variable) const {
  auto [known, added] = unit.variables.try_emplace(variable);
  if (added) {
    known->second = nameVariable(variable);
    // only a structure has fields to name per instance
    if (known->second && !variable->isExternallyVisible() &&
        variable->getType()->getBaseElementTypeUnsafe()->isRecordType())
      known->second->keptInUnit = !addressEscapes(variable);
  }
  return known->second;
}

// A global variable's object; none for one each thread or function has its
// own, or the C library's.
std::optional<SharedObject> FunctionLowering::nameVariable(const VarDecl *variable) const {
  // Each thread has its own thread-local variable: nothing to share.
  if (variable->isStaticLocal() || variable->getTLSKind() != VarDecl::TLS_None)
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
    key =
        (entry ? absolutePath(file, entry->getName()) : std::string()) + ":" + name + unit.identity;
  }
  return SharedObject{key, name};
}

// The key and the name of a field's object in every instance of its type
// ("struct T.f", "T.f"); an empty key for a field of an unnamed type.
// The field of the structure around it that a structure type with no name
// is the type of (`struct { atomic_t rmem_alloc; ... } sk_backlog;` in
// `struct sock`), also as an array's element; null for none.
static const FieldDecl *holderOf(const RecordDecl *record) {
  const auto *outer = dyn_cast<RecordDecl>(record->getLexicalDeclContext());
  if (!outer)
    return nullptr;
  for (const FieldDecl *candidate : outer->fields()) {
    const Type *type = candidate->getType()->getBaseElementTypeUnsafe();
    if (const auto *held = type->getAsRecordDecl(); held && held == record)
      return candidate;
  }
  return nullptr;
}

// A field of a structure type with no name is named through the field that
// has that type (`sock.sk_backlog.rmem_alloc`), not left unnamed: its
// accesses, and those of the fields of its own fields (`counter` of that
// `atomic_t`), would otherwise fall back to their types' objects, which
// every instance in the program shares.
const FieldNames &FunctionLowering::fieldNames(const FieldDecl *field) const {
  auto [known, added] = unit.fields.try_emplace(field);
  FieldNames &names = known->second; // stays put while the map grows
  if (added) {
    const RecordDecl *record = field->getParent();
    while (record->isAnonymousStructOrUnion())
      if (const auto *outer = dyn_cast<RecordDecl>(record->getParent()))
        record = outer;
      else
        break;
    std::string type = typeName(record), name = field->getNameAsString();
    if (!type.empty()) {
      names = FieldNames{typeKey(record) + "." + name, type + "." + name};
    } else if (const FieldDecl *holder = holderOf(record)) {
      const FieldNames &outer = fieldNames(holder);
      if (!outer.key.empty())
        names = FieldNames{outer.key + "." + name, outer.display + "." + name};
    }
  }
  return names;
}

std::string FunctionLowering::typeName(const RecordDecl *record) {
  std::string type = record->getNameAsString();
  if (type.empty())
    if (const TypedefNameDecl *alias = record->getTypedefNameForAnonDecl())
      type = alias->getNameAsString();
  return type;
}

// "struct T", the name every instance's field shares. A type defined in an
// implementation file (one where this unit defines a function that is
// not inline: the main file, or a file of functions included into it, as
// liburcu includes urcu-call-rcu-impl.h into each flavour) is this unit's
// own: no other unit has its definition, so no other unit reaches its
// fields, and a type of that name in another unit is another type.
std::string FunctionLowering::typeKey(const RecordDecl *record) const {
  std::string key = std::string(record->isUnion() ? "union " : "struct ") + typeName(record);
  const RecordDecl *definition = record->getDefinition();
  FileID file =
      sources.getFileID(sources.getExpansionLoc((definition ? definition : record)->getLocation()));
  if (file == sources.getMainFileID() || unit.implementationFiles.count(file))
    key += "{" + unit.identity.substr(1) + "}";
  return key;
}

// Field `name` (whose type's object is `key`) of the instance `base`.
SharedObject FunctionLowering::instanceField(const SharedObject &base, const std::string &key,
                                             const std::string &name) {
  // An instance's key ("struct T.a@<instance>.a") without its type; a
  // `static` variable's own key ("file:name@unit") is the instance whole:
  // its "@" names the unit, and two statics of one unit are two instances.
  std::string instance = base.key;
  bool typed = llvm::StringRef(instance).starts_with("struct ") ||
               llvm::StringRef(instance).starts_with("union ");
  if (size_t at = instance.find(BP_INSTANCE_SEPARATOR); typed && at != std::string::npos)
    instance = instance.substr(at + 1);
  if (base.keptInUnit) // no "type@instance" key: nothing unifies it with the type
    return SharedObject{instance + "." + name, base.display + "." + name, false, true};
  return SharedObject{key + BP_INSTANCE_SEPARATOR + instance + "." + name,
                      base.display + "." + name, false};
}

// The field `field` of the structure `object` names, as nameObject
// names `object.field`.
SharedObject FunctionLowering::fieldOf(const SharedObject &object, const RecordDecl *record,
                                       const FieldDecl *field) const {
  std::string display = typeName(record) + "." + field->getNameAsString();
  std::string key = typeKey(record) + "." + field->getNameAsString();
  if ((object.key.find(BP_INSTANCE_SEPARATOR) != std::string::npos || object.keptInUnit) &&
      !object.threadOwn)
    return instanceField(object, key, field->getNameAsString());
  return SharedObject{key, display, object.threadOwn};
}

// `reader.ctr` of a thread-local `reader`, or `reader->ctr` of a
// thread-local pointer `reader` (liburcu-bp's slot of its registry arena),
// or `current->field` of the kernel's running task (a SELF primitive's
// result, also as an inlined helper's parameter bound to it): each
// thread's own instance, while another thread reaches it only through a
// pointer of its own.
bool FunctionLowering::isThreadLocal(const MemberExpr *member) const {
  const Expr *base = member;
  while (const auto *dot = dyn_cast<MemberExpr>(base->IgnoreParenImpCasts())) {
    base = dot->getBase();
    if (dot->isArrow())
      break;
  }
  base = base->IgnoreParenImpCasts();
  if (auto [argument, caller] = argumentOf(base); argument)
    base = argument->IgnoreParenImpCasts();
  if (const auto *call = dyn_cast<CallExpr>(base)) {
    const FunctionDecl *callee = call->getDirectCallee();
    const IdentifierInfo *name = callee ? callee->getIdentifier() : nullptr;
    int primitive =
        name ? bp_primitive_find(name->getNameStart(), name->getLength()) : BP_NO_PRIMITIVE;
    return primitive != BP_NO_PRIMITIVE && bp_primitive_get(primitive)->op == BP_OP_SELF;
  }
  const auto *reference = dyn_cast<DeclRefExpr>(base);
  const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
  return variable && variable->getTLSKind() != VarDecl::TLS_None;
}

// The object `*pointer` names: `*&x`, or `*p` in an inlined body whose
// parameter p was bound to `&x`.
std::optional<SharedObject> FunctionLowering::nameThroughPointer(const Expr *pointer) const {
  pointer = pointer->IgnoreParenCasts();
  if (const auto *address = dyn_cast<UnaryOperator>(pointer)) {
    if (address->getOpcode() == UO_AddrOf)
      return nameObject(address->getSubExpr());
  }
  if (auto [argument, caller] = argumentOf(pointer); argument)
    return caller->nameThroughPointer(argument);
  return std::nullopt;
}

// The object `*pointer` names, as nameThroughPointer, or the caller's
// memory when the pointer is a contract root's parameter (directly or bound
// to one through inlined calls). Only a whole `*p`: a field `p->f` keeps
// its type's name.
std::optional<SharedObject> FunctionLowering::nameDereferenced(const Expr *pointer) const {
  if (std::optional<SharedObject> object = nameThroughPointer(pointer))
    return object;
  pointer = pointer->IgnoreParenCasts();
  if (auto [argument, caller] = argumentOf(pointer); argument)
    return caller->nameDereferenced(argument);
  if (std::optional<SharedObject> object = nameCallersMemory(pointer))
    return object;
  return namePointee(pointer);
}

static const Expr *ignoreParenCastsAndExtension(const Expr *value) {
  value = value->IgnoreParenCasts();
  while (const auto *extension = dyn_cast<UnaryOperator>(value)) {
    if (extension->getOpcode() != UO_Extension)
      break;
    value = extension->getSubExpr()->IgnoreParenCasts();
  }
  return value;
}

// The global pointer variable whose value `value` is, read by one load:
// `gp`, `READ_ONCE(gp)` (`*(volatile T *)&gp`), `__atomic_load_n(&gp, o)`,
// `CMM_LOAD_SHARED(gp)`, a load primitive's `&gp`, or a local every value
// of which (but NULL) is one of these for the same gp.
const VarDecl *FunctionLowering::loadedGlobalPointer(const Expr *value, unsigned depth) const {
  value = ignoreParenCastsAndExtension(value);
  // liburcu's `CMM_LOAD_SHARED(gp)` is `({ cmm_smp_rmc(); CMM_ACCESS_ONCE(gp); })`
  while (const auto *statements = dyn_cast<StmtExpr>(value)) {
    const auto *last = statements->getSubStmt()->body_empty()
                           ? nullptr
                           : dyn_cast<Expr>(statements->getSubStmt()->body_back());
    if (!last)
      return nullptr;
    value = ignoreParenCastsAndExtension(last);
    // liburcu's `rcu_dereference(gp)` on a compiler with `__atomic`:
    // `({ T _p1; __atomic_load(&gp, &_p1, __ATOMIC_CONSUME); _p1; })`
    if (const Expr *loadedFrom = genericLoadInto(*statements->getSubStmt(), value))
      value = loadedFrom;
  }
  const Expr *address = nullptr;
  if (const auto *unary = dyn_cast<UnaryOperator>(value); unary && unary->getOpcode() == UO_Deref)
    address = unary->getSubExpr();
  else if (const auto *atomic = dyn_cast<AtomicExpr>(value);
           atomic && (atomic->getOp() == AtomicExpr::AO__atomic_load_n ||
                      atomic->getOp() == AtomicExpr::AO__c11_atomic_load))
    address = atomic->getPtr();
  else if (const auto *call = dyn_cast<CallExpr>(value)) {
    const bp_primitive *row = bp_primitive_get(calledPrimitive(call));
    if (!row || row->op != BP_OP_LOAD || call->getNumArgs() == 0)
      return nullptr;
    // `ck_pr_load_ptr(&gp)` takes the address; liburcu's
    // `rcu_dereference_sym(gp)` takes the value itself
    const Expr *argument = call->getArg(0)->IgnoreParenCasts();
    if (isa<UnaryOperator>(argument))
      address = argument;
    else
      value = argument;
  }
  if (address) {
    const auto *addressOf = dyn_cast<UnaryOperator>(address->IgnoreParenCasts());
    if (!addressOf || addressOf->getOpcode() != UO_AddrOf)
      return nullptr;
    value = addressOf->getSubExpr()->IgnoreParenCasts();
  }
  const auto *reference = dyn_cast<DeclRefExpr>(value);
  const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
  if (!variable || !variable->getType()->isPointerType())
    return nullptr;
  if (variable->hasGlobalStorage())
    return variable;
  // A local (liburcu's `rcu_dereference(gp)` is
  // `({ T _p1 = CMM_LOAD_SHARED(gp); cmm_smp_read_barrier_depends(); _p1; })`);
  // the depth ends a cycle of copies.
  auto assignments = localAssignments.find(variable);
  if (address || isa<ParmVarDecl>(variable) || assignments == localAssignments.end() || depth > 3)
    return nullptr;
  const VarDecl *global = nullptr;
  for (const Expr *assigned : assignments->second) {
    if (assigned->isNullPointerConstant(context, Expr::NPC_ValueDependentIsNotNull))
      continue;
    const VarDecl *loaded = loadedGlobalPointer(assigned, depth + 1);
    if (!loaded || (global && loaded != global))
      return nullptr;
    global = loaded;
  }
  return global;
}

// The object whose address `__atomic_load(&object, &result, order)`, a
// statement of `body`, is given, where `result` is the local `value` names.
const Expr *FunctionLowering::genericLoadInto(const CompoundStmt &body, const Expr *value) {
  const auto *reference = dyn_cast<DeclRefExpr>(value);
  if (!reference)
    return nullptr;
  for (const Stmt *statement : body.body()) {
    const auto *atomic = dyn_cast<AtomicExpr>(statement);
    if (!atomic || atomic->getOp() != AtomicExpr::AO__atomic_load)
      continue;
    const auto *result = dyn_cast<UnaryOperator>(atomic->getVal1()->IgnoreParenCasts());
    const auto *resultLocal = result && result->getOpcode() == UO_AddrOf
                                  ? dyn_cast<DeclRefExpr>(result->getSubExpr()->IgnoreParenCasts())
                                  : nullptr;
    const auto *object = dyn_cast<UnaryOperator>(atomic->getPtr()->IgnoreParenCasts());
    if (resultLocal && resultLocal->getDecl() == reference->getDecl() && object &&
        object->getOpcode() == UO_AddrOf)
      return object->getSubExpr()->IgnoreParenCasts();
  }
  return nullptr;
}

// `*q` where every value the local q is given (but NULL) is what a load of
// one global pointer gp read (`q = READ_ONCE(gp)`), or `*gp` itself: what
// gp points to, which the engine works out from the addresses the
// program stores into gp (bp_resolve_pointees).
std::optional<SharedObject> FunctionLowering::namePointee(const Expr *pointer) const {
  const VarDecl *global = loadedGlobalPointer(pointer);
  // A structure's fields keep their type's names (`(*q).f` as `q->f`).
  if (!global || !global->getType()->getPointeeType()->isScalarType())
    return std::nullopt;
  std::optional<SharedObject> pointee = nameGlobal(global);
  if (!pointee || pointee->threadOwn)
    return std::nullopt;
  pointee->pointee = true;
  return pointee;
}

// `*p` for a parameter p of a function a library's contract (BP_CONTRACT)
// covers: the caller's memory, which is what the contract orders
// (`rcu_set_pointer_sym(void **p, void *v)` stores `*p`). Its own object,
// which no other function's accesses reach: it pairs and races with nothing.
std::optional<SharedObject> FunctionLowering::nameCallersMemory(const Expr *pointer) const {
  const auto *reference = dyn_cast<DeclRefExpr>(pointer);
  const auto *parameter = reference ? dyn_cast<ParmVarDecl>(reference->getDecl()) : nullptr;
  if (!contractRoot || site || !parameter || parameter->getDeclContext() != function)
    return std::nullopt;
  std::string display = "*" + parameter->getNameAsString();
  return SharedObject{display + " of " + function->getNameAsString() + unit.identity, display};
}

// The first shared object a primitive's own text mentions: the object it
// accesses (`&x`, `x`, `p->field`).
std::optional<SharedObject> FunctionLowering::findTarget(const Stmt *statement,
                                                         const Expr **lvalue) const {
  // A C11 or GCC atomic on a helper's pointer parameter bound to `&x` at
  // the call (`atomic_fetch_sub_explicit(refcount, 1, ...)` in a helper
  // handed `&obj->refcount`): no lvalue of this body names it.
  if (const auto *atomic = dyn_cast<AtomicExpr>(statement);
      atomic && isa<DeclRefExpr>(atomic->getPtr()->IgnoreParenCasts())) {
    if (std::optional<SharedObject> object = nameDereferenced(atomic->getPtr())) {
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

} // namespace barrierpair::lowering
