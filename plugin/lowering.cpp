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
#include "clang/Analysis/CFG.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <functional>
#include <optional>
#include <string>

using namespace clang;

namespace barrierpair {
namespace {

struct SharedObject {
  std::string key;
  std::string display;
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
  if (primitive.op == BP_OP_FENCE || primitive.op == BP_OP_RMW)
    return true;
  return primitive.order != BP_ORDER_RELAXED;
}

class FunctionLowering {
public:
  FunctionLowering(ASTContext &context, bp_engine *engine, FileMap &files)
      : context(context), sources(context.getSourceManager()), engine(engine), files(files) {}

  void lower(const FunctionDecl *function) {
    Stmt *body = function->getBody();
    CFG::BuildOptions options;
    options.setAllAlwaysAdd();
    std::unique_ptr<CFG> cfg = CFG::buildCFG(function, body, &context, options);
    if (!cfg)
      return;
    ParentMap parents(body);
    parentMap = &parents;
    collectMacroUses(body);
    collectFreshLocals(body);

    bp_function_begin(engine, function->getNameAsString().c_str(),
                      engineLocation(function->getLocation()));
    for (unsigned i = 0; i < cfg->getNumBlockIDs(); i++)
      bp_add_block(engine);
    for (const CFGBlock *block : *cfg) {
      for (const CFGBlock::AdjacentBlock &successor : block->succs()) {
        if (const CFGBlock *target = successor.getReachableBlock())
          bp_add_edge(engine, block->getBlockID(), target->getBlockID());
      }
    }
    // In reverse post-order, an opaque use is met first where control enters it.
    for (const CFGBlock *block : reversePostOrder(*cfg)) {
      currentBlock = block->getBlockID();
      for (const CFGElement &element : *block) {
        if (std::optional<CFGStmt> statement = element.getAs<CFGStmt>())
          lowerElement(statement->getStmt());
      }
    }
    bp_function_end(engine);
    parentMap = nullptr;
  }

private:
  ASTContext &context;
  SourceManager &sources;
  bp_engine *engine;
  FileMap &files;
  ParentMap *parentMap = nullptr;
  unsigned currentBlock = 0;
  llvm::DenseMap<unsigned, PrimitiveUse> macroUses; // by expansion location
  llvm::SmallPtrSet<const void *, 16> emittedUses;
  llvm::SmallPtrSet<const VarDecl *, 8> freshLocals;
  mutable llvm::DenseMap<FileID, uint32_t> engineFiles;
  mutable llvm::DenseMap<FileID, std::optional<MacroHit>> outermostByExpansion;

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

  // The outermost node of each macro use is the first one, in pre-order,
  // that begins and ends inside it.
  void collectMacroUses(const Stmt *statement) {
    if (!statement)
      return;
    if (std::optional<MacroHit> hit = outermostKnownMacro(statement->getBeginLoc())) {
      unsigned key = keyOf(*hit);
      if (!macroUses.count(key)) {
        std::optional<MacroHit> end = outermostKnownMacro(statement->getEndLoc());
        if (end && keyOf(*end) == key) {
          PrimitiveUse use;
          use.primitive = hit->primitive;
          use.root = statement;
          use.text = hit->expansion;
          use.location = hit->expansion.getBegin();
          macroUses[key] = use;
        }
      }
    }
    for (const Stmt *child : statement->children())
      collectMacroUses(child);
  }

  // ---- Memory no other thread can see yet ----

