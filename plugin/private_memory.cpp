// Memory no other thread can see yet: locals that only hold memory the
// function has just allocated, the helpers and allocators that keep memory
// to themselves, and where such memory is published. Accesses to it pair
// with nothing, or only as a payload read after its publication.
#include "function_lowering.h"

#include "clang/Analysis/CFG.h"
#include "clang/Basic/Builtins.h"

#include <functional>

namespace barrierpair::lowering {

static bool formatsArgument(const FunctionDecl *callee, unsigned index);

// A call that returns memory nobody else has seen: the C library's
// allocators, a function declared __attribute__((malloc)), an allocator
// by name (jsonp_malloc(), mi_zalloc(), an allocator callback
// `m->malloc(...)`), or a function of the translation unit whose every
// return is such memory (a map being built, ck_hs_map_create()).
bool FunctionLowering::isAllocation(const Expr *expression) const {
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
  } else if (const auto *member = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts())) {
    name = member->getMemberDecl()->getName();
  }
  if (name.contains_insensitive("alloc") && !name.contains_insensitive("free"))
    return true;
  const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  return definition && definition->hasBody() && isAllocator(definition);
}

// The name of a function of another unit (declared here, defined
// elsewhere, outside the system's headers) whose returned pointer
// `expression` is, or empty: memory that is fresh where the program's
// definition of it is an allocator (bp_set_returns_fresh).
std::string FunctionLowering::otherUnitReturn(const Expr *expression) const {
  const auto *call = dyn_cast<CallExpr>(expression->IgnoreParenCasts());
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || !callee->getIdentifier() || callee->getDefinition() ||
      callee->getBuiltinID() != 0 || !call->getType()->isPointerType() ||
      calledPrimitive(call) != BP_NO_PRIMITIVE ||
      sources.isInSystemHeader(sources.getExpansionLoc(callee->getLocation())))
    return {};
  return callee->getName().str();
}

// `variable` (or the allocation it names part of) holds what another
// unit's function returned: the engine decides whether it is fresh.
bool FunctionLowering::isOtherUnitReturn(const VarDecl *variable) const {
  return variable && !returnedByOtherUnit.empty() &&
         returnedByOtherUnit.count(allocation(variable)) != 0;
}

// An exchange that swaps a null pointer in: the code takes the whole list
// the place held (the kernel's llist_del_all(), mimalloc's `first =
// mi_atomic_exchange_ptr_acq_rel(mi_segment_t, &abandoned_visited,
// NULL)`). Nobody else finds those nodes through the place any more; they
// are the taker's until it links them somewhere shared again.
bool FunctionLowering::isTaking(const Expr *expression) const {
  const Expr *value = expression->IgnoreParenCasts();
  const Expr *swappedIn =
      bp_primitive_exchanges(calledPrimitive(value)) ? storedValue(value) : nullptr;
  std::optional<int64_t> known = swappedIn ? knownValue(swappedIn) : std::nullopt;
  return known && *known == 0 && expression->getType()->isPointerType();
}

// A load of a link of a taken list's node (`next = load(&last->next)`,
// the same pointer type): the next node of the same list.
static bool isLinkLoad(const Expr *value, const VarDecl *variable, const VarDecl *&through) {
  value = value->IgnoreParenCasts();
  const Expr *link = nullptr;
  if (const auto *atomic = dyn_cast<AtomicExpr>(value)) {
    if (atomic->getOp() == AtomicExpr::AO__c11_atomic_load ||
        atomic->getOp() == AtomicExpr::AO__atomic_load_n)
      if (const auto *address = dyn_cast<UnaryOperator>(atomic->getPtr()->IgnoreParenCasts());
          address && address->getOpcode() == UO_AddrOf)
        link = address->getSubExpr()->IgnoreParenImpCasts();
  } else {
    link = value;
  }
  const auto *member = dyn_cast_or_null<MemberExpr>(link);
  if (!member || !member->isArrow())
    return false;
  const auto *base = dyn_cast<DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
  through = base ? dyn_cast<VarDecl>(base->getDecl()) : nullptr;
  return through && !through->hasGlobalStorage() &&
         through->getType().getCanonicalType() == variable->getType().getCanonicalType();
}

bool FunctionLowering::isAllocator(const FunctionDecl *definition) const {
  auto [known, added] = unit.allocators.try_emplace(definition, false);
  if (!added)
    return known->second; // false while being worked out: recursion ends
  FunctionLowering inner(context, engine, files, unit);
  inner.function = definition;
  inner.findMacroUses(definition->getBody());
  inner.collectFreshLocals(definition->getBody());
  // What may have published each allocated local where each block starts:
  // memory the helper hands to anyone on a way to a return of it is no
  // longer only the caller's there; one it drops on an error path
  // (`fib6_info_release(rt); return ERR_PTR(err);`) still is on the others.
  std::unique_ptr<CFG> cfg;
  if (inner.allocatedLocals.size() != inner.freshLocals.size()) {
    CFG::BuildOptions options;
    options.setAllAlwaysAdd();
    cfg = CFG::buildCFG(definition, definition->getBody(), &context, options);
    if (cfg) {
      inner.publishedAtEntry.assign(cfg->getNumBlockIDs(), {});
      inner.flowPublications(*cfg, inner.publishedAtEntry, Publication::Any);
    }
  }
  bool returnsSome = false, allFresh = true;
  auto checkReturn = [&](const ReturnStmt *result,
                         const llvm::SmallPtrSetImpl<const VarDecl *> *published) {
    const Expr *value = result->getRetValue();
    if (!value)
      return;
    returnsSome = true;
    const VarDecl *local = pointerLocal(value);
    bool kept = !local || !inner.allocatedLocals.count(local) ||
                inner.freshLocals.count(inner.allocation(local)) != 0 ||
                (published && !published->count(inner.allocation(local)));
    allFresh = allFresh && inner.isFreshValue(value) && kept;
  };
  if (cfg) {
    for (const CFGBlock *block : *cfg) {
      llvm::SmallPtrSet<const VarDecl *, 2> published = inner.publishedAtEntry[block->getBlockID()];
      for (const CFGElement &element : *block)
        if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>()) {
          if (const auto *result = dyn_cast<ReturnStmt>(statement->getStmt()))
            checkReturn(result, &published);
          else
            inner.collectPublished(statement->getStmt(), published);
        }
    }
  } else {
    std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
      if (!statement || !allFresh)
        return;
      if (const auto *result = dyn_cast<ReturnStmt>(statement)) {
        checkReturn(result, nullptr);
        return;
      }
      for (const Stmt *child : statement->children())
        walk(child);
    };
    walk(definition->getBody());
  }
  return unit.allocators[definition] = returnsSome && allFresh;
}

