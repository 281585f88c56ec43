// Engine events and what a finding shows of them: barriers, accesses,
// threads' starts and joins, locks, the events an ordering primitive becomes,
// their locations and the text fix-its rewrite; and which read-modify-write
// is a reference count's put.
#include "function_lowering.h"

#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace barrierpair::lowering {

// ---- Locations ----

// Built when first asked: most bodies have no event whose text or result
// needs it while they are lowered.
ParentMap *FunctionLowering::parents() const {
  if (!parentMap && loweredBody) {
    ownParents = std::make_unique<ParentMap>(const_cast<Stmt *>(loweredBody));
    parentMap = ownParents.get();
  }
  return parentMap;
}

// Files are named by absolute paths, so the translation units of a program
// (each compiled in its own directory) agree on them.
const std::string &FunctionLowering::absolutePath(FileID id, StringRef name) const {
  auto [known, added] = unit.absolutePaths.try_emplace(id);
  if (added) {
    llvm::SmallString<256> path(name);
    sources.getFileManager().makeAbsolutePath(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    known->second = std::string(path);
  }
  return known->second;
}

bp_location FunctionLowering::engineLocation(SourceLocation location) const {
  return fileEngineLocation(sources.getExpansionLoc(location));
}

// `file`: a location in a file, not in a macro.
bp_location FunctionLowering::fileEngineLocation(SourceLocation file) const {
  if (file.isInvalid())
    return bp_location{0, 0, 0};
  auto [id, offset] = sources.getDecomposedLoc(file);
  auto known = unit.engineFiles.find(id);
  if (known == unit.engineFiles.end()) {
    OptionalFileEntryRef entry = sources.getFileEntryRefForID(id);
    if (!entry)
      return bp_location{0, 0, 0};
    uint32_t engineFile = bp_intern_file(engine, absolutePath(id, entry->getName()).c_str());
    known = unit.engineFiles.try_emplace(id, engineFile).first;
    files[engineFile] = id;
  }
  return bp_location{known->second, sources.getLineNumber(id, offset),
                     sources.getColumnNumber(id, offset)};
}

// An event of an inlined body written in a system header (a library's
// static inline function, installed) is reported at the call in the main
// file; one in a header of the program, where its code is.
bp_location FunctionLowering::eventLocation(SourceLocation location) const {
  SourceLocation written = sources.getExpansionLoc(location);
  if (site && !sources.isWrittenInMainFile(written) && sources.isInSystemHeader(written))
    return engineLocation(site->location);
  return fileEngineLocation(written);
}

SourceLocation FunctionLowering::fileLocation(SourceLocation location) const {
  SourceLocation file = sources.getExpansionLoc(location);
  return sources.isWrittenInMainFile(file) ? file : SourceLocation();
}

// The statement of a block (or a function body) that holds `statement`;
// a GNU statement expression, as CMM_LOAD_SHARED() expands to, is part of
// an expression, not a block of its own.
SourceLocation FunctionLowering::statementBegin(const Stmt *statement) const {
  const Stmt *current = statement;
  while (const Stmt *parent = parents()->getParent(current)) {
    if (isa<CompoundStmt>(parent) && !isa_and_nonnull<StmtExpr>(parents()->getParent(parent)))
      return fileLocation(current->getBeginLoc());
    current = parent;
  }
  return SourceLocation();
}

// The whitespace that starts the line holding `location`.
std::string FunctionLowering::indentationAt(SourceLocation location) const {
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
// a macro definition or a header. An event of a function lowered on its own
// gets its text when a finding reads it (fillDeferredText), where the unit
// defers it: most events are never a finding's.
void FunctionLowering::recordText(uint32_t event, const Stmt *statement, CharSourceRange ownText) {
  if (!site && unit.deferTexts) {
    DeferredText &text = deferredText(event);
    text.statement = statement;
    text.statementText = true;
    if (ownText.isValid())
      unit.deferredOwnTexts[event] = ownText;
    return;
  }
  writeText(event, statement, ownText);
}

void FunctionLowering::writeText(uint32_t event, const Stmt *statement, CharSourceRange ownText) {
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
  if (site) {
    bp_set_event_callee(engine, event, function->getNameAsString().c_str());
    if (const FunctionDecl *contract = enclosingContract())
      bp_set_event_contract(engine, event, contract->getNameAsString().c_str());
  }
}

// The innermost function a library's contract names whose call, lowered
// here, holds this body's code: this function or one of the callers it
// was lowered into, but not the root, whose own code is no call of it.
const FunctionDecl *FunctionLowering::enclosingContract() const {
  if (hasContract(function))
    return function;
  for (size_t i = site->stack.size(); i-- > 1;)
    if (hasContract(site->stack[i]))
      return site->stack[i];
  return nullptr;
}

// The record of `event`'s deferred text; events are recorded in order.
DeferredText &FunctionLowering::deferredText(uint32_t event) {
  std::vector<DeferredText> &texts = unit.deferredTexts;
  if (!texts.empty() && texts.back().event >= event) {
    // an earlier event's other text: its record is there, or goes in order
    auto at = std::lower_bound(
        texts.begin(), texts.end(), event,
        [](const DeferredText &text, uint32_t wanted) { return text.event < wanted; });
    if (at == texts.end() || at->event != event)
      (at = texts.insert(at, DeferredText()))->event = event;
    return *at;
  }
  if (unit.functionsByEvent.empty() || unit.functionsByEvent.back().second != function)
    unit.functionsByEvent.emplace_back(event, function);
  texts.emplace_back().event = event;
  return texts.back();
}

// The lvalue an access statement of lowerPlain accesses.
static const Expr *accessedLvalue(const Stmt *statement) {
  if (const auto *cast = dyn_cast_or_null<ImplicitCastExpr>(statement))
    return cast->getSubExpr();
  if (const auto *binary = dyn_cast_or_null<BinaryOperator>(statement))
    return binary->getLHS();
  if (const auto *unary = dyn_cast_or_null<UnaryOperator>(statement))
    return unary->getSubExpr();
  return nullptr;
}

// The engine's text source (bp_set_text_source) for a unit that defers
// its events' text: the AST is still there while its findings are read.
void FunctionLowering::fillDeferredText(void *context, bp_engine *engine, uint32_t event,
                                        bp_text_kind kind) {
  UnitState &unit = *static_cast<UnitState *>(context);
  auto found = std::lower_bound(
      unit.deferredTexts.begin(), unit.deferredTexts.end(), event,
      [](const DeferredText &text, uint32_t wanted) { return text.event < wanted; });
  if (found == unit.deferredTexts.end() || found->event != event)
    return;
  if (kind == BP_TEXT_ACCESS) {
    const Expr *lvalue = accessedLvalue(found->statement);
    if (!found->accessText || found->accessWritten || !lvalue)
      return;
    found->accessWritten = true;
    FunctionLowering lowering(*unit.context, engine, unit.files, unit);
    lowering.writeAccessText(event, lvalue, found->statement, bp_event_get(engine, event)->kind);
    return;
  }
  if (!found->statementText || found->placeWritten)
    return;
  found->placeWritten = true;
  auto owner =
      std::upper_bound(unit.functionsByEvent.begin(), unit.functionsByEvent.end(), event,
                       [](uint32_t wanted, const std::pair<uint32_t, const FunctionDecl *> &first) {
                         return wanted < first.first;
                       });
  if (owner == unit.functionsByEvent.begin())
    return;
  const FunctionDecl *function = std::prev(owner)->second;
  if (unit.parentsOf != function) {
    unit.parents = std::make_unique<ParentMap>(function->getBody());
    unit.parentsOf = function;
  }
  FunctionLowering lowering(*unit.context, engine, unit.files, unit);
  lowering.function = function;
  lowering.parentMap = unit.parents.get();
  lowering.writeText(event, found->statement, unit.deferredOwnTexts.lookup(event));
}

// ---- Events ----

void FunctionLowering::addBarrier(unsigned strength, int primitive, bool implicit,
                                  SourceLocation location, const Stmt *statement,
                                  CharSourceRange ownText) {
  uint32_t event =
      bp_add_barrier(engine, currentBlock, strength, primitive, implicit, eventLocation(location));
  recordText(event, statement, ownText);
  if (storedUnnamed)
    bp_set_after_unnamed_stores(engine, event);
}

uint32_t FunctionLowering::addAccess(const SharedObject &object, bp_access_kind kind, bool marked,
                                     int primitive, SourceLocation location,
                                     const Stmt *statement) {
  uint32_t objectId = internObject(object);
  uint32_t event = bp_add_access(engine, currentBlock, objectId, kind, marked, primitive,
                                 eventLocation(location));
  // KCSAN takes the accesses of a seqcount's sections for marked: the
  // reader's retry and the writers' lock keep the data whole
  if (unit.markedRegions || unit.markedNext)
    bp_set_marked_region(engine, event);
  recordText(event, statement);
  if (object.threadOwn)
    bp_set_thread_own(engine, event);
  // a lazy set-up's release of its flag and the acquire that checks it
  // (establishedFlags)
  if (const bp_primitive *used = bp_primitive_get(primitive);
      used && currentCfgBlock < storedInBlock.size()) {
    bool full = used->order == BP_ORDER_MB || used->order == BP_ORDER_SEQ_CST ||
                used->order == BP_ORDER_ACQ_REL;
    if (kind == BP_ACCESS_STORE && (full || used->order == BP_ORDER_RELEASE))
      addUnique(storedInBlock[currentCfgBlock], objectId);
    if (kind == BP_ACCESS_LOAD && (full || used->order == BP_ORDER_ACQUIRE))
      addUnique(acquiredInBlock[currentCfgBlock], objectId);
  }
  for (uint32_t guard : currentGuards())
    bp_add_guard(engine, event, guard);
  if (uint32_t flag = currentAfterSetUp(); flag != BP_NO_OBJECT)
    bp_set_after_set_up(engine, event, flag);
  llvm::SmallVector<ValueGuard, 2> guards = currentValueGuards();
  if (!guards.empty())
    bp_set_value_guard(engine, event, guards[0].object, guards[0].load, guards[0].bits,
                       guards[0].whenZero);
  if (guards.size() > 1)
    bp_set_outer_value_guard(engine, event, guards[1].object, guards[1].load, guards[1].bits,
                             guards[1].whenZero);
  return event;
}

// Where access `event` starts from (`lvalue`, or `pointer`: the pointer
// an atomic is given) and what holds its memory, and where the pointer its
// value is starts: the one a store writes (`value`), or the one a load's
// value is compared with (`loaded == p`; `loaded`: the expression whose
// value is the load's).
void FunctionLowering::addRoots(uint32_t event, const Expr *lvalue, const Expr *pointer,
                                const Expr *value, const Stmt *loaded) {
  const Expr *start = lvalue ? lvalue : pointer;
  if (!start)
    return;
  if (std::optional<uint32_t> root = rootOf(start)) {
    bp_set_access_root(engine, event, *root,
                       (lvalue ? containerOf(lvalue) : pointedContainer(pointer)).c_str());
    if (const std::string *subtype = subtypeOf(*root))
      bp_set_access_subtype(engine, event, subtype->c_str());
  }
  if (!value && loaded)
    value = comparedPointer(loaded);
  // the kernel's rcu_assign_pointer() stores `(T *)v` of an integer local
  // that holds the pointer
  if (value && (value->IgnoreParens()->getType()->isPointerType() ||
                value->IgnoreParenCasts()->getType()->isPointerType()))
    if (std::optional<uint32_t> root = rootOf(value))
      bp_set_value_root(engine, event, *root);
}

// The pointer that the value of `loaded`, a pointer, is tested equal to
// (`if (load(&slot->value) == value)`).
const Expr *FunctionLowering::comparedPointer(const Stmt *loaded) const {
  const auto *expression = dyn_cast_or_null<Expr>(loaded);
  if (!expression || !expression->IgnoreParenCasts()->getType()->isPointerType() || !parents())
    return nullptr;
  const Stmt *current = expression;
  const Stmt *parent = parents()->getParent(current);
  for (;;) {
    // the value of `({ ...; load; })` (CMM_LOAD_SHARED()) is its last statement's
    if (const auto *body = dyn_cast_or_null<CompoundStmt>(parent);
        body && !body->body_empty() && body->body_back() == current &&
        isa_and_nonnull<StmtExpr>(parents()->getParent(body)))
      parent = parents()->getParent(body);
    else if (const auto *unary = dyn_cast_or_null<UnaryOperator>(parent);
             !(unary && unary->getOpcode() == UO_Extension) &&
             !isa_and_nonnull<ParenExpr>(parent) && !isa_and_nonnull<CastExpr>(parent))
      break;
    current = parent;
    parent = parents()->getParent(current);
  }
  const auto *comparison = dyn_cast_or_null<BinaryOperator>(parent);
  if (!comparison || !comparison->isEqualityOp())
    return nullptr;
  return comparison->getLHS() == current ? comparison->getRHS() : comparison->getLHS();
}

// Where access `event`'s memory comes from: the loads its address is
// computed from, and whether it is memory not yet published.
void FunctionLowering::addProvenance(uint32_t event, const Expr *lvalue) {
  if (!lvalue)
    return;
  llvm::SmallVector<uint32_t, 2> addressSources;
  collectAddressSources(lvalue, addressSources);
  for (uint32_t source : addressSources)
    bp_add_address_source(engine, event, source);
  const VarDecl *base = baseLocal(lvalue);
  if (isOtherUnitReturn(base)) {
    // fresh where the function that returned it is an allocator, until a
    // call or a store hands it on
    if (!publishedHere.count(allocation(base))) {
      bp_set_unpublished_if_kept(engine, event, allocationNumber(base));
      bp_set_allocation_source(engine, event,
                               returnedByOtherUnit.find(allocation(base))->second.c_str());
    }
    return;
  }
  std::optional<unsigned> parameter = entryParameter(base);
  if (isUnpublished(lvalue)) {
    if (parameter && !initialisedParameter(*parameter))
      bp_set_unpublished_if_fresh(engine, event, *parameter);
    else
      bp_set_unpublished(engine, event);
  } else if (base && !parameter && allocatedLocals.count(base) &&
             !takenLists.count(allocation(base)) && !ownPublishedHere.count(allocation(base))) {
    // only calls of other units' functions had it: unpublished if they keep it
    bp_set_unpublished_if_kept(engine, event, allocationNumber(base));
  }
}

// The text of `range` when it is written as it is in the main file (not
// produced by a macro), so that a fix-it can rewrite it.
std::optional<std::string> FunctionLowering::mainFileText(SourceRange range) const {
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
void FunctionLowering::recordAccessText(uint32_t event, const Expr *lvalue, const Stmt *statement,
                                        bp_access_kind kind) {
  if (!site && unit.deferTexts) {
    DeferredText &text = deferredText(event);
    text.statement = statement;
    text.accessText = true;
    return;
  }
  writeAccessText(event, lvalue, statement, kind);
}

void FunctionLowering::writeAccessText(uint32_t event, const Expr *lvalue, const Stmt *statement,
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
const CallExpr *FunctionLowering::callOf(const PrimitiveUse &use) {
  const Stmt *root = use.root;
  while (root && !isa<CallExpr>(root)) {
    auto children = root->children();
    root = children.empty() ? nullptr : *children.begin();
  }
  return dyn_cast_or_null<CallExpr>(root);
}

// The value a read-modify-write primitive combines with its object: its
// call's second argument, or a C11 builtin's value.
const Expr *FunctionLowering::operand(const PrimitiveUse &use) {
  for (const Stmt *root = use.root; root;) {
    // a bit number first, then the word (the kernel's `set_bit(nr, addr)`)
    if (const auto *call = dyn_cast<CallExpr>(root);
        call && call->getNumArgs() == 2 && bp_primitive_get(use.primitive) &&
        bp_primitive_get(use.primitive)->op == BP_OP_BIT &&
        call->getArg(0)->IgnoreParenImpCasts()->getType()->isIntegerType() &&
        call->getArg(1)->IgnoreParenImpCasts()->getType()->isPointerType())
      return call->getArg(0);
    if (const auto *call = dyn_cast<CallExpr>(root))
      return call->getNumArgs() >= 2 ? call->getArg(1) : nullptr;
    if (const auto *atomic = dyn_cast<AtomicExpr>(root))
      return atomic->getNumSubExprs() >= 3 ? atomic->getVal1() : nullptr;
    auto children = root->children();
    root = children.empty() ? nullptr : *children.begin();
  }
  return nullptr;
}

// The variable or field a thread handle argument is (or is an element of):
// `&thread`, `thread`, `&threads[i]`, `&pool->tid` (the thread started
// into that field of any instance).
const ValueDecl *FunctionLowering::handleOf(const CallExpr *call) {
  if (!call || call->getNumArgs() == 0)
    return nullptr;
  const Expr *handle = call->getArg(0)->IgnoreParenImpCasts();
  if (const auto *address = dyn_cast<UnaryOperator>(handle);
      address && address->getOpcode() == UO_AddrOf)
    handle = address->getSubExpr()->IgnoreParenImpCasts();
  while (const auto *element = dyn_cast<ArraySubscriptExpr>(handle))
    handle = element->getBase()->IgnoreParenImpCasts();
  if (const auto *member = dyn_cast<MemberExpr>(handle))
    return dyn_cast<FieldDecl>(member->getMemberDecl());
  const auto *reference = dyn_cast<DeclRefExpr>(handle);
  return reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
}

// A join of a handle a start in this translation unit filled.
void FunctionLowering::addJoin(const PrimitiveUse &use) {
  auto thread = unit.threads.find(handleOf(callOf(use)));
  if (thread != unit.threads.end())
    bp_add_join(engine, currentBlock, thread->second.c_str(), use.primitive,
                eventLocation(use.location));
}

// The thread function a thread start's arguments name.
void FunctionLowering::addSpawn(const PrimitiveUse &use) {
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
      if (const ValueDecl *handle = handleOf(call))
        unit.threads[handle] = thread->getNameAsString();
      return;
    }
  }
}

// The lock a lock primitive's first argument points to.
// The lock a lock primitive's use names. A call's first argument, where
// the call is the first one in the use's code: the kernel writes
// spin_lock_irqsave() as `do { typecheck(unsigned long, flags); flags =
// _raw_spin_lock_irqsave(spinlock_check(lock)); } while (0)`, whose first
// child holds no call. A call of one pointer that only hands the lock on
// (`spinlock_check(lock)`) is stepped through, so the lock
// is named as its unlock names it. Where no call is left (lockdep_assert_held()
// with lockdep off: `do { (void)(l); } while (0)`), the first pointer.
const Expr *FunctionLowering::lockArgument(const Stmt *root) {
  llvm::SmallVector<const Stmt *, 16> pending{root};
  const Expr *firstPointer = nullptr;
  while (!pending.empty()) {
    const Stmt *statement = pending.pop_back_val();
    if (!statement)
      continue;
    if (const auto *call = dyn_cast<CallExpr>(statement)) {
      if (call->getNumArgs() == 0)
        return nullptr;
      const Expr *argument = call->getArg(0)->IgnoreParenImpCasts();
      while (const auto *handOn = dyn_cast<CallExpr>(argument)) {
        if (handOn->getNumArgs() != 1 || !handOn->getDirectCallee() ||
            !handOn->getArg(0)->getType()->isPointerType())
          break;
        argument = handOn->getArg(0)->IgnoreParenImpCasts();
      }
      return argument;
    }
    if (const auto *expression = dyn_cast<Expr>(statement);
        expression && !firstPointer && expression->getType()->isPointerType())
      firstPointer = expression;
    llvm::SmallVector<const Stmt *, 4> children(statement->children());
    pending.append(children.rbegin(), children.rend());
  }
  return firstPointer;
}

static bool isLockType(QualType type) {
  static const char *const names[] = {"spinlock_t",         "raw_spinlock_t",     "rwlock_t",
                                      "pthread_mutex_t",    "pthread_spinlock_t", "struct mutex",
                                      "struct rw_semaphore"};
  std::string name = type.getUnqualifiedType().getAsString();
  for (const char *lockName : names)
    if (name == lockName)
      return true;
  return false;
}

// The members, outermost first, down to the first one of a lock type, depth
// first (`struct sock`: `sk_lock.slock`).
static bool findLockMember(const RecordDecl *record, llvm::SmallVectorImpl<const FieldDecl *> &path,
                           unsigned depth) {
  for (const FieldDecl *field : record->fields()) {
    path.push_back(field);
    if (isLockType(field->getType()))
      return true;
    if (const RecordDecl *inner = field->getType()->getAsRecordDecl();
        inner && depth < 4 && (inner = inner->getDefinition()) &&
        findLockMember(inner, path, depth + 1))
      return true;
    path.pop_back();
  }
  return false;
}

// A lock primitive handed a whole structure (`lock_sock(sk)`) takes the
// structure's lock: its first member of a lock type, named as a use of that
// member names it (`bh_lock_sock(sk)`, `spin_lock(&sk->sk_lock.slock)`).
std::optional<SharedObject> FunctionLowering::nameStructureLock(const Expr *pointer) const {
  QualType pointee = pointer->getType()->getPointeeType();
  const RecordDecl *record = pointee.isNull() ? nullptr : pointee->getAsRecordDecl();
  llvm::SmallVector<const FieldDecl *, 4> path;
  if (!record || isLockType(pointee) || !(record = record->getDefinition()) ||
      !findLockMember(record, path, 0))
    return std::nullopt;
  const FieldNames &outer = fieldNames(path.front());
  if (outer.key.empty())
    return std::nullopt;
  std::optional<SharedObject> base;
  if (auto [argument, caller] = argumentOf(pointer); argument)
    base = caller->nameThroughPointer(argument);
  SharedObject lock = base && !base->threadOwn
                          ? instanceField(*base, outer.key, path.front()->getNameAsString())
                          : SharedObject{outer.key, outer.display, false};
  for (const FieldDecl *field : llvm::ArrayRef(path).drop_front()) {
    const FieldNames &names = fieldNames(field);
    if (names.key.empty())
      return std::nullopt;
    lock = instanceField(lock, names.key, field->getNameAsString());
  }
  return lock;
}

// A bit lock (Documentation/atomic_bitops.txt): test_and_set_bit_lock(), a
// test-and-set of a bit with acquire order, takes the bit as a lock where
// it returns zero, when the block's test reads it (`if
// (!test_and_set_bit_lock(...))`, bit_spin_lock()'s `while`); a clear with
// release order gives it back. The lock is the word's object: two bit locks
// of one word are one lock here. Called after the read-modify-write's own
// events; true where it made the blocks of a tested test-and-set.
bool FunctionLowering::lowerBitLock(const PrimitiveUse &use, bp_order order,
                                    const SharedObject &word) {
  const bp_primitive &primitive = *bp_primitive_get(use.primitive);
  if (primitive.op != BP_OP_BIT || (order != BP_ORDER_ACQUIRE && order != BP_ORDER_RELEASE))
    return false;
  uint32_t lock = internObject(word);
  bp_location location = eventLocation(use.location);
  if (order == BP_ORDER_RELEASE) {
    bp_add_lock(engine, currentBlock, lock, false, use.primitive, location);
    return false;
  }
  return lockWhereTested(use, lock, 0);
}

// The lock `use` takes, in a block of its own on the branch of the block's
// test where the call's value is `takenAs` (a bit lock's test-and-set: 0; a
// trylock: non-zero, or 0 for POSIX's); false where no test reads the value.
bool FunctionLowering::lockWhereTested(const PrimitiveUse &use, uint32_t lock, int64_t takenAs) {
  const auto *call = dyn_cast<Expr>(use.root);
  if (!call || testedSwap || !testDecidedBy(call))
    return false;
  uint32_t tested = currentBlock;
  uint32_t taken = bp_add_block(engine);
  bp_add_lock(engine, taken, lock, true, use.primitive, eventLocation(use.location));
  uint32_t busy = bp_add_block(engine);
  testedSwap = TestedSwap{call, nullptr, taken, busy, bp_event_count(engine), takenAs};
  currentBlock = tested;
  return true;
}

std::optional<SharedObject> FunctionLowering::lockOf(const PrimitiveUse &use) const {
  std::optional<SharedObject> lock;
  if (const Expr *argument = lockArgument(use.root)) {
    lock = nameThroughPointer(argument);
    if (!lock)
      lock = nameStructureLock(argument);
  }
  return lock;
}

// A lock that may fail is held where the block's test says it was taken
// (`if (spin_trylock(&inode->i_lock))`, `if (pthread_mutex_trylock(&m) ==
// 0)`): the lock in a block of its own on that branch, as a bit lock's
// test-and-set. A value nobody tests says nothing of what is held.
void FunctionLowering::addTryLock(const PrimitiveUse &use, int64_t takenAs) {
  if (std::optional<SharedObject> lock = lockOf(use))
    lockWhereTested(use, internObject(*lock), takenAs);
}

void FunctionLowering::addLock(const PrimitiveUse &use, bool acquire) {
  std::optional<SharedObject> lock = lockOf(use);
  if (!lock)
    return;
  uint32_t event =
      bp_add_lock(engine, acquire ? conditionalLockBlock(use.root) : currentBlock,
                  internObject(*lock), acquire, use.primitive, eventLocation(use.location));
  if (acquire) {
    unit.lastLock = event;
    unit.eventsAtLastLock = bp_event_count(engine);
  }
}

// The only statement `statement` is (itself, or a block of it alone).
static const Stmt *soleStatement(const Stmt *statement) {
  while (const auto *block = dyn_cast_or_null<CompoundStmt>(statement)) {
    if (block->size() != 1)
      return nullptr;
    statement = block->body_front();
  }
  return statement;
}

static bool sameExpression(const ASTContext &context, const Expr *a, const Expr *b) {
  llvm::FoldingSetNodeID first, second;
  a->IgnoreParenImpCasts()->Profile(first, context, true);
  b->IgnoreParenImpCasts()->Profile(second, context, true);
  return first == second;
}

// A condition whose variables keep their values through the body: its
// parameters and locals are written only by their initialisation.
bool FunctionLowering::stableCondition(const Expr *condition) const {
  bool stable = true;
  std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
    if (!statement || !stable)
      return;
    if (const auto *reference = dyn_cast<DeclRefExpr>(statement))
      if (const auto *variable = dyn_cast<VarDecl>(reference->getDecl()))
        stable = !variable->hasGlobalStorage() && writtenOnlyByInit(variable);
    for (const Stmt *child : statement->children())
      walk(child);
  };
  walk(condition);
  return stable;
}

// A lock taken only where a condition holds, and released further on only
// where the same condition holds again (`if (flags & BIND_WITH_LOCK)
// lock_sock(sk); ... if (flags & BIND_WITH_LOCK) release_sock(sk);`):
// where it does not hold, the caller holds the lock (that is what the
// condition tells), so the code between runs under the lock either way.
// The engine block that ends where the condition is tested, where the lock
// is taken as if before the test; else currentBlock.
uint32_t FunctionLowering::conditionalLockBlock(const Stmt *lockUse) const {
  ParentMap *map = parents();
  const auto *use = dyn_cast<Expr>(lockUse);
  Stmt *parent = map && use ? map->getParentIgnoreParenImpCasts(const_cast<Expr *>(use)) : nullptr;
  while (isa_and_nonnull<CompoundStmt>(parent) && soleStatement(parent))
    parent = map->getParentIgnoreParenImpCasts(parent);
  const auto *test = dyn_cast_or_null<IfStmt>(parent);
  if (!test || test->getElse() || !test->getCond() || !blockTails || !loweredCfg ||
      !isa_and_nonnull<Expr>(soleStatement(test->getThen())) ||
      cast<Expr>(soleStatement(test->getThen()))->IgnoreParenImpCasts() !=
          use->IgnoreParenImpCasts() ||
      !stableCondition(test->getCond()))
    return currentBlock;
  const Expr *lock = lockArgument(lockUse);
  bool released = false;
  std::function<void(const Stmt *)> walk = [&](const Stmt *statement) {
    if (!statement || released)
      return;
    if (const auto *other = dyn_cast<IfStmt>(statement);
        other && other != test && !other->getElse() && other->getCond() &&
        sources.isBeforeInTranslationUnit(test->getBeginLoc(), other->getBeginLoc()) &&
        sameExpression(context, test->getCond(), other->getCond()))
      if (const Stmt *unlock = soleStatement(other->getThen())) {
        int primitive = calledPrimitive(unlock);
        const Expr *unlocked = lockArgument(unlock);
        released = primitive != BP_NO_PRIMITIVE &&
                   bp_primitive_get(primitive)->op == BP_OP_UNLOCK && lock && unlocked &&
                   sameExpression(context, lock, unlocked);
      }
    for (const Stmt *child : statement->children())
      walk(child);
  };
  walk(loweredBody);
  if (!released)
    return currentBlock;
  for (const CFGBlock *block : *loweredCfg)
    if (block->getTerminatorStmt() == test && block->getBlockID() < blockTails->size())
      return (*blockTails)[block->getBlockID()];
  return currentBlock;
}

std::optional<int64_t> FunctionLowering::evaluate(const Expr *expression) const {
  Expr::EvalResult result;
  if (expression && !expression->isValueDependent() && expression->EvaluateAsInt(result, context))
    return result.Val.getInt().getExtValue();
  return std::nullopt;
}

// The memory order of a C11 or GCC atomic operation inside `statement`.
std::optional<bp_order> FunctionLowering::findOrder(const Stmt *statement) const {
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

// An ordering primitive becomes: [barrier before] access(es) [barrier after].
void FunctionLowering::emitOpaque(const PrimitiveUse &use) {
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
  if (primitive.op == BP_OP_MARKED_BEGIN || primitive.op == BP_OP_MARKED_END) {
    if (primitive.op == BP_OP_MARKED_BEGIN)
      unit.markedRegions++;
    else if (unit.markedRegions)
      unit.markedRegions--;
    return;
  }
  if (primitive.op == BP_OP_MARKED_NEXT) {
    const auto *call = dyn_cast_or_null<CallExpr>(use.root);
    std::optional<int64_t> count =
        call && call->getNumArgs() ? knownValue(call->getArg(0)) : std::nullopt;
    unit.markedNext = !count || *count != 0;
    return;
  }
  if (bp_op_is_trylock(primitive.op)) {
    addTryLock(use, primitive.op == BP_OP_TRYLOCK || primitive.op == BP_OP_READ_TRYLOCK ? 1 : 0);
    return;
  }
  if (bp_op_is_lock(primitive.op)) {
    addLock(use, primitive.op != BP_OP_UNLOCK);
    return;
  }
  if (primitive.op == BP_OP_FENCE && order == BP_ORDER_UNLOCK_LOCK) {
    if (unit.lastLock != BP_NO_EVENT && unit.eventsAtLastLock == bp_event_count(engine))
      bp_set_after_unlock_lock(engine, unit.lastLock);
    return;
  }
  if (primitive.op == BP_OP_FENCE) {
    // A compiler barrier written in another macro's body (the kernel's
    // preempt_disable(), a tracepoint's) keeps that macro's own code in
    // place on this CPU; it is no claim of an order that another CPU's
    // barrier pairs with. One written in the code still is.
    if (order == BP_ORDER_COMPILER && use.location.isMacroID() &&
        sources.isMacroBodyExpansion(use.location))
      return;
    addBarrier(bp_order_strength(order), use.primitive, false, use.location, use.root, use.text);
    return;
  }
  unsigned before = 0, after = 0;
  switch (order) {
  case BP_ORDER_MB:
    before = after = BP_STRENGTH_FULL;
    break;
  case BP_ORDER_SEQ_CST:
    if (bp_op_is_rmw(primitive.op)) {
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
  case BP_ORDER_PUBLISH:
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
  std::optional<SharedObject> target = findTarget(use.root, &lvalue);
  // A bit operation handed a pointer variable (bit_spin_lock()'s `addr`,
  // bound to its caller's `&b->first`) reaches the word it points to.
  QualType accessed = lvalue ? lvalue->getType() : QualType();
  if (const Expr *word = bitWord(use); !target && word) {
    target = nameDereferenced(word);
    accessed = word->getType()->getPointeeType();
  }
  // A compare-and-swap the block's test reads stores only where it
  // succeeded: its store and the barrier after it in a block of their own,
  // the barrier alone in another for the failure (endTestedSwap joins them).
  // One that returns the old value stores where the test finds it equal
  // to the value it expected (`if (uatomic_cmpxchg(&tail->p, node, head) ==
  // node)`).
  const auto *swap = dyn_cast<Expr>(use.root);
  const Expr *expected = nullptr;
  if (swap && !bp_primitive_reports_store(use.primitive) && bp_op_is_rmw(primitive.op))
    expected = comparedValue(use);
  if (!target || !swap || testedSwap ||
      !(bp_primitive_reports_store(use.primitive)
            ? testDecidedBy(swap)
            : expected && holdsWhenSwapped(blockTest, swap, expected).has_value()))
    swap = nullptr;
  uint32_t loaded = currentBlock, succeeded = 0;
  if (target) {
    if (primitive.op != BP_OP_STORE) {
      uint32_t load =
          addAccess(*target, BP_ACCESS_LOAD, true, use.primitive, use.location, use.root);
      addProvenance(load, lvalue);
      addRoots(load, lvalue, pointerOperand(use),
               bp_op_is_rmw(primitive.op) ? comparedValue(use) : nullptr, use.root);
      if (bp_op_is_rmw(primitive.op) && resultDropped(use.root))
        bp_set_value_unused(engine, load);
      if (primitive.op == BP_OP_LOAD)
        if (uint64_t bits = testedBits(dyn_cast<Expr>(use.root)))
          bp_set_access_bits(engine, load, bits);
      // a test-and-set returns the one bit it numbers
      if (primitive.op == BP_OP_BIT && !accessed.isNull())
        if (uint64_t bits = changedBits(primitive.op, operand(use), accessed))
          bp_set_access_bits(engine, load, bits);
    }
    if (swap)
      succeeded = currentBlock = bp_add_block(engine);
    if (primitive.op != BP_OP_LOAD) {
      uint32_t store =
          addAccess(*target, BP_ACCESS_STORE, true, use.primitive, use.location, use.root);
      addProvenance(store, lvalue);
      const Expr *written = storedPointer(use, primitive.op);
      if (written && !written->IgnoreParens()->getType()->isPointerType() &&
          !written->IgnoreParenCasts()->getType()->isPointerType())
        written = nullptr;
      addRoots(store, lvalue, pointerOperand(use), written ? written : comparedValue(use), nullptr);
      if (bp_op_is_rmw(primitive.op) && isReferencePut(use, lvalue))
        bp_set_reference_put(engine, store);
      if (!accessed.isNull())
        if (uint64_t bits = changedBits(primitive.op, operand(use), accessed))
          bp_set_access_bits(engine, store, bits);
      // A store of a loaded value depends on the load, as a plain one does.
      llvm::SmallVector<uint32_t, 2> dataSources;
      // an exchange stores its value as a store does (`xchg(&p, NULL)`)
      bool exchanges = bp_primitive_exchanges(use.primitive);
      if (primitive.op == BP_OP_STORE || exchanges) {
        const Expr *value = storedValue(use.root);
        if (!value && exchanges)
          value = exchangedValue(use.root);
        collectObjectsRead(value, dataSources);
        if (value) {
          if (std::optional<int64_t> constant = boundValue(value))
            bp_set_stored_value(engine, store, *constant);
          else if (incrementsGuardedValue(value, bp_event_get(engine, store)->object))
            bp_set_stored_increment(engine, store);
          else if (knownNonZero(value))
            bp_set_stored_nonzero(engine, store);
          noteStoredAddress(store, value);
        }
      }
      for (uint32_t source : dataSources)
        bp_add_value_source(engine, store, source);
    }
  }
  if (after)
    addBarrier(after, use.primitive, true, use.location, use.root);
  if (target && lowerBitLock(use, order, *target))
    return;
  if (!swap)
    return;
  uint32_t failed = currentBlock = bp_add_block(engine);
  if (after)
    addBarrier(after, use.primitive, true, use.location, use.root);
  currentBlock = loaded;
  testedSwap = TestedSwap{swap, expected, succeeded, failed, bp_event_count(engine)};
}

// The pointer to the word a bit operation's call works on, where it is a
// variable, not `&lvalue` (findTarget names that one).
const Expr *FunctionLowering::bitWord(const PrimitiveUse &use) {
  const bp_primitive *primitive = bp_primitive_get(use.primitive);
  const auto *call = dyn_cast<CallExpr>(use.root);
  if (!primitive || primitive->op != BP_OP_BIT || !call || call->getNumArgs() != 2)
    return nullptr;
  for (const Expr *argument : call->arguments())
    if (argument->getType()->isPointerType() && isa<DeclRefExpr>(argument->IgnoreParenCasts()))
      return argument;
  return nullptr;
}

// Whether the code drops the value of `root` (a statement of its own, or a
// cast to void): a read-modify-write done only for its write.
bool FunctionLowering::resultDropped(const Stmt *root) const {
  const auto *expression = dyn_cast<Expr>(root);
  if (!expression || !parents())
    return false;
  return expression->getType()->isVoidType() ||
         !parents()->isConsumedExpr(const_cast<Expr *>(expression));
}

// ---- Bits ----

// The bits of its object that a load's value (`value`, an integer) is
// tested through: the value is one side of `& mask`, through parentheses,
// casts and the statement expression CMM_LOAD_SHARED() expands to. 0: all
// of them (the value is used some other way).
uint64_t FunctionLowering::testedBits(const Expr *value) const {
  if (!value || !value->getType()->isIntegerType() || !loweredBody)
    return 0;
  if (!maskedValues) {
    maskedValues.emplace();
    returnedValues.clear();
    collectMaskedValues(loweredBody);
  }
  if (uint64_t bits = maskedValues->lookup(value))
    return bits;
  // `return READ_ONCE(v->counter);` in a helper its caller masks
  if (site && returnedValues.count(value))
    return site->caller->testedBits(site->call);
  return 0;
}

std::optional<std::pair<const Expr *, int64_t>>
FunctionLowering::constantOperand(const BinaryOperator *binary) const {
  if (std::optional<int64_t> right = evaluate(binary->getRHS()))
    return std::make_pair(binary->getLHS(), *right);
  if (std::optional<int64_t> left = evaluate(binary->getLHS()))
    return std::make_pair(binary->getRHS(), *left);
  return std::nullopt;
}

// Calls `visit` on `value` and on each expression below it whose value is
// the same, down to the load.
template <typename Visit> void FunctionLowering::walkValue(const Expr *value, Visit visit) {
  while (value) {
    visit(value);
    if (const auto *cast = dyn_cast<CastExpr>(value)) {
      if (cast->getCastKind() == CK_LValueToRValue || !cast->getType()->isIntegerType())
        return; // the load itself
      value = cast->getSubExpr();
    } else if (const auto *parens = dyn_cast<ParenExpr>(value)) {
      value = parens->getSubExpr();
    } else if (const auto *unary = dyn_cast<UnaryOperator>(value);
               unary && unary->getOpcode() == UO_Extension) {
      value = unary->getSubExpr();
    } else if (const auto *expression = dyn_cast<StmtExpr>(value)) {
      const CompoundStmt *block = expression->getSubStmt();
      value = block->body_empty() ? nullptr : dyn_cast<Expr>(block->body_back());
    } else {
      return;
    }
  }
}

// Indexes, under each `value & mask` of `statement`, the expressions whose
// value is the one masked, down to the load (a walk of the body, cheaper
// than its parent map), and the values it returns.
void FunctionLowering::collectMaskedValues(const Stmt *statement) const {
  for (const Stmt *child : statement->children())
    if (child)
      collectMaskedValues(child);
  if (const auto *returned = dyn_cast<ReturnStmt>(statement)) {
    if (site && returned->getRetValue() && returned->getRetValue()->getType()->isIntegerType())
      walkValue(returned->getRetValue(), [&](const Expr *value) { returnedValues.insert(value); });
    return;
  }
  const auto *binary = dyn_cast<BinaryOperator>(statement);
  if (!binary || binary->getOpcode() != BO_And)
    return;
  auto split = constantOperand(binary);
  if (!split)
    return;
  uint64_t bits = withinWidth(static_cast<uint64_t>(split->second), split->first->getType());
  walkValue(split->first, [&](const Expr *value) { maskedValues->try_emplace(value, bits); });
}

// The bits of an object of `type` that a read-modify-write `op` with the
// value `argument` changes; 0: any of them (the value is not a constant).
uint64_t FunctionLowering::changedBits(bp_op op, const Expr *argument, QualType type) const {
  std::optional<int64_t> value = argument ? boundValue(argument) : std::nullopt;
  if (!value)
    return 0;
  uint64_t bits = static_cast<uint64_t>(*value);
  if (op == BP_OP_AND)
    bits = ~bits;
  else if (op == BP_OP_BIT)
    bits = *value >= 0 && *value < 64 ? uint64_t{1} << *value : 0;
  else if (op != BP_OP_OR && op != BP_OP_XOR)
    return 0;
  return withinWidth(bits, type);
}

uint64_t FunctionLowering::withinWidth(uint64_t bits, QualType type) const {
  if (type.isNull() || type->isIncompleteType() || type->isDependentType())
    return bits;
  uint64_t width = context.getTypeSize(type);
  return width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
}

// ---- Reference counts ----

// Whether the read-modify-write `use` of `lvalue` (a field of what a
// pointer `p` points to) is a reference count's put: it subtracts, and
// its result decides a call that is handed `p` itself (`if
// (__atomic_sub_fetch(&json->refcount, 1, __ATOMIC_RELEASE) == 0)
// json_delete(json)`; liburcu's `res = uatomic_sub_return(&ref->refcount,
// 1); if (res == 0) release(ref)`). A call handed another field of the
// same memory (`futex_wake_up(&c->futex)` after a countdown) is no put.
bool FunctionLowering::isReferencePut(const PrimitiveUse &use, const Expr *lvalue) const {
  StringRef name = bp_primitive_get(use.primitive)->name;
  if ((!name.contains("sub") && !name.contains("dec")) || !lvalue || !parents() || !function)
    return false;
  const VarDecl *counted = baseLocal(lvalue);
  if (!counted)
    return false;
  const Stmt *current = use.root;
  while (const Stmt *parent = parents()->getParent(current)) {
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
bool FunctionLowering::returns(const Stmt *statement) {
  if (const auto *block = dyn_cast_or_null<CompoundStmt>(statement))
    statement = block->body_empty() ? nullptr : block->body_back();
  return isa_and_nonnull<ReturnStmt>(statement);
}

// Whether a statement after `branch` in its block hands `counted` over.
bool FunctionLowering::handsOverAfter(const Stmt *branch, const VarDecl *counted) const {
  const auto *block = dyn_cast_or_null<CompoundStmt>(parents()->getParent(branch));
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
bool FunctionLowering::testedThenHandedOver(const Stmt *statement, const VarDecl *result,
                                            const VarDecl *counted) {
  if (!statement)
    return false;
  if (const auto *branch = dyn_cast<IfStmt>(statement);
      branch && mentions(branch->getCond(), result, false) && handsOver(branch->getThen(), counted))
    return true;
  for (const Stmt *child : statement->children())
    if (testedThenHandedOver(child, result, counted))
      return true;
  return false;
}

// A call in `statement` with an argument that is `counted` (through casts
// and pointer arithmetic, not one of its fields).
bool FunctionLowering::handsOver(const Stmt *statement, const VarDecl *counted) {
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

bool FunctionLowering::mentions(const Stmt *statement, const VarDecl *variable, bool skipFields) {
  if (!statement || (skipFields && isa<MemberExpr>(statement)))
    return false;
  if (const auto *reference = dyn_cast<DeclRefExpr>(statement))
    return reference->getDecl() == variable;
  for (const Stmt *child : statement->children())
    if (mentions(child, variable, skipFields))
      return true;
  return false;
}

// The call or atomic builtin a primitive's use comes down to: the first
// one down the first children of its root.
static const Stmt *callOrAtomic(const PrimitiveUse &use) {
  for (const Stmt *root = use.root; root;) {
    if (isa<CallExpr>(root) || isa<AtomicExpr>(root))
      return root;
    auto children = root->children();
    root = children.empty() ? nullptr : *children.begin();
  }
  return nullptr;
}

// The pointer an atomic primitive is given: its call's first argument, an
// atomic builtin's pointer.
const Expr *FunctionLowering::pointerOperand(const PrimitiveUse &use) {
  const Stmt *root = callOrAtomic(use);
  if (const auto *call = dyn_cast_or_null<CallExpr>(root))
    return call->getNumArgs() >= 1 ? call->getArg(0) : nullptr;
  if (const auto *atomic = dyn_cast_or_null<AtomicExpr>(root))
    return atomic->getPtr();
  return nullptr;
}

// The value a store or read-modify-write primitive writes, where it may be
// a pointer: a store's value, an exchange's, a compare-and-swap's new value
// (the third argument; an atomic builtin's desired value).
const Expr *FunctionLowering::storedPointer(const PrimitiveUse &use, bp_op op) {
  if (op == BP_OP_STORE)
    return storedValue(use.root);
  if (op != BP_OP_RMW)
    return nullptr;
  const Stmt *root = callOrAtomic(use);
  if (const auto *call = dyn_cast_or_null<CallExpr>(root))
    return call->getNumArgs() >= 3   ? call->getArg(2)
           : call->getNumArgs() == 2 ? call->getArg(1)
                                     : nullptr;
  if (const auto *atomic = dyn_cast_or_null<AtomicExpr>(root)) {
    if (atomic->isCmpXChg())
      return atomic->getVal2();
    return atomic->getNumSubExprs() >= 3 ? atomic->getVal1() : nullptr;
  }
  return nullptr;
}

// The value a compare-and-swap expects: its call's second argument of
// three, an atomic builtin's expected value (a pointer to it, `&head`).
const Expr *FunctionLowering::comparedValue(const PrimitiveUse &use) {
  const Stmt *root = callOrAtomic(use);
  if (const auto *call = dyn_cast_or_null<CallExpr>(root))
    return call->getNumArgs() >= 3 ? call->getArg(1) : nullptr;
  const auto *atomic = dyn_cast_or_null<AtomicExpr>(root);
  if (!atomic || !atomic->isCmpXChg())
    return nullptr;
  const Expr *expected = atomic->getVal1()->IgnoreParenCasts();
  if (const auto *address = dyn_cast<UnaryOperator>(expected);
      address && address->getOpcode() == UO_AddrOf)
    return address->getSubExpr();
  return nullptr;
}

// The value a store primitive writes: its call's second argument
// (ck_pr_store_uint(&x, v)), an atomic builtin's value (__atomic_store_n).
// A macro written as a statement (the kernel's rcu_assign_pointer(), a
// `do { } while (0)` around a WRITE_ONCE() or an smp_store_release()):
// the value of the first store in it.
const Expr *FunctionLowering::storedValue(const Stmt *root) {
  if (!root)
    return nullptr;
  if (const auto *expression = dyn_cast<Expr>(root))
    root = expression->IgnoreParenCasts();
  if (const auto *call = dyn_cast<CallExpr>(root))
    return call->getNumArgs() > 1 ? call->getArg(1) : nullptr;
  if (const auto *atomic = dyn_cast<AtomicExpr>(root))
    return atomic->getNumSubExprs() > 2 ? atomic->getVal1() : nullptr;
  if (isa<Expr>(root))
    return nullptr;
  for (const Stmt *child : root->children()) {
    if (const auto *assignment = dyn_cast_or_null<BinaryOperator>(child);
        assignment && assignment->getOpcode() == BO_Assign)
      return assignment->getRHS();
    if (const auto *atomic = dyn_cast_or_null<AtomicExpr>(child))
      return atomic->getNumSubExprs() > 2 ? atomic->getVal1() : nullptr;
    if (const Expr *value = storedValue(child))
      return value;
  }
  return nullptr;
}

// The value an exchange written in assembly swaps in: the first value of
// the register it exchanges with memory (x86's `xchg`, in the kernel's
// `__typeof__(*(ptr)) __ret = (arg); asm("xchgq %q0, %1" : "+r"(__ret),
// "+m"(*(ptr)))`); null where the use holds no such instruction.
const Expr *FunctionLowering::exchangedValue(const Stmt *root) {
  if (!root)
    return nullptr;
  if (const auto *assembly = dyn_cast<GCCAsmStmt>(root)) {
    for (unsigned i = 0; i < assembly->getNumOutputs(); i++) {
      llvm::StringRef constraint = assembly->getOutputConstraint(i);
      const auto *reference =
          dyn_cast<DeclRefExpr>(assembly->getOutputExpr(i)->IgnoreParenImpCasts());
      const auto *variable = reference ? dyn_cast<VarDecl>(reference->getDecl()) : nullptr;
      if (constraint.starts_with("+") && !constraint.contains('m') && variable &&
          variable->hasLocalStorage() && variable->getInit())
        return variable->getInit();
    }
    return nullptr;
  }
  for (const Stmt *child : root->children())
    if (const Expr *value = exchangedValue(child))
      return value;
  return nullptr;
}

} // namespace barrierpair::lowering