  static bool isAllocation(const Expr *expression) {
    const auto *call = dyn_cast<CallExpr>(expression->IgnoreParenCasts());
    const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    if (!callee)
      return false;
    // __attribute__((malloc)) is RestrictAttr in Clang's AST.
    if (callee->hasAttr<RestrictAttr>())
      return true;
    switch (callee->getBuiltinID()) {
    case Builtin::BImalloc:
    case Builtin::BIcalloc:
    case Builtin::BIrealloc:
      return true;
    default:
      return false;
    }
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
    // Every local whose value `value` may carry.
    std::function<void(const Stmt *)> escapes = [&](const Stmt *value) {
      if (!value)
        return;
      if (const auto *reference = dyn_cast<DeclRefExpr>(value)) {
        if (const auto *variable = dyn_cast<VarDecl>(reference->getDecl()))
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
    auto consider = [&](const VarDecl *variable, const Expr *value) {
      if (!variable || variable->hasGlobalStorage() || !variable->getType()->isPointerType())
        return;
      bool fresh =
          value && (isAllocation(value) || value->IgnoreParenCasts()->isNullPointerConstant(
                                               context, Expr::NPC_ValueDependentIsNotNull));
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
          else
            escapes(binary->getRHS()); // stored into memory
        }
      } else if (const auto *atomic = dyn_cast<AtomicExpr>(statement)) {
        for (const Stmt *argument : atomic->children())
          if (argument != atomic->getPtr())
            escapes(argument);
      } else if (const auto *call = dyn_cast<CallExpr>(statement)) {
        const FunctionDecl *callee = call->getDirectCallee();
        llvm::StringRef name = callee && callee->getIdentifier() ? callee->getName() : "";
        // The C library (memset, free, ...) and pthreads (pthread_create
        // hands the structure over with the ordering thread creation gives)
        // do not publish it.
        bool library = callee && (callee->getBuiltinID() != 0 || name.starts_with("pthread_"));
        if (!library) {
          for (const Expr *argument : call->arguments()) {
            if (const VarDecl *variable = localOf(argument))
              escaped.insert(variable);
          }
        }
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
    for (const auto &[variable, fresh] : candidates) {
      if (fresh && !escaped.count(variable))
        freshLocals.insert(variable);
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

  // ---- Naming shared objects ----

  std::optional<SharedObject> nameObject(const Expr *expression) const {
    expression = expression->IgnoreParens();
    if (const auto *unary = dyn_cast<UnaryOperator>(expression)) {
      if (unary->getOpcode() != UO_Deref)
        return std::nullopt;
      const Expr *pointer = unary->getSubExpr()->IgnoreParenCasts();
      if (const auto *address = dyn_cast<UnaryOperator>(pointer)) {
        if (address->getOpcode() == UO_AddrOf)
          return nameObject(address->getSubExpr());
      }
      return std::nullopt;
    }
    if (const auto *cast = dyn_cast<CastExpr>(expression)) {
      if (cast->getCastKind() == CK_NoOp || cast->getCastKind() == CK_LValueBitCast)
        return nameObject(cast->getSubExpr());
      return std::nullopt;
    }
    if (const auto *reference = dyn_cast<DeclRefExpr>(expression)) {
      const auto *variable = dyn_cast<VarDecl>(reference->getDecl());
      if (!variable || !variable->hasGlobalStorage() || variable->isStaticLocal())
        return std::nullopt;
      // The C library's own globals (stderr, optind, ...) are not the
      // program's shared objects.
      if (sources.isInSystemHeader(sources.getExpansionLoc(variable->getLocation())))
        return std::nullopt;
      std::string name = variable->getNameAsString();
      std::string key = name;
      if (!variable->isExternallyVisible()) {
        FileID file = sources.getFileID(sources.getExpansionLoc(variable->getLocation()));
        OptionalFileEntryRef entry = sources.getFileEntryRefForID(file);
        key = (entry ? absolutePath(entry->getName()) : std::string()) + ":" + name;
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
      return SharedObject{std::string(record->isUnion() ? "union " : "struct ") + display, display};
    }
    if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(expression)) {
      // Elements collapse onto their array.
      const Expr *base = subscript->getBase()->IgnoreParenImpCasts();
      if (std::optional<SharedObject> array = nameObject(base))
        return SharedObject{array->key + "[]", array->display + "[]"};
      return std::nullopt;
    }
    return std::nullopt;
  }

  // The first shared object a primitive's own text mentions: the object it
  // accesses (`&x`, `x`, `p->field`).
  std::optional<SharedObject> findTarget(const Stmt *statement) const {
    if (const auto *expression = dyn_cast<Expr>(statement)) {
      if (std::optional<SharedObject> object = nameObject(expression))
        return object;
    }
    for (const Stmt *child : statement->children()) {
      if (!child)
        continue;
      if (std::optional<SharedObject> object = findTarget(child))
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
  std::string absolutePath(StringRef name) const {
    llvm::SmallString<256> path(name);
    sources.getFileManager().makeAbsolutePath(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    return std::string(path);
  }

  bp_location engineLocation(SourceLocation location) const {
    SourceLocation file = sources.getExpansionLoc(location);
    FileID id = sources.getFileID(file);
    OptionalFileEntryRef entry = sources.getFileEntryRefForID(id);
    if (file.isInvalid() || !entry)
      return bp_location{0, 0, 0};
    auto known = engineFiles.find(id);
    uint32_t engineFile = known != engineFiles.end()
                              ? known->second
                              : bp_intern_file(engine, absolutePath(entry->getName()).c_str());
    engineFiles[id] = engineFile;
    files[engineFile] = id;
    return bp_location{engineFile, sources.getExpansionLineNumber(file),
                       sources.getExpansionColumnNumber(file)};
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
    if (SourceLocation start = statementBegin(statement); start.isValid()) {
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
  }

  // ---- Events ----

  void addBarrier(unsigned strength, int primitive, bool implicit, SourceLocation location,
                  const Stmt *statement, CharSourceRange ownText = CharSourceRange()) {
    uint32_t event = bp_add_barrier(engine, currentBlock, strength, primitive, implicit,
                                    engineLocation(location));
    recordText(event, statement, ownText);
  }

  void addAccess(const SharedObject &object, bp_access_kind kind, bool marked, int primitive,
                 SourceLocation location, const Stmt *statement) {
    uint32_t id = bp_intern_object(engine, object.key.c_str(), object.display.c_str());
    uint32_t event =
        bp_add_access(engine, currentBlock, id, kind, marked, primitive, engineLocation(location));
    recordText(event, statement);
  }

  // An ordering primitive becomes: [barrier before] access(es) [barrier after].
  void emitOpaque(const PrimitiveUse &use) {
    const bp_primitive &primitive = *bp_primitive_get(use.primitive);
    bp_order order = primitive.order;
    if (order == BP_ORDER_FROM_ARG)
      order = findOrder(use.root).value_or(BP_ORDER_SEQ_CST);

    if (primitive.op == BP_OP_FENCE) {
      addBarrier(bp_order_strength(order), use.primitive, false, use.location, use.root, use.text);
      return;
    }
    unsigned before = 0, after = 0;
    switch (order) {
    case BP_ORDER_SEQ_CST:
    case BP_ORDER_MB:
      before = after = BP_STRENGTH_FULL;
      break;
    case BP_ORDER_ACQ_REL:
      before = BP_STRENGTH_STORES;
      after = BP_STRENGTH_LOADS;
      break;
    case BP_ORDER_RELEASE:
      before = BP_STRENGTH_STORES;
      break;
    case BP_ORDER_ACQUIRE:
    case BP_ORDER_CONSUME:
      after = BP_STRENGTH_LOADS;
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
    if (std::optional<SharedObject> target = findTarget(use.root)) {
      if (primitive.op != BP_OP_STORE)
        addAccess(*target, BP_ACCESS_LOAD, true, use.primitive, use.location, use.root);
      if (primitive.op != BP_OP_LOAD)
        addAccess(*target, BP_ACCESS_STORE, true, use.primitive, use.location, use.root);
    }
    if (after)
      addBarrier(after, use.primitive, true, use.location, use.root);
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
      if (isOpaque(primitive)) {
        auto found = macroUses.find(keyOf(*hit));
        if (found == macroUses.end())
          return;
        if (emittedUses.insert(found->second.root).second)
          emitOpaque(found->second);
        return;
      }
      marking = hit->primitive;
    }
    if (std::optional<PrimitiveUse> use = directUse(statement)) {
      if (isOpaque(*bp_primitive_get(use->primitive))) {
        emitOpaque(*use);
        return;
      }
      marking = use->primitive;
    }
    lowerPlain(statement, marking);
  }

  bool isMarkedType(QualType type) const {
    return type.isVolatileQualified() || type->isAtomicType();
  }

  void lowerAccess(const Expr *lvalue, bp_access_kind kind, int marking, SourceLocation location,
                   const Stmt *statement) {
    std::optional<SharedObject> object = nameObject(lvalue);
    if (!object)
      return;
    bool atomic = lvalue->getType()->isAtomicType();
    // A plain access to an _Atomic object is sequentially consistent.
    if (atomic && kind == BP_ACCESS_STORE)
      addBarrier(BP_STRENGTH_FULL, BP_NO_PRIMITIVE, true, location, statement);
    bool marked = marking != BP_NO_PRIMITIVE || isMarkedType(lvalue->getType());
    addAccess(*object, kind, marked, marking, location, statement);
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

} // namespace

FileMap lowerTranslationUnit(ASTContext &context, bp_engine *engine) {
  FileMap files;
  SourceManager &sources = context.getSourceManager();
  for (const Decl *declaration : context.getTranslationUnitDecl()->decls()) {
    const auto *function = dyn_cast<FunctionDecl>(declaration);
    if (!function || !function->doesThisDeclarationHaveABody())
      continue;
    if (!sources.isWrittenInMainFile(sources.getExpansionLoc(function->getLocation())))
      continue;
    FunctionLowering(context, engine, files).lower(function);
  }
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