// Whether `call` hands its argument `index` on: a callee that keeps the
// memory to itself (the C library, pthreads, a function named to free it,
// a lock's operation, or one of the translation unit whose body neither
// stores the pointer anywhere nor hands it to one that may) does not
// publish it. With `ownOnly`, what the function publishes by itself: the
// calls whose callee the engine knows better are left to it (another
// unit's function, the functions stored in a function-pointer field), also
// where a helper of the unit makes them, as long as that helper's calls
// are events wherever its body is lowered.
bool FunctionLowering::publishesArgument(const CallExpr *call, unsigned index, bool ownOnly,
                                         bool valueUsed) const {
  // the engine decides from the call's event (bp_set_call_argument), where
  // it has one that tells: not a primitive's, nor the C library's
  const FunctionDecl *callee = call->getDirectCallee();
  if (keepsMemoryPrivate(callee) || formatsArgument(callee, index))
    return false;
  int primitive = calledPrimitive(call);
  // taking or dropping a lock keeps the lock where it is
  if (primitive != BP_NO_PRIMITIVE && bp_op_is_lock(bp_primitive_get(primitive)->op))
    return false;
  if (!callee)
    return !(ownOnly && index < BP_UNPUBLISHED_ARGUMENTS &&
             !functionFieldName(calledField(call->getCallee())).empty());
  bool deferred = ownOnly && index < BP_UNPUBLISHED_ARGUMENTS && callee->getIdentifier() &&
                  primitive == BP_NO_PRIMITIVE &&
                  !sources.isInSystemHeader(sources.getExpansionLoc(callee->getLocation()));
  const FunctionDecl *definition = callee->getDefinition();
  if (!definition || !definition->hasBody())
    return !deferred;
  if (index >= definition->getNumParams())
    return true;
  // a helper whose body is lowered at the call, or on its own with the call
  // an event: the calls it makes are events the engine meets
  bool lowered = deferred && (calleeUsesPrimitives(definition) ||
                              unit.callers.count(definition->getCanonicalDecl()));
  Keeping keeping = parameterKeeping(definition->getParamDecl(index), lowered);
  return keeping == Keeping::Publishes || (keeping == Keeping::Returns && valueUsed);
}

// Whether argument `index` of a call of `callee` is one its printf format
// prints (printk(), the `%p` of `pr_debug("AT %p", tnode)`): formatted,
// not kept. The arguments before the format's are the function's own
// (kthread_create_on_node() hands `data` to the thread it starts).
static bool formatsArgument(const FunctionDecl *callee, unsigned index) {
  const auto *format = callee ? callee->getAttr<FormatAttr>() : nullptr;
  return format && format->getFirstArg() > 0 && index + 1 >= unsigned(format->getFirstArg());
}

// Whether the value of `call` is thrown away where it stands (a statement
// of its own, cast to void, the left of a comma): a pointer it returns goes
// nowhere.
static bool discardsValue(const Stmt *parent, const Expr *call) {
  if (!parent)
    return false;
  if (isa<CompoundStmt>(parent))
    return true;
  if (const auto *cast = dyn_cast<CStyleCastExpr>(parent))
    return cast->getType()->isVoidType();
  if (const auto *comma = dyn_cast<BinaryOperator>(parent))
    return comma->getOpcode() == BO_Comma && comma->getLHS() == call;
  return false;
}

bool FunctionLowering::valueDiscarded(const CallExpr *call) const {
  ParentMap *map = parents();
  return map && discardsValue(map->getParent(call), call);
}

// Whether `user`, the nearest expression or statement around a call that
// is no parenthesis or cast (`child` the part of it that holds the call),
// hands the call's value on: into a local (`ireq = inet_rsk(req)`) or to
// another call (`sk_daddr_set(req_to_sk(req), ...)`), where a pointer the
// callee hands back is named again (returnedArgumentLocal), so handing it
// back publishes nothing.
static bool handsValueOn(const Stmt *user, const Stmt *child) {
  auto local = [](const VarDecl *variable) {
    return variable && !variable->hasGlobalStorage() && !variable->isStaticLocal();
  };
  if (const auto *declarations = dyn_cast_or_null<DeclStmt>(user))
    return llvm::any_of(declarations->decls(), [&](const Decl *declaration) {
      const auto *variable = dyn_cast<VarDecl>(declaration);
      return local(variable) && variable->getInit() == child;
    });
  if (const auto *outer = dyn_cast_or_null<CallExpr>(user))
    return outer->getCallee() != child;
  const auto *binary = dyn_cast_or_null<BinaryOperator>(user);
  const auto *target =
      binary ? dyn_cast<DeclRefExpr>(binary->getLHS()->IgnoreParenCasts()) : nullptr;
  return target && binary->getOpcode() == BO_Assign && binary->getRHS() == child &&
         local(dyn_cast<VarDecl>(target->getDecl()));
}

bool FunctionLowering::valueHandedOn(const CallExpr *call) const {
  ParentMap *map = parents();
  if (!map)
    return false;
  const Stmt *child = call, *parent = map->getParent(call);
  while (isa_and_nonnull<ParenExpr, CastExpr>(parent)) {
    child = parent;
    parent = map->getParent(parent);
  }
  return handsValueOn(parent, child);
}

// The local whose memory a call hands back under another name: the
// argument of a helper of the unit that only returns that parameter
// (`inet_rsk(req)`, `req_to_sk(inet_rsk(req))`), null for any other value.
const VarDecl *FunctionLowering::returnedArgumentLocal(const Expr *value) const {
  const auto *call = dyn_cast<CallExpr>(value->IgnoreParenCasts());
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  if (!definition || !definition->hasBody())
    return nullptr;
  for (unsigned i = 0; i < call->getNumArgs() && i < definition->getNumParams(); i++) {
    const VarDecl *local = pointerLocal(call->getArg(i));
    if (!local)
      local = returnedArgumentLocal(call->getArg(i)); // req_to_sk(inet_rsk(req))
    if (local && parameterKeeping(definition->getParamDecl(i), false) == Keeping::Returns)
      return local;
  }
  return nullptr;
}

// The local `value` names (with `throughMembers`, also as a member's
// address: `&p->node`), else the one a helper hands back (`inet_rsk(req)`).
const VarDecl *FunctionLowering::localOrReturned(const Expr *value, bool throughMembers) const {
  const VarDecl *variable = throughMembers ? pointerLocal(value) : localOf(value);
  return variable ? variable : returnedArgumentLocal(value);
}

FunctionLowering::Keeping FunctionLowering::parameterKeeping(const ParmVarDecl *parameter,
                                                             bool ownOnly) const {
  auto [known, added] = unit.privateParameters[ownOnly].try_emplace(parameter, Keeping::Publishes);
  if (!added)
    return known->second; // publishes while being worked out: recursion ends
  const auto *definition = cast<FunctionDecl>(parameter->getDeclContext());
  // The parameter and the locals that hold what it points to
  // (`array = container_of(json, ...)`).
  llvm::SmallPtrSet<const VarDecl *, 4> aliases{parameter};
  // `&p->part` handed to a call, which the call's own check decides.
  llvm::SmallPtrSet<const Expr *, 4> handedToCalls;
  bool kept = true, returned = false;
  auto named = [&](const Expr *value) { return localOrReturned(value, true); };
  // `user`: the nearest statement around `statement` that is no
  // parenthesis or cast, `child` the part of it that holds `statement`
  std::function<void(const Stmt *, const Stmt *, const Stmt *, const Stmt *)> walk =
      [&](const Stmt *statement, const Stmt *parent, const Stmt *user, const Stmt *child) {
        if (!statement || !kept)
          return;
        if (const auto *binary = dyn_cast<BinaryOperator>(statement);
            binary && binary->isAssignmentOp()) {
          if (const VarDecl *value = named(binary->getRHS()); value && aliases.count(value)) {
            const VarDecl *target = localOf(binary->getLHS());
            const VarDecl *into = target ? nullptr : baseLocal(binary->getLHS());
            if (target && !target->isStaticLocal())
              aliases.insert(target);
            else if (!into || !aliases.count(into))
              kept = false; // stored into memory other than its own (RB_CLEAR_NODE(&p->node))
          }
        } else if (const auto *declarations = dyn_cast<DeclStmt>(statement)) {
          for (const Decl *declaration : declarations->decls())
            if (const auto *variable = dyn_cast<VarDecl>(declaration);
                variable && variable->hasInit())
              if (const VarDecl *value = named(variable->getInit());
                  value && aliases.count(value)) {
                if (variable->hasGlobalStorage())
                  kept = false;
                else
                  aliases.insert(variable);
              }
        } else if (const auto *result = dyn_cast<ReturnStmt>(statement)) {
          if (const VarDecl *value = pointerLocal(result->getRetValue());
              value && aliases.count(value))
            returned = true; // the caller gets it back under another name, if it takes the value
        } else if (const auto *unary = dyn_cast<UnaryOperator>(statement)) {
          if (const VarDecl *value = localOf(unary->getSubExpr());
              value && aliases.count(value) && unary->getOpcode() == UO_AddrOf &&
              !handedToCalls.count(unary))
            kept = false;
        } else if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
          for (const Stmt *argument : atomic->children())
            if (const auto *value = dyn_cast<Expr>(argument);
                value && argument != atomic->getPtr() && pointerLocal(value) &&
                aliases.count(pointerLocal(value)))
              kept = false;
        } else if (const auto *call = dyn_cast<CallExpr>(statement)) {
          for (unsigned i = 0; i < call->getNumArgs() && kept; i++) {
            const VarDecl *value = named(call->getArg(i));
            if (!value || !aliases.count(value))
              continue;
            bool valueUsed = !discardsValue(parent, call) && !handsValueOn(user, child);
            if (publishesArgument(call, i, ownOnly, valueUsed))
              kept = false;
            else
              handedToCalls.insert(call->getArg(i)->IgnoreParenCasts());
          }
        }
        bool transparent = isa<ParenExpr, CastExpr>(statement);
        for (const Stmt *part : statement->children())
          walk(part, statement, transparent ? user : statement, transparent ? child : part);
      };
  // Twice: an alias made late in the body may be used earlier in a loop.
  walk(definition->getBody(), nullptr, nullptr, nullptr);
  walk(definition->getBody(), nullptr, nullptr, nullptr);
  return unit.privateParameters[ownOnly][parameter] = !kept      ? Keeping::Publishes
                                                      : returned ? Keeping::Returns
                                                                 : Keeping::Keeps;
}

// The local whose pointer `value` is, through casts and pointer
// arithmetic (`(T *)((char *)p - offsetof(T, member))`).
const VarDecl *FunctionLowering::pointerLocal(const Expr *value) {
  if (!value)
    return nullptr;
  // an array member's first element (`l = kv->kv`, the fib trie's leaf)
  if (const auto *decay = dyn_cast<ImplicitCastExpr>(value->IgnoreParens());
      decay && decay->getCastKind() == CK_ArrayToPointerDecay)
    return baseLocal(decay->getSubExpr());
  value = value->IgnoreParenCasts();
  if (const auto *binary = dyn_cast<BinaryOperator>(value);
      binary && binary->isAdditiveOp() && binary->getType()->isPointerType())
    return pointerLocal(binary->getLHS()->getType()->isPointerType() ? binary->getLHS()
                                                                     : binary->getRHS());
  if (const auto *address = dyn_cast<UnaryOperator>(value);
      address && address->getOpcode() == UO_AddrOf)
    return baseLocal(address->getSubExpr());
  // a pointer passed as a transparent union
  if (const auto *literal = dyn_cast<CompoundLiteralExpr>(value))
    if (const auto *list = dyn_cast<InitListExpr>(literal->getInitializer());
        list && list->getNumInits() == 1)
      return pointerLocal(list->getInit(0));
  return localOf(value);
}

// A signed integer made a pointer, as the kernel's ERR_PTR(-ENOMEM)
// returns an error code: like NULL, it points to nobody's memory.
// A pointer carried through an integer is carried unsigned (liburcu's
// uatomic_xchg() returns its `unsigned long` as the pointer type), and
// stays whoever's it was.
static bool isIntegerAsPointer(const Expr *value) {
  for (value = value->IgnoreParens(); const auto *cast = dyn_cast<CastExpr>(value);
       value = cast->getSubExpr()->IgnoreParens())
    if (cast->getCastKind() == CK_IntegralToPointer)
      return cast->getSubExpr()->getType()->isSignedIntegerType();
  return false;
}

// NULL, an error code as a pointer, an allocation, or a local that only
// ever holds one (`p`, `&p->member`): an allocator may fail with
// ERR_PTR() (perf_event_alloc()). A taken list is not: its nodes hold
// what its head handed over, so a helper that returns one is no
// allocator, and its callers' reads of the nodes stay the head's message.
bool FunctionLowering::isFreshValue(const Expr *value) const {
  if (isIntegerAsPointer(value))
    return true;
  value = value->IgnoreParenCasts();
  // `p ? p : ERR_PTR(-ENOMEM)`: each of the values it may be
  if (const auto *choice = dyn_cast<ConditionalOperator>(value))
    return isFreshValue(choice->getTrueExpr()) && isFreshValue(choice->getFalseExpr());
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
  return variable && allocatedLocals.count(variable) && !takenLists.count(allocation(variable)) &&
         !entryParameter(variable) && !isOtherUnitReturn(variable);
}

// Local pointers whose every value is memory the function has just
// allocated (p = malloc(...)) and that the function never stores anywhere:
// what they point to is being initialised and is not shared yet, so stores
// through them (workqueue->qlen = 0 before pthread_create() hands the
// structure over) pair with nothing. A pointer the function publishes
// (global = p, rcu_assign_pointer(global, p)) or passes on (other than to
// the C library or pthreads) is not fresh: its initialisation is the payload
// of a message.
const VarDecl *FunctionLowering::localOf(const Expr *expression) {
  const auto *reference = dyn_cast<DeclRefExpr>(expression->IgnoreParenCasts());
  const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
  return variable && !variable->hasGlobalStorage() ? variable : nullptr;
}

void FunctionLowering::collectFreshLocals(const Stmt *body, bool gatherAssignments) {
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
  // A function lowered on its own may be handed such memory by every call
  // of it, which only the program's calls tell.
  if (!site && function)
    for (const ParmVarDecl *parameter : function->parameters())
      if (parameter->getType()->isPointerType() &&
          parameter->getFunctionScopeIndex() < BP_UNPUBLISHED_PARAMETERS) {
        candidates.try_emplace(parameter, true);
        entryParameters[parameter] = parameter->getFunctionScopeIndex();
      }
  if (!site && !entryParameters.empty())
    noteInitialised(body);
  // What each local holds of other units' functions' returns, and the
  // locals that also hold anything else but NULL (an allocation of the
  // function's, another pointer): what the engine would decide for one
  // value only.
  llvm::DenseMap<const VarDecl *, std::string> returners;
  llvm::SmallPtrSet<const VarDecl *, 8> ownAllocations;
  // Locals that name the memory of another (`array = container_of(json,
  // ...)`): one is fresh and private only if the other is.
  llvm::SmallVector<std::pair<const VarDecl *, const VarDecl *>, 2> derived;
  // The locals given an allocation of the function's, those given other
  // memory by a plain assignment, and those given anything another way:
  // the first two and not the third are reused locals.
  llvm::SmallPtrSet<const VarDecl *, 4> allocatedInto, givenOther, notReusable;
  auto consider = [&](const VarDecl *variable, const Expr *value) {
    if (!variable || variable->hasGlobalStorage() || !variable->getType()->isPointerType())
      return;
    bool taking = value && isTaking(value);
    if (taking)
      takenLists.insert(variable);
    bool allocated = value && !taking && isAllocation(value);
    if (allocated)
      allocatedInto.insert(variable);
    if (!value || taking)
      notReusable.insert(variable);
    bool fresh = value && (taking || allocated || isIntegerAsPointer(value) ||
                           value->IgnoreParenCasts()->isNullPointerConstant(
                               context, Expr::NPC_ValueDependentIsNotNull));
    // one function of another unit returns all it holds, or none does
    std::string returner = fresh || !value ? std::string() : otherUnitReturn(value);
    if (!returner.empty()) {
      notReusable.insert(variable);
      fresh = true;
      auto [known, added] = returners.try_emplace(variable, returner);
      if (!added && known->second != returner)
        known->second.clear();
    } else if (value &&
               !value->IgnoreParenCasts()->isNullPointerConstant(
                   context, Expr::NPC_ValueDependentIsNotNull) &&
               !isIntegerAsPointer(value)) {
      ownAllocations.insert(variable);
    }
    const VarDecl *source = value ? pointerLocal(value) : nullptr;
    // the same memory under another name (`ireq = inet_rsk(req)`)
    if (!fresh && !source && value)
      source = returnedArgumentLocal(value);
    // the next node of a taken list is the taker's too
    if (const VarDecl *through = nullptr;
        !fresh && !source && value && isLinkLoad(value, variable, through) &&
        candidates.lookup(through) && takenLists.count(allocation(through)))
      source = through;
    if (!fresh && source && source != variable && candidates.lookup(source)) {
      fresh = true;
      notReusable.insert(variable);
      notReusable.insert(source);
      derived.emplace_back(variable, source);
      if (const VarDecl *root = allocation(source); root != variable)
        allocationOf[variable] = root;
    }
    if (!fresh)
      givenOther.insert(variable);
    auto [entry, added] = candidates.try_emplace(variable, fresh);
    if (!added)
      entry->second = entry->second && fresh;
  };
  // The same walk gathers each local's assignments (collectLocalSources).
  auto walk = [&](auto &self, const Stmt *statement) -> void {
    if (!statement)
      return;
    if (gatherAssignments)
      noteAssignments(statement);
    if (const auto *declarations = dyn_cast<DeclStmt>(statement)) {
      for (const Decl *declaration : declarations->decls()) {
        if (const auto *variable = dyn_cast<VarDecl>(declaration); variable && variable->hasInit())
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
        if (const VarDecl *variable = localOrReturned(call->getArg(i));
            variable && candidates.count(variable) &&
            publishesArgument(call, i, false, !valueHandedOn(call)))
          escaped.insert(variable);
    } else if (const auto *unary = dyn_cast<UnaryOperator>(statement)) {
      // p++ or &p: no longer only the allocation.
      if (unary->isIncrementDecrementOp() || unary->getOpcode() == UO_AddrOf) {
        if (const auto *target = dyn_cast<DeclRefExpr>(unary->getSubExpr()->IgnoreParenImpCasts()))
          consider(dyn_cast<VarDecl>(target->getDecl()), nullptr);
      }
    }
    for (const Stmt *child : statement->children())
      self(self, child);
  };
  walk(walk, body);
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
  for (const auto &[variable, returner] : returners) {
    if (!candidates.lookup(variable))
      continue;
    if (returner.empty() || ownAllocations.count(variable))
      candidates[variable] = false;
    else
      returnedByOtherUnit[variable] = returner;
  }
  reusedLocals.clear();
  for (const VarDecl *variable : allocatedInto)
    if (givenOther.count(variable) && !notReusable.count(variable) && !isa<ParmVarDecl>(variable) &&
        !candidates.lookup(variable) && !allocationOf.count(variable)) {
      reusedLocals.insert(variable);
      candidates[variable] = true;
    }
  for (const auto &[variable, fresh] : candidates) {
    if (!fresh)
      allocationOf.erase(variable);
    if (fresh)
      allocatedLocals.insert(variable);
    // A parameter's memory is published by the caller later on: its
    // initialisation here is still a payload. A taken list's nodes hold
    // what the list's head handed over: their accesses are still events.
    if (fresh && !escaped.count(variable) && !isa<ParmVarDecl>(variable) &&
        !takenLists.count(allocation(variable)) && !entryParameter(variable) &&
        !isOtherUnitReturn(variable) && !reusedLocals.count(variable))
      freshLocals.insert(variable);
  }
}

// The C library (memset, free, ...), pthreads (pthread_create hands the
// structure over with the ordering thread creation gives), a function
// named to free memory (jsonp_free(), which calls through a pointer) and a
// kernel trace event do not publish the memory they are given.
bool FunctionLowering::keepsMemoryPrivate(const FunctionDecl *callee) const {
  llvm::StringRef name = callee && callee->getIdentifier() ? callee->getName() : "";
  return callee && (callee->getBuiltinID() != 0 || name.starts_with("pthread_") ||
                    name.contains_insensitive("free") || isTraceEvent(callee));
}

// A kernel trace event, `trace_foo()` as `TRACE_EVENT()` defines it
// through include/linux/tracepoint.h: it calls the probes attached to it
// through pointers, and they record what they are handed into the trace
// buffer (TP_fast_assign() copies fields); none keeps a pointer.
bool FunctionLowering::isTraceEvent(const FunctionDecl *callee) const {
  if (!callee->getIdentifier() || !callee->getName().starts_with("trace_"))
    return false;
  const FunctionDecl *definition = callee->getDefinition();
  if (!definition || !definition->getBeginLoc().isMacroID())
    return false;
  StringRef file = sources.getFilename(sources.getSpellingLoc(definition->getBeginLoc()));
  return file.ends_with("linux/tracepoint.h");
}

// An assignment to a reused local: a new allocation is nobody else's yet
// (it leaves `out`), other memory is shared (it joins `out`), and was
// published by no store of this function's (it leaves the store flow's).
// `killed` keeps what left and has not joined again, for a block's summary.
bool FunctionLowering::noteReassignment(const Stmt *element,
                                        llvm::SmallPtrSetImpl<const VarDecl *> &out,
                                        Publication kind,
                                        llvm::SmallPtrSetImpl<const VarDecl *> *killed) const {
  const VarDecl *variable = nullptr;
  const Expr *value = nullptr;
  if (const auto *binary = dyn_cast<BinaryOperator>(element);
      binary && binary->getOpcode() == BO_Assign) {
    variable = localOf(binary->getLHS());
    value = binary->getRHS();
  } else if (const auto *declaration = dyn_cast<DeclStmt>(element);
             declaration && declaration->isSingleDecl()) {
    variable = dyn_cast<VarDecl>(declaration->getSingleDecl());
    value = variable ? variable->getInit() : nullptr;
  }
  if (!variable || !value || !reusedLocals.count(variable))
    return false;
  if (kind != Publication::Store && !isAllocation(value)) {
    out.insert(variable);
    if (killed)
      killed->erase(variable);
  } else {
    out.erase(variable);
    if (killed)
      killed->insert(variable);
  }
  return true;
}

// The allocated locals a CFG element publishes: stores into shared
// memory, hands to a function (other than the C library's and pthreads')
// or to an atomic operation.
void FunctionLowering::collectPublished(const Stmt *element,
                                        llvm::SmallPtrSetImpl<const VarDecl *> &out,
                                        Publication kind,
                                        llvm::SmallPtrSetImpl<const VarDecl *> *killed) const {
  if (!reusedLocals.empty() && noteReassignment(element, out, kind, killed))
    return;
  bool storesOnly = kind == Publication::Store;
  // what the function publishes itself, for the engine to rely on, counts
  // a member's address too (`list_add_rcu(&p->node, head)` publishes p)
  auto named = [&](const Expr *value) { return localOrReturned(value, kind == Publication::Own); };
  auto carried = [&](const Expr *value) {
    if (!value)
      return;
    if (const VarDecl *variable = named(value); variable && allocatedLocals.count(variable))
      out.insert(allocation(variable));
  };
  if (const auto *binary = dyn_cast<BinaryOperator>(element)) {
    // A pointer stored into its own allocation (`heap->tld = tld` with both
    // in one `td`) is not handed to anyone.
    const VarDecl *target = baseLocal(binary->getLHS());
    const VarDecl *value = named(binary->getRHS());
    bool ownAllocation =
        target && value && allocatedLocals.count(target) && sameAllocation(target, value);
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
      const VarDecl *variable = named(call->getArg(i));
      if (variable && allocatedLocals.count(variable) &&
          publishesArgument(call, i, kind == Publication::Own,
                            !valueDiscarded(call) && !valueHandedOn(call)))
        carried(call->getArg(i));
    }
  }
}

// What each block may have published when it starts: a path from a
// publication reaches it (loops included: it is control, not order).
void FunctionLowering::collectPublications(const CFG &cfg) {
  unsigned count = cfg.getNumBlockIDs();
  publishedAtEntry.assign(count, {});
  storePublishedAtEntry.assign(count, {});
  ownPublishedAtEntry.assign(count, {});
  ownAllocationsShared = false;
  if (allocatedLocals.size() == freshLocals.size())
    return; // every allocated local stays private
  notePublishedParameters(cfg);
  flowPublications(cfg, publishedAtEntry, Publication::Any);
  // the other two tell only of the function's own allocations
  ownAllocationsShared = llvm::any_of(allocatedLocals, [&](const VarDecl *variable) {
    return !freshLocals.count(variable) && !entryParameter(variable);
  });
  if (!ownAllocationsShared)
    return;
  flowPublications(cfg, storePublishedAtEntry, Publication::Store);
  flowPublications(cfg, ownPublishedAtEntry, Publication::Own);
}

void FunctionLowering::flowPublications(const CFG &cfg,
                                        std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> &atEntry,
                                        Publication kind) const {
  unsigned count = cfg.getNumBlockIDs();
  std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> publishedIn(count), killedIn(count);
  // A compare-and-swap that the block's test reads publishes only on the
  // branch where it stored (`if (cas(&head, &old, first)) return;` then a
  // walk of the list it failed to hand over): that successor's index.
  std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> publishedIfStored(count);
  std::vector<unsigned> storedSuccessor(count, 0);
  for (const CFGBlock *block : cfg)
    for (const CFGElement &element : *block)
      if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>()) {
        const auto *test = dyn_cast_or_null<Expr>(block->getTerminatorCondition());
        const Expr *swap = reportingSwap(statement->getStmt());
        if (swap && block->succ_size() == 2 && testDecides(test, swap)) {
          collectPublished(swap, publishedIfStored[block->getBlockID()], kind);
          storedSuccessor[block->getBlockID()] = *valueWith(test, swap, 1) ? 0 : 1;
          continue;
        }
        collectPublished(statement->getStmt(), publishedIn[block->getBlockID()], kind,
                         &killedIn[block->getBlockID()]);
      }
  for (bool changed = true; changed;) {
    changed = false;
    for (const CFGBlock *block : cfg) {
      unsigned id = block->getBlockID();
      llvm::SmallPtrSet<const VarDecl *, 2> out = atEntry[id];
      for (const VarDecl *variable : killedIn[id])
        out.erase(variable);
      out.insert(publishedIn[id].begin(), publishedIn[id].end());
      unsigned index = 0;
      for (const CFGBlock::AdjacentBlock &successor : block->succs()) {
        const CFGBlock *next = successor.getReachableBlock();
        bool storedHere = index++ == storedSuccessor[id];
        if (!next)
          continue;
        for (const VarDecl *variable : out)
          changed |= atEntry[next->getBlockID()].insert(variable).second;
        if (storedHere)
          for (const VarDecl *variable : publishedIfStored[id])
            changed |= atEntry[next->getBlockID()].insert(variable).second;
      }
    }
  }
}

// A compare-and-swap that reports whether it stored (C11's and GCC's
// compare-exchange, or a primitive of the table that does), or null.
const Expr *FunctionLowering::reportingSwap(const Stmt *statement) const {
  const auto *expression = dyn_cast<Expr>(statement);
  return expression && bp_primitive_reports_store(calledPrimitive(expression->IgnoreParenCasts()))
             ? expression
             : nullptr;
}

// `value` is an allocated local not yet published here (`p` in
// `init(p)` before `publish(p)`).
bool FunctionLowering::isUnpublishedValue(const Expr *value) const {
  const VarDecl *variable = pointerLocal(value);
  return variable && allocatedLocals.count(variable) &&
         !publishedHere.count(allocation(variable)) && !isOtherUnitReturn(variable);
}

// The parameters of the function lowered on its own whose structure a
// call of an INIT primitive sets a lock up in (the argument `&p->lock`, or
// `&p->a.lock`) on every way through its body: in a statement of the body
// itself, not under a test (a lazy set-up, `if (!ready) mutex_init(...)`,
// runs on a structure others use), or in such a statement of a function
// of the unit it calls that way with the parameter (`init_srcu_struct()`
// returns `init_srcu_struct_fields(ssp, false)`, which calls
// `mutex_init(&ssp->srcu_cb_mutex)`), up to the depth calls are followed.
void FunctionLowering::noteInitialised(const Stmt *body) {
  llvm::DenseMap<const VarDecl *, unsigned> parameters;
  for (const auto &[parameter, index] : entryParameters)
    parameters[parameter] = index;
  noteInitialised(body, parameters, 0);
}

void FunctionLowering::noteInitialised(const Stmt *statement,
                                       const llvm::DenseMap<const VarDecl *, unsigned> &parameters,
                                       unsigned depth) {
  if (!statement)
    return;
  // the parameter of the function lowered on its own that an argument
  // points into (`p`, `&p->lock`)
  auto parameterOf = [&](const Expr *argument) -> std::optional<unsigned> {
    const VarDecl *variable = pointerLocal(argument);
    auto found =
        variable ? parameters.find(depth ? variable : allocation(variable)) : parameters.end();
    return found != parameters.end() ? std::optional<unsigned>(found->second) : std::nullopt;
  };
  if (const auto *compound = dyn_cast<CompoundStmt>(statement)) {
    for (const Stmt *child : compound->body())
      noteInitialised(child, parameters, depth);
  } else if (const auto *loop = dyn_cast<DoStmt>(statement)) {
    // `do { ... } while (0)`, a macro's body, runs once
    Expr::EvalResult once;
    if (loop->getCond()->EvaluateAsInt(once, context) && once.Val.getInt().isZero())
      noteInitialised(loop->getBody(), parameters, depth);
  } else if (const auto *returned = dyn_cast<ReturnStmt>(statement)) {
    noteInitialised(returned->getRetValue(), parameters, depth);
  } else if (const auto *call = dyn_cast<CallExpr>(statement)) {
    const FunctionDecl *callee = call->getDirectCallee();
    const IdentifierInfo *name = callee ? callee->getIdentifier() : nullptr;
    int primitive =
        name ? bp_primitive_find(name->getNameStart(), name->getLength()) : BP_NO_PRIMITIVE;
    if (primitive != BP_NO_PRIMITIVE && bp_primitive_get(primitive)->op == BP_OP_INIT) {
      if (call->getNumArgs())
        if (std::optional<unsigned> parameter = parameterOf(call->getArg(0)))
          initialisedParameters.insert(*parameter);
      return;
    }
    const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    if (definition && definition->hasBody() && depth < InlineDepth && definition != function) {
      llvm::DenseMap<const VarDecl *, unsigned> bound;
      for (unsigned i = 0; i < call->getNumArgs() && i < definition->getNumParams(); i++)
        if (std::optional<unsigned> parameter = parameterOf(call->getArg(i)))
          bound[definition->getParamDecl(i)] = *parameter;
      if (!bound.empty())
        noteInitialised(definition->getBody(), bound, depth + 1);
    }
  } else if (const auto *expression = dyn_cast<Expr>(statement)) {
    // `(void)f(p)`, `err = f(p)`, `return f(p)`: the call runs
    const Expr *value = expression->IgnoreParenCasts();
    if (const auto *assignment = dyn_cast<BinaryOperator>(value);
        assignment && assignment->isAssignmentOp())
      value = assignment->getRHS()->IgnoreParenCasts();
    if (isa<CallExpr>(value))
      noteInitialised(value, parameters, depth);
  }
}

bool FunctionLowering::initialisedParameter(unsigned parameter) const {
  const FunctionLowering *root = this;
  while (root->site)
    root = root->site->caller;
  return root->initialisedParameters.count(parameter);
}

// The parameter of the function lowered on its own whose memory
// `variable`'s is, through the calls this body is inlined at.
std::optional<unsigned> FunctionLowering::entryParameter(const VarDecl *variable) const {
  if (!variable)
    return std::nullopt;
  variable = allocation(variable);
  if (auto found = entryParameters.find(variable); found != entryParameters.end())
    return found->second;
  const auto *parameter = dyn_cast<ParmVarDecl>(variable);
  if (!site || !parameter)
    return std::nullopt;
  auto [argument, caller] = argumentOf(parameter);
  return argument ? caller->entryParameter(pointerLocal(argument)) : std::nullopt;
}

// What a call of another function hands it of memory nobody else has
// seen yet (bp_set_call_argument): the callee's parameters are fresh where
// every call hands such memory, and a call of another unit's function that
// keeps it to itself leaves it unpublished.
void FunctionLowering::noteUnpublishedArguments(uint32_t event, const Stmt *statement) const {
  const auto *call = dyn_cast<CallExpr>(statement);
  // a function named to free memory hands it to nobody (keepsMemoryPrivate),
  // as lowering decides; the engine is not asked again
  if (call && keepsMemoryPrivate(call->getDirectCallee()))
    return;
  for (unsigned i = 0; call && i < call->getNumArgs() && i < BP_UNPUBLISHED_ARGUMENTS; i++) {
    if (formatsArgument(call->getDirectCallee(), i))
      continue;
    // a local of the stack handed by address (`&res`), whose address this
    // function stores nowhere: memory only the calls it is handed to may
    // publish, which the engine decides
    if (const VarDecl *local = stackLocalAddress(call->getArg(i))) {
      bp_set_call_argument(engine, event, i, BP_NO_PARAMETER, allocationNumber(local), false);
      continue;
    }
    const VarDecl *variable = pointerLocal(call->getArg(i));
    // what another unit's function returned: every call it is handed to
    // publishes it (addProvenance), so none tells the engine
    if (!variable || !allocatedLocals.count(variable) || takenLists.count(allocation(variable)) ||
        isOtherUnitReturn(variable))
      continue;
    bool unpublished = !publishedHere.count(allocation(variable));
    if (std::optional<unsigned> parameter = entryParameter(variable))
      bp_set_call_argument(engine, event, i, *parameter, 0, unpublished);
    else if (!ownPublishedHere.count(allocation(variable)))
      bp_set_call_argument(engine, event, i, BP_NO_PARAMETER, allocationNumber(variable),
                           unpublished);
  }
}

// The local of the stack whose address `value` is (`&res`, `&res.part`,
// a local array), where this body stores that address nowhere and hands
// it to no function of its unit that does.
const VarDecl *FunctionLowering::stackLocalAddress(const Expr *value) const {
  bool address = false;
  const VarDecl *local = namedLocal(value->IgnoreParenCasts(), address);
  if (!local || isa<ParmVarDecl>(local) || (!address && !local->getType()->isArrayType()))
    return nullptr;
  return localAddressEscapes(local, true) ? nullptr : local;
}

// The number of the allocation `variable` names, within the function
// lowered on its own (a parameter of an inlined body: its argument's).
unsigned FunctionLowering::allocationNumber(const VarDecl *variable) const {
  variable = allocation(variable);
  if (const auto *parameter = dyn_cast<ParmVarDecl>(variable); parameter && site)
    if (auto [argument, caller] = argumentOf(parameter); argument)
      if (const VarDecl *local = pointerLocal(argument))
        return caller->allocationNumber(local);
  const FunctionLowering *root = this;
  while (root->site)
    root = root->site->caller;
  return root->allocationNumbers.try_emplace(variable, root->allocationNumbers.size())
      .first->second;
}

// The parameters the function keeps to itself, anywhere in its body
// (bp_set_keeps_parameter): those it follows as its own allocations and
// never publishes by itself; its calls of other units' functions are the
// engine's to decide. Any other is published.
void FunctionLowering::notePublishedParameters(const CFG &cfg) const {
  if (site || entryParameters.empty())
    return;
  llvm::SmallPtrSet<const VarDecl *, 2> published;
  for (const CFGBlock *block : cfg)
    for (const CFGElement &element : *block)
      if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>())
        collectPublished(statement->getStmt(), published, Publication::Own);
  for (const auto &[parameter, index] : entryParameters)
    if (allocatedLocals.count(parameter) && !published.count(parameter))
      bp_set_keeps_parameter(engine, index);
}

// Two locals name one allocation: here, or as the parameters of an inlined
// body its caller bound to one (`sta_info_add_link(sta, link_id,
// &sta->deflink)`, which stores `sta` into the link it is handed).
bool FunctionLowering::sameAllocation(const VarDecl *a, const VarDecl *b) const {
  a = allocation(a);
  b = allocation(b);
  if (a == b)
    return true;
  return site && (isa<ParmVarDecl>(a) || isa<ParmVarDecl>(b)) &&
         allocationNumber(a) == allocationNumber(b);
}

// The local whose allocation `variable` names part of (itself if none).
const VarDecl *FunctionLowering::allocation(const VarDecl *variable) const {
  for (auto found = allocationOf.find(variable); found != allocationOf.end();
       found = allocationOf.find(variable))
    variable = found->second;
  return variable;
}

// `lvalue` is in memory of an allocated local (`p->field`,
// `p->slots[i]`) that is not published yet.
bool FunctionLowering::isUnpublished(const Expr *lvalue) const {
  const VarDecl *variable = baseLocal(lvalue);
  return variable && allocatedLocals.count(variable) &&
         !publishedHere.count(allocation(variable)) && !isOtherUnitReturn(variable);
}

// The local pointer an lvalue's memory is reached through (`p->a.b[i]`).
const VarDecl *FunctionLowering::baseLocal(const Expr *lvalue) {
  const Expr *base = lvalue->IgnoreParenImpCasts();
  for (;;) {
    // a marking macro's `*(volatile T *)&(p->f)` is `p->f`
    if (const auto *deref = dyn_cast<UnaryOperator>(base); deref && deref->getOpcode() == UO_Deref)
      if (const auto *address = dyn_cast<UnaryOperator>(deref->getSubExpr()->IgnoreParenCasts());
          address && address->getOpcode() == UO_AddrOf) {
        base = address->getSubExpr()->IgnoreParenImpCasts();
        continue;
      }
    if (const auto *member = dyn_cast<MemberExpr>(base)) {
      if (member->isArrow()) {
        // `(&p->node)->f` (a macro handed `&p->node`) is `p->node.f`
        const auto *address = dyn_cast<UnaryOperator>(member->getBase()->IgnoreParenCasts());
        if (!address || address->getOpcode() != UO_AddrOf)
          return localOf(member->getBase());
        base = address->getSubExpr()->IgnoreParenImpCasts();
        continue;
      }
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
bool FunctionLowering::isUnshared(const Expr *base, bool arrow) const {
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

// Whether the unit may hand the address of `variable` (a `static` global)
// to code that could keep it: anything but a call that keeps its argument
// to itself (publishesArgument) taking `&variable` or `&variable.part`.
bool FunctionLowering::addressEscapes(const VarDecl *variable) const {
  if (!unit.escapingStatics) {
    unit.escapingStatics.emplace();
    std::vector<const Stmt *> ancestors;
    auto unitStatic = [](const VarDecl *global) {
      return global->hasGlobalStorage() && !global->isExternallyVisible();
    };
    for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
      // a system header's code never names the program's variables
      if (sources.isInSystemHeader(declaration->getLocation()))
        continue;
      if (const auto *function = dyn_cast<FunctionDecl>(declaration))
        collectEscapingAddresses(function->getBody(), ancestors, unitStatic, *unit.escapingStatics);
      else if (const auto *global = dyn_cast<VarDecl>(declaration))
        collectEscapingAddresses(global->getInit(), ancestors, unitStatic, *unit.escapingStatics);
    }
  }
  return unit.escapingStatics->count(variable->getCanonicalDecl()) > 0;
}

// The same for a local of the body being lowered.
bool FunctionLowering::localAddressEscapes(const VarDecl *local, bool ownOnly) const {
  std::optional<llvm::DenseSet<const VarDecl *>> &escaping =
      ownOnly ? ownEscapingLocals : escapingLocals;
  if (!escaping) {
    escaping.emplace();
    std::vector<const Stmt *> ancestors;
    collectEscapingAddresses(
        loweredBody, ancestors, [](const VarDecl *variable) { return variable->hasLocalStorage(); },
        *escaping, ownOnly);
  }
  return !loweredBody || escaping->count(local->getCanonicalDecl()) > 0;
}

// The variable of local storage that `value` (parentheses and casts
// stripped) names: `&local`, `&local.part` (`address` set), or a local
// array or a parameter itself.
const VarDecl *FunctionLowering::namedLocal(const Expr *value, bool &address) {
  const auto *unary = dyn_cast<UnaryOperator>(value);
  address = unary && unary->getOpcode() == UO_AddrOf;
  const VarDecl *local = address                   ? storageVariable(unary->getSubExpr())
                         : isa<DeclRefExpr>(value) ? storageVariable(value)
                                                   : nullptr;
  return local && local->hasLocalStorage() ? local : nullptr;
}

// `pointer`, a parameter of this inlined body (or one bound to another in
// turn), points into a local of a caller whose address goes nowhere but to
// calls that keep it to themselves: the worker's queue on its own stack,
// spliced into and walked by the queue's inline functions, is its own.
bool FunctionLowering::pointsToPrivateLocal(const Expr *pointer) const {
  auto [argument, caller] = argumentOf(pointer);
  if (!argument)
    return false;
  const Expr *value = argument->IgnoreParenCasts();
  if (const auto *literal = dyn_cast<CompoundLiteralExpr>(value)) // a transparent union
    if (const auto *list = dyn_cast<InitListExpr>(literal->getInitializer());
        list && list->getNumInits() == 1)
      value = list->getInit(0)->IgnoreParenCasts();
  bool address = false;
  const VarDecl *local = namedLocal(value, address);
  if (!local)
    return false;
  if (address || local->getType()->isArrayType())
    return !caller->localAddressEscapes(local);
  return caller->pointsToPrivateLocal(value);
}

void FunctionLowering::collectEscapingAddresses(const Stmt *statement,
                                                std::vector<const Stmt *> &ancestors,
                                                llvm::function_ref<bool(const VarDecl *)> tracked,
                                                llvm::DenseSet<const VarDecl *> &escaping,
                                                bool ownOnly) const {
  if (!statement)
    return;
  if (const auto *reference = dyn_cast<DeclRefExpr>(statement)) {
    const auto *variable = dyn_cast<VarDecl>(reference->getDecl());
    if (!variable || !tracked(variable))
      return;
    // Up through the parts of the variable (`v.a.b`, `v.array[i]`) to
    // where its address is taken, if it is.
    const Stmt *current = statement;
    bool address = false;
    for (size_t up = ancestors.size(); up-- > 0;) {
      const Stmt *parent = ancestors[up];
      const auto *cast = dyn_cast<ImplicitCastExpr>(parent);
      const auto *member = dyn_cast<MemberExpr>(parent);
      const auto *unary = dyn_cast<UnaryOperator>(parent);
      const auto *subscript = dyn_cast<ArraySubscriptExpr>(parent);
      const auto *call = dyn_cast<CallExpr>(parent);
      bool escapes = false;
      // a pointer passed as a transparent union: `(union){&v}` as the argument
      bool unionValue = (isa<InitListExpr>(parent) || isa<CompoundLiteralExpr>(parent) ||
                         (cast && cast->getCastKind() == CK_ToUnion)) &&
                        cast_or_null<Expr>(parent)->getType()->isUnionType() && address;
      if (isa<ParenExpr>(parent) || (cast && cast->getCastKind() == CK_NoOp) ||
          (member && !member->isArrow() && !address) || unionValue) {
      } else if (cast && cast->getCastKind() == CK_ArrayToPointerDecay) {
        address = true;
      } else if (subscript && address && subscript->getBase() == current) {
        address = false; // an element, reached in place
      } else if (unary && unary->getOpcode() == UO_AddrOf) {
        address = true;
      } else if (call && address) {
        for (unsigned i = 0; i < call->getNumArgs(); i++)
          escapes = escapes || (call->getArg(i) == current && publishesArgument(call, i, ownOnly));
        if (escapes)
          escaping.insert(variable->getCanonicalDecl());
        return;
      } else {
        if (address)
          escaping.insert(variable->getCanonicalDecl());
        return;
      }
      current = parent;
    }
    return;
  }
  ancestors.push_back(statement);
  for (const Stmt *child : statement->children())
    collectEscapingAddresses(child, ancestors, tracked, escaping, ownOnly);
  ancestors.pop_back();
}

} // namespace barrierpair::lowering
