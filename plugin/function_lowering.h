// What the lowering of one function needs across its files: the state a
// translation unit's functions share, and the class that lowers a function's
// body into engine events. Internal to the lowering; a front end includes
// lowering.h.
//
// FunctionLowering's members are defined by concern:
//   lowering.cpp        the driver (lowerTranslationUnit) and the walk: a
//                       function's CFG, its elements, calls into the unit's
//                       functions
//   primitive_use.cpp   where a body uses a primitive: macro expansion chains,
//                       calls and atomic builtins, barriers that expand to
//                       nothing
//   private_memory.cpp  memory no other thread can see yet: fresh locals,
//                       allocations, publications
//   shared_objects.cpp  naming shared objects, and the objects a value, a
//                       guard or an address is computed from
//   events.cpp          engine events, their locations and fix-it text, and
//                       reference counts' puts
#ifndef BARRIERPAIR_PLUGIN_FUNCTION_LOWERING_H
#define BARRIERPAIR_PLUGIN_FUNCTION_LOWERING_H

#include "lowering.h"

#include "barrierpair/barrierpair.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace llvm {
class BitVector;
} // namespace llvm

namespace clang {
class CFG;
class CFGBlock;
template <bool IsPostDom> class CFGDominatorTreeImpl;
using CFGDomTree = CFGDominatorTreeImpl</*IsPostDom*/ false>;
} // namespace clang

namespace barrierpair::lowering {

using namespace clang;

struct SharedObject {
  std::string key;
  std::string display;
  bool threadOwn = false; // a field of the thread's own thread-local variable
  // A `static` variable (or a part of one) whose address the unit never
  // hands to code that could keep it: no pointer reaches it, so its
  // fields are its own objects, never its type's.
  bool keptInUnit = false;
  // What the global pointer `key`/`display` names points to
  // (bp_intern_pointee).
  bool pointee = false;
};

// The names of a field's object in every instance of its type.
struct FieldNames {
  std::string key;     // "struct T.f"; empty for a field of an unnamed type
  std::string display; // "T.f"
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

// What lowering learnt of one macro expansion, by its entry's index in the
// source manager: every statement inside a macro asks, and the statements
// of one expansion share the answer.
struct ExpansionFacts {
  static constexpr int32_t Unknown = -2, None = -1;
  int32_t outermost = Unknown;         // the entry of the outermost known macro of its chain
  int16_t primitive = BP_NO_PRIMITIVE; // that macro's
  int8_t inExcusedCode = Unknown;      // 0 or 1 once known
};

// What a finding may read of an event, worked out only when it does: where
// the statement that holds it starts and its own text (recordText), and an
// access's own text (recordAccessText).
struct DeferredText {
  uint32_t event = 0;
  bool statementText = false; // recordText
  bool accessText = false;    // recordAccessText
  bool placeWritten = false;
  bool accessWritten = false;
  const Stmt *statement = nullptr;
};

// The name calls through a function-pointer field go by: the structure's
// name and the field's ("proto.release_cb"); empty for a field of a
// structure with no name.
std::string functionFieldName(const FieldDecl *field);
// The function-pointer field that `callee` (a call's callee) reads
// (`sk->sk_prot->release_cb(sk)`), or null.
const FieldDecl *calledField(const Expr *callee);

// What a function does with the memory a parameter points to: hands it on,
// keeps it to itself, or keeps it but for returning it.
enum class ParameterKeeping : uint8_t { Publishes, Keeps, Returns };

// What lowering learns across a translation unit's functions.
struct UnitState {
  // The last lock event lowered, and the engine's event count right after
  // it: a smp_mb__after_unlock_lock() with no event since follows it.
  uint32_t lastLock = BP_NO_EVENT;
  size_t eventsAtLastLock = 0;
  // Where the function being lowered is, in its order of blocks, within
  // regions whose accesses KCSAN takes as marked: nested write sections,
  // and a read section (kcsan_atomic_next()).
  unsigned markedRegions = 0;
  bool markedNext = false;
  ASTContext *context = nullptr;
  FileMap files;
  // What tells this translation unit's `static` variables from another's:
  // its main file and the macros its command line defines.
  std::string identity;
  // Files other than the main file where the unit defines a function that
  // is not inline: implementation files included into it.
  llvm::DenseSet<FileID> implementationFiles;
  // The record types that many others embed by value (isBuildingBlock),
  // found once when first asked.
  std::optional<llvm::DenseSet<const RecordDecl *>> buildingBlocks;
  // The functions lowered on their own whose every call is a call event:
  // they run under the locks held at all of them (bp_set_callers).
  llvm::DenseMap<const FunctionDecl *, bp_callers> callers;
  // How far below a function its nearest primitive is (primitiveDepth).
  llvm::DenseMap<const FunctionDecl *, unsigned> primitiveDepths;
  // By function: the marked regions a call of it leaves open (regionBalance),
  // and whether the unit calls a function that opens one at all.
  llvm::DenseMap<const FunctionDecl *, int> regionBalances;
  std::optional<bool> opensRegions;
  // Per function: whether its own body uses a primitive, and the defined
  // functions it calls (callSummary).
  struct CallSummary {
    bool usesPrimitives = false;
    std::vector<const FunctionDecl *> callees;
  };
  llvm::DenseMap<const FunctionDecl *, CallSummary> callSummaries;
  // Per function inlined somewhere: the objects it stores with a release
  // and the flags it establishes (establishedFlags), from its copy inlined
  // least deep, for its calls past the depth lowering follows.
  struct StoreSummary {
    size_t depth = 0;
    llvm::SmallVector<uint32_t, 4> stored;
    llvm::SmallVector<uint32_t, 2> established;
  };
  llvm::DenseMap<const FunctionDecl *, StoreSummary> storeSummaries;
  // The objects of global variables and fields, named once.
  llvm::DenseMap<const VarDecl *, std::optional<SharedObject>> variables;
  // (references to its names stay valid while more are added: naming a
  // field names its base's fields first)
  std::unordered_map<const FieldDecl *, FieldNames> fields;
  // The unit's `static` variables whose address it may hand to code that
  // keeps it (addressEscapes), found once when first asked.
  std::optional<llvm::DenseSet<const VarDecl *>> escapingStatics;
  // What each helper's return values read (returnedObjects, shared_objects.cpp).
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<uint32_t, 2>> returnedObjects;
  // The same at one call, with the helper's parameters bound to its arguments.
  llvm::DenseMap<const CallExpr *, llvm::SmallVector<uint32_t, 2>> returnedObjectsAt;
  llvm::DenseMap<const FunctionDecl *, bool> returnsThroughParameters;
  // Whether every return of a function is a value that is not zero
  // (returnsNonZero).
  llvm::DenseMap<const FunctionDecl *, bool> nonZeroReturns;
  // Whether a function returns only memory it has just allocated.
  llvm::DenseMap<const FunctionDecl *, bool> allocators;
  // Whether a function keeps the memory its parameter points to to itself
  // (parameterKeeping): [0] counting what it hands to other units'
  // functions as published, [1] leaving that to the engine.
  llvm::DenseMap<const ParmVarDecl *, ParameterKeeping> privateParameters[2];
  // The thread function a pthread_t variable (or array, or field) was
  // started with.
  llvm::DenseMap<const ValueDecl *, std::string> threads;
  // What the preprocessor saw (lowerTranslationUnit), and whether it saw
  // every expansion of the unit's code: not where declarations come from a
  // precompiled header or a module, whose macro names are lexed.
  const MacroExpansions *macros = nullptr;
  bool sawEveryExpansion = false;
  // By the index of a macro expansion's source manager entry.
  std::vector<ExpansionFacts> expansions;
  // The last answers of outermostKnownMacro by location: the passes over a
  // body ask for the same statements' beginnings, and finding a location's
  // entry is a binary search over every expansion of the unit.
  struct RecentMacro {
    unsigned location = 0; // raw; 0 is no macro location
    std::optional<MacroHit> hit;
  };
  std::vector<RecentMacro> recentMacros = std::vector<RecentMacro>(4096);
  // Per file, what every function of the unit and every inlined copy would
  // otherwise look up again (a file's absolute path costs system calls).
  llvm::DenseMap<FileID, uint32_t> engineFiles;
  llvm::DenseMap<FileID, std::string> absolutePaths;
  // The uses of known macros in each body: a helper's body is lowered at
  // each of its calls, its macro uses found once.
  llvm::DenseMap<const Stmt *, std::unique_ptr<llvm::DenseMap<unsigned, PrimitiveUse>>>
      macroUsesByBody;
  // The control-flow graph of each body lowered at calls, its dominators
  // and its blocks in reverse post-order.
  struct BodyGraph {
    bool built = false;
    std::unique_ptr<CFG> cfg;
    std::unique_ptr<CFGDomTree> dominators;
    std::vector<const CFGBlock *> order;
  };
  llvm::DenseMap<const FunctionDecl *, BodyGraph> inlinedGraphs;
  // The events' text left for the engine to ask for (fillDeferredText), in
  // event order, and the function lowered on its own each event is of,
  // by its first event; the parents of the last such function asked.
  bool deferTexts = false;

  std::vector<DeferredText> deferredTexts;
  llvm::DenseMap<uint32_t, CharSourceRange> deferredOwnTexts; // the few barriers written alone
  std::vector<std::pair<uint32_t, const FunctionDecl *>> functionsByEvent;
  std::unique_ptr<ParentMap> parents;
  const FunctionDecl *parentsOf = nullptr;
  // The roots accesses start from (bp_set_access_root), numbered as first
  // met: a variable, with the number of the inlined copy of the body that
  // declares it (0 for a global), as each copy's locals are its own.
  llvm::DenseMap<std::pair<const VarDecl *, unsigned>, uint32_t> roots;
  // For each function asked about, which parameter the memory it returns
  // is reached from (a getter: `return read_pnet(&sk->sk_net);`), or none.
  llvm::DenseMap<const FunctionDecl *, std::optional<unsigned>> returnedParameters;
  unsigned lowerings = 0; // inlined copies numbered so far

  // Once lowered: what only lowering reads goes before the analysis, the
  // sources of deferred text stay.
  void releaseLowering();
};

// Where an inlined body is lowered: the call it stands for, in the function
// being built. Events of an inlined body written in a system header are
// placed at the outermost call (the user's code); those of the program's own
// headers stay where the helper's code is, one place for every caller. Fix-its
// that insert go before the outermost call's statement, so that other callers
// are not changed.
// A block (or a call's body) runs only when one load of `object`, written at `load`,
// read zero (`whenZero`) or only when it read anything else; `branch` is
// the CFG block whose test decides it.
struct ValueGuard {
  uint32_t object;
  bp_location load;
  uint64_t bits; // the bits tested (`load & FREE`); 0: the whole value
  bool whenZero;
  const VarDecl *variable = nullptr; // the local or parameter the test read
  const CFGBlock *branch = nullptr;
};

// Whether a library's contract (BP_CONTRACT) names the function.
bool hasContract(const FunctionDecl *function);

// x86's assembly for one atomic instruction, which the compiler does not
// read: `lock`-prefixed read-modify-writes (the kernel's atomic_inc(),
// atomic_dec_and_test(), set_bit()) and the bit test `bt` (test_bit() of a
// bit number the front end cannot fold). Each memory operand of a locked
// instruction is read and written by it; it returns a value when an output
// is not memory or it jumps on the result (`asm goto`), and then
// Documentation/atomic_t.txt orders it fully, otherwise not at all. A bit
// test only reads.
struct AssemblyAccess {
  llvm::SmallVector<const Expr *, 2> memory;
  bool returnsValue = false;
  bool readOnly = false;
  // what the instruction does to the bits of its memory operand: OR, AND,
  // XOR with `operand` as the mask, BIT with `operand` as the bit number,
  // RMW for all of them
  bp_op op = BP_OP_RMW;
  const Expr *operand = nullptr;
};
std::optional<AssemblyAccess> assemblyAccess(const Stmt *statement);

struct CallSite {
  const class FunctionLowering *caller = nullptr;
  const CallExpr *call = nullptr;
  SourceLocation location; // the outermost call, in the main file
  bp_location statement{0, 0, 0};
  std::string indentation;
  llvm::SmallVector<uint32_t, 2> guards; // the caller's, at the call
  // the caller's at the call, nearest first (currentValueGuards)
  llvm::SmallVector<ValueGuard, 2> valueGuards;
  llvm::SmallVector<const FunctionDecl *, 4> stack; // callers first, for recursion
  uint32_t afterSetUp = BP_NO_OBJECT;               // the caller's (currentAfterSetUp)
};

// A path of an inlined body that returns a value known where it is written
// (`return NULL;`, `return false;`): the engine block it ends in. The caller
// joins it to the branch its test of the call takes with that value, not to
// both (mimalloc's `if (!mi_abandoned_visited_revisit()) return NULL;`).
struct KnownReturn {
  uint32_t block;
  int64_t value;
};

// Calls to functions defined in the translation unit are lowered at the
// call, this many calls deep.
constexpr unsigned InlineDepth = 3;

class FunctionLowering {
public:
  FunctionLowering(ASTContext &context, bp_engine *engine, FileMap &files, UnitState &unit,
                   const CallSite *site = nullptr)
      : context(context), sources(context.getSourceManager()), engine(engine), files(files),
        unit(unit), site(site), copy(++unit.lowerings) {}

  // `contractOnly`: a static helper lowered on its own only for its
  // contract, whose callers hold its code (bp_set_contract_only).
  void lower(const FunctionDecl *function, bool contractOnly = false);
  static void fillDeferredText(void *context, bp_engine *engine, uint32_t event, bp_text_kind kind);
  bool calleeUsesPrimitives(const FunctionDecl *callee) const;
  unsigned primitiveDepth(const FunctionDecl *function) const;
  const UnitState::CallSummary &callSummary(const FunctionDecl *function) const;
  // A structure's name, or its typedef's where it has none.
  static std::string typeName(const RecordDecl *record);

private:
  ASTContext &context;
  SourceManager &sources;
  bp_engine *engine;
  FileMap &files;
  UnitState &unit;
  const CallSite *site;
  unsigned copy; // this lowering's number among the unit's (UnitState::roots)
  // What this body's top level says each root really points into
  // (bp_set_access_subtype); "" where it says two different things.
  llvm::DenseMap<uint32_t, std::string> subtypes;
  const FunctionDecl *function = nullptr;
  bool contractRoot = false; // a root a library's contract (BP_CONTRACT) names
  // The engine block each CFG block of the body being lowered ends in, as
  // far as lowered (lowerBody's), or null.
  const std::vector<uint32_t> *blockTails = nullptr;
  // The parents of the body being lowered (parents()).
  const Stmt *loweredBody = nullptr;
  mutable std::unique_ptr<ParentMap> ownParents;
  mutable ParentMap *parentMap = nullptr;
  // The values of the body being lowered that code tests through `& mask`
  // (testedBits), found when first asked.
  mutable std::optional<llvm::DenseMap<const Expr *, uint64_t>> maskedValues;
  // and the values it returns as they are (an inlined `atomic_read()`'s
  // load, which its caller masks), found in the same walk
  mutable llvm::DenseSet<const Expr *> returnedValues;
  // Per local of the body being lowered, the statements that assign it
  // somewhere inside them (lastAssignmentBefore), found in one walk when
  // first asked.
  mutable std::optional<llvm::DenseMap<const VarDecl *, llvm::DenseSet<const Stmt *>>>
      assigningStatements;
  uint32_t currentBlock = 0;    // engine block
  unsigned currentCfgBlock = 0; // its CFG block
  const CFG *loweredCfg = nullptr;
  // By CFG block: the locals every path to it has tested not null since
  // their last write (nonNullHere), found when first asked.
  struct NonNullLocals {
    std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> atEntry;
    std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> written;
  };
  mutable std::optional<NonNullLocals> nonNullLocals;
  // By expansion location: the unit's, shared by every inlined copy of one
  // body, or ownMacroUses.
  const llvm::DenseMap<unsigned, PrimitiveUse> *macroUses = nullptr;
  llvm::DenseMap<unsigned, PrimitiveUse> ownMacroUses;
  // A store the lowering names no object for was met: into memory only a
  // fresh local points to, through a pointer it cannot name, or by a call
  // it does not lower given a pointer to writable memory (memcpy()). It is
  // no event, yet a wmb after it has a store to order.
  bool storedUnnamed = false;
  // The barriers that expand to nothing, by the element they go before.
  llvm::DenseMap<const Stmt *, llvm::SmallVector<const EmptyBarrier *, 1>> emptyBarriers;
  llvm::SmallPtrSet<const void *, 16> emittedUses;
  llvm::SmallPtrSet<const VarDecl *, 8> freshLocals;
  // Locals that only ever hold memory just allocated, published or not.
  llvm::SmallPtrSet<const VarDecl *, 8> allocatedLocals;
  // Allocated locals that hold other memory before or after (`for_each(in,
  // im) ...; im = kzalloc(...)`): an allocation into one is fresh until
  // published, what it holds otherwise is shared (collectPublished).
  llvm::SmallPtrSet<const VarDecl *, 2> reusedLocals;
  // The parameters of a function lowered on its own, by their number: the
  // memory they point to is unpublished where every call hands memory not
  // yet published (bp_set_unpublished_if_fresh); tracked as allocated
  // locals that only the program's calls can tell fresh.
  llvm::DenseMap<const VarDecl *, unsigned> entryParameters;
  // Those whose structure the function sets a lock up in (an INIT
  // primitive: `mutex_init(&ht->mutex)`): nobody can take that lock yet,
  // so nobody else reaches the structure yet either; unpublished until the
  // function publishes it, whatever its calls hand it (noteInitialised).
  llvm::SmallSet<unsigned, 2> initialisedParameters;
  // Locals that took a whole list (`first = xchg(&visited, NULL)`).
  llvm::SmallPtrSet<const VarDecl *, 4> takenLists;
  // Locals that hold what a call of another unit's function returned
  // (`rt = ip6_route_info_create(...)`), by that function's name: fresh
  // only where it is an allocator (bp_set_allocation_source), which the
  // engine decides from the program's functions.
  llvm::DenseMap<const VarDecl *, std::string> returnedByOtherUnit;
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
  // The same for what the function publishes itself (Publication::Own).
  std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> ownPublishedAtEntry;
  llvm::SmallPtrSet<const VarDecl *, 2> ownPublishedHere;
  bool ownAllocationsShared = false; // some are: the two flows above are kept
  // The function lowered on its own: its allocations, numbered for the
  // engine (bp_set_unpublished_if_kept), inlined bodies' ones too.
  mutable llvm::DenseMap<const VarDecl *, unsigned> allocationNumbers;
  // The shared objects whose values a local may carry.
  mutable llvm::DenseMap<const VarDecl *, llvm::SmallVector<uint32_t, 2>> localSources;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> localAssignments;
  // By CFG block: the objects whose checked values decide that it runs.
  std::vector<llvm::SmallVector<uint32_t, 2>> blockGuards;
  // By CFG block: the nearest test of a loaded value that decides it runs.
  std::vector<std::optional<ValueGuard>> blockValueGuards;
  // By CFG block: the next such test out, one the nearest runs under.
  std::vector<std::optional<ValueGuard>> blockOuterValueGuards;
  // By CFG block: the objects its events store with a release, those of
  // the bodies inlined in it too, and those they load with an acquire
  // (establishedFlags).
  std::vector<llvm::SmallVector<uint32_t, 2>> storedInBlock;
  std::vector<llvm::SmallVector<uint32_t, 2>> acquiredInBlock;
  // Flags an inlined call established, by the CFG block of the call: what
  // the call dominates runs after their set-up (currentAfterSetUp).
  llvm::SmallVector<std::pair<const CFGBlock *, uint32_t>, 2> establishedByCalls;
  const CFGBlock *loweringBlock = nullptr;
  // By CFG block: the engine's events lowered in it, inlined bodies' too.
  std::vector<std::pair<size_t, size_t>> blockEvents;
  const CFGDomTree *loweredDominators = nullptr;
  // The flags this body leaves established on every way out, for its
  // caller (establishedFlags).
  llvm::SmallVector<uint32_t, 2> establishedAtExit;
  // The paths of this body that return a known value, for the caller to
  // route (an inlined body's; a function lowered whole joins them itself).
  std::vector<KnownReturn> knownReturns;
  // The calls inlined in the CFG block being lowered: their known returns,
  // the block their other returns go on in, and the engine's event count
  // then (nothing emitted since: the call's value is all that is left).
  struct InlinedCall {
    const CallExpr *call;
    std::vector<KnownReturn> returns;
    uint32_t continuation;
    size_t events;
  };
  std::vector<InlinedCall> inlinedHere;
  // By CFG block: a call whose value the block before it did not test, that
  // block ending in an assert() (one way does not return) with nothing
  // emitted since the call: the test may come here (`ret = f(); assert(ret
  // != BUSY); if (ret == OK)`).
  llvm::DenseMap<unsigned, InlinedCall> carried;
  // By CFG block: the known returns its terminator's test decides, and the
  // call the test reads.
  llvm::DenseMap<unsigned, InlinedCall> decidedBy;
  // The test that ends the CFG block being lowered, where it has two ways
  // out.
  const Expr *blockTest = nullptr;
  // A compare-and-swap that a block's test reads stores only on the branch
  // where it succeeded: its store (and the barrier after it) in a block of
  // its own, the barrier after it alone in another for the failure.
  struct TestedSwap {
    const Expr *root;
    const Expr *expected; // what a swap that returns the old value is compared with
    uint32_t succeeded, failed;
    size_t events;           // the engine's event count after it
    int64_t succeededAs = 1; // its value where it succeeded (a bit lock's test-and-set: 0)
  };
  std::optional<TestedSwap> testedSwap;             // in the block being lowered
  llvm::DenseMap<unsigned, TestedSwap> testedSwaps; // by CFG block

  // ---- The walk and calls into the unit (lowering.cpp) ----

  std::optional<std::pair<uint32_t, uint32_t>> lowerBody(const FunctionDecl *lowered);
  const FunctionDecl *inlinableCallee(const Stmt *statement) const;
  bool usesPrimitives(const Stmt *statement,
                      llvm::SmallPtrSetImpl<const FunctionDecl *> &callees) const;
  // With `contractStrength`: the callee is a barrier of that strength by its
  // library's contract (BP_CONTRACT(f, BARRIER, order)), lowered as such.
  const FunctionDecl *enclosingContract() const;
  void inlineCall(const CallExpr *call, const FunctionDecl *callee,
                  std::optional<unsigned> contractStrength = std::nullopt);
  const FunctionDecl *unloweredCallee(const Stmt *statement) const;
  const FunctionDecl *calleeWithKnownCallers(const Stmt *statement) const;
  std::optional<int64_t> knownValue(const Expr *value) const;
  bool knownNonZero(const Expr *value) const;
  bool returnsNonZero(const FunctionDecl *definition) const;
  bool nonNullHere(const VarDecl *local) const;
  std::optional<std::pair<const VarDecl *, unsigned>> nullTest(const Expr *test) const;
  bool returnedNonZero(const Expr *value, const Stmt *before) const;
  std::optional<int64_t> valueWith(const Expr *expression, const Expr *subject,
                                   int64_t value) const;
  bool testDecidedBy(const Expr *subject) const;
  std::optional<bool> holdsWhenSwapped(const Expr *test, const Expr *swap,
                                       const Expr *expected) const;
  bool testDecides(const Expr *test, const Expr *subject) const;
  const VarDecl *resultHolder(const Expr *subject) const;
  mutable llvm::DenseMap<const Expr *, const VarDecl *> holders; // resultHolder()
  mutable llvm::DenseMap<const VarDecl *, bool> initialisedOnly; // writtenOnlyByInit()
  bool writtenOnlyByInit(const VarDecl *local) const;
  void countWrites(const VarDecl *local, unsigned &writes, bool &escapes) const;
  // per local of the body being lowered: its assignments, and whether it is
  // incremented, decremented or has its address taken (countWrites)
  mutable std::optional<llvm::DenseMap<const VarDecl *, std::pair<unsigned, bool>>> bodyWrites;
  // the locals of the body being lowered whose address it may hand to code
  // that keeps it (localAddressEscapes)
  mutable std::optional<llvm::DenseSet<const VarDecl *>> escapingLocals;
  // the same, leaving the calls of other units' functions to the engine
  mutable std::optional<llvm::DenseSet<const VarDecl *>> ownEscapingLocals;
  void endTestedSwap();
  void routeKnownReturns(const CFGBlock &block);
  static const CFGBlock *pastAssertion(const CFGBlock &block);
  void endFailedAssertion(const CFGBlock &block, InlinedCall &inlined) const;
  void bindParameters();
  std::pair<const Expr *, const FunctionLowering *> argumentOf(const Expr *expression) const;
  std::optional<SharedObject> nameCallersMemory(const Expr *pointer) const;
  std::optional<SharedObject> nameDereferenced(const Expr *pointer) const;
  const VarDecl *loadedGlobalPointer(const Expr *value, unsigned depth = 0) const;
  static const Expr *genericLoadInto(const CompoundStmt &body, const Expr *value);
  std::optional<SharedObject> namePointee(const Expr *pointer) const;
  std::optional<SharedObject> nameGlobal(const VarDecl *variable) const;
  void noteStoredAddress(uint32_t event, const Expr *value) const;
  std::pair<const Expr *, const FunctionLowering *> argumentOf(const ParmVarDecl *parameter) const;
  static std::vector<const CFGBlock *> reversePostOrder(const CFG &cfg);
  static llvm::SmallPtrSet<const Stmt *, 4> unevaluatedOperands(const CFGBlock &block);
  void lowerElement(const Stmt *statement);
  bool isMarkedType(QualType type) const;
  static const VarDecl *storageVariable(const Expr *lvalue);
  static bool inLocalStorage(const Expr *lvalue);
  static bool writesThroughArgument(const CallExpr *call);
  void lowerAccess(const Expr *lvalue, bp_access_kind kind, int marking, SourceLocation location,
                   const Stmt *statement, bool oneInstruction = false);
  void lowerPlain(const Stmt *statement, int marking);
  void lowerAssemblyAccess(const GCCAsmStmt &assembly);
  std::optional<int64_t> boundValue(const Expr *value) const;

  // ---- Uses of primitives in a body (primitive_use.cpp) ----

  static unsigned keyOf(const MacroHit &hit) { return hit.expansion.getBegin().getRawEncoding(); }
  int macroAt(const SrcMgr::SLocEntry &entry, SourceLocation location) const;
  ExpansionFacts *factsOf(FileID id) const;
  std::optional<MacroHit> outermostKnownMacro(SourceLocation location) const;
  std::optional<MacroHit> walkMacroChain(SourceLocation location) const;
  bool inExcusedCode(SourceLocation location) const;
  bool sameUse(const Stmt *statement, const MacroHit &hit) const;
  void findMacroUses(const Stmt *body);
  void collectMacroUses(const Stmt *statement, llvm::DenseMap<unsigned, PrimitiveUse> &uses) const;
  void collectEmptyBarriers(const Stmt *body, const CFG &cfg);
  void placeEmptyBarriersBefore(const Stmt *statement);
  std::optional<PrimitiveUse> directUse(const Stmt *statement) const;
  int calledPrimitive(const Stmt *statement) const;
  int regionBalance(const FunctionDecl *definition) const;
  bool unitOpensRegions() const;

  // ---- Memory no other thread can see yet (private_memory.cpp) ----

  bool isAllocation(const Expr *expression) const;
  std::string otherUnitReturn(const Expr *expression) const;
  bool isOtherUnitReturn(const VarDecl *variable) const;
  bool isTaking(const Expr *expression) const;
  const Expr *reportingSwap(const Stmt *statement) const;
  bool isAllocator(const FunctionDecl *definition) const;
  // `valueUsed`: the caller takes the call's value (a pointer the callee
  // returns may be its argument under another name).
  bool publishesArgument(const CallExpr *call, unsigned index, bool ownOnly = false,
                         bool valueUsed = true) const;
  bool valueDiscarded(const CallExpr *call) const;
  bool valueHandedOn(const CallExpr *call) const;
  const VarDecl *returnedArgumentLocal(const Expr *value) const;
  const VarDecl *localOrReturned(const Expr *value, bool throughMembers = false) const;
  bool addressEscapes(const VarDecl *variable) const;
  void collectEscapingAddresses(const Stmt *statement, std::vector<const Stmt *> &ancestors,
                                llvm::function_ref<bool(const VarDecl *)> tracked,
                                llvm::DenseSet<const VarDecl *> &escaping,
                                bool ownOnly = false) const;
  bool localAddressEscapes(const VarDecl *local, bool ownOnly = false) const;
  bool pointsToPrivateLocal(const Expr *pointer) const;
  const VarDecl *stackLocalAddress(const Expr *value) const;
  static const VarDecl *namedLocal(const Expr *value, bool &address);
  using Keeping = ParameterKeeping;
  Keeping parameterKeeping(const ParmVarDecl *parameter, bool ownOnly) const;
  static const VarDecl *pointerLocal(const Expr *value);
  bool isFreshValue(const Expr *value) const;
  static const VarDecl *localOf(const Expr *expression);
  void collectFreshLocals(const Stmt *body, bool gatherAssignments = false);
  void noteInitialised(const Stmt *body);
  void noteInitialised(const Stmt *statement,
                       const llvm::DenseMap<const VarDecl *, unsigned> &parameters, unsigned depth);
  bool initialisedParameter(unsigned parameter) const;
  bool sameAllocation(const VarDecl *a, const VarDecl *b) const;
  bool keepsMemoryPrivate(const FunctionDecl *callee) const;
  bool isTraceEvent(const FunctionDecl *callee) const;
  // What publishes memory: any publication, only a store into a shared
  // place, or what the function does itself (all but calls of other
  // units' functions, which the engine decides: bp_set_call_argument).
  enum class Publication { Any, Store, Own };
  void collectPublished(const Stmt *element, llvm::SmallPtrSetImpl<const VarDecl *> &out,
                        Publication kind = Publication::Any,
                        llvm::SmallPtrSetImpl<const VarDecl *> *killed = nullptr) const;
  bool noteReassignment(const Stmt *element, llvm::SmallPtrSetImpl<const VarDecl *> &out,
                        Publication kind, llvm::SmallPtrSetImpl<const VarDecl *> *killed) const;
  void collectPublications(const CFG &cfg);
  void flowPublications(const CFG &cfg, std::vector<llvm::SmallPtrSet<const VarDecl *, 2>> &atEntry,
                        Publication kind) const;
  bool isUnpublishedValue(const Expr *value) const;
  std::optional<unsigned> entryParameter(const VarDecl *variable) const;
  void noteUnpublishedArguments(uint32_t event, const Stmt *statement) const;
  unsigned allocationNumber(const VarDecl *variable) const;
  void notePublishedParameters(const CFG &cfg) const;
  const VarDecl *allocation(const VarDecl *variable) const;
  bool isUnpublished(const Expr *lvalue) const;
  static const VarDecl *baseLocal(const Expr *lvalue);
  bool isUnshared(const Expr *base, bool arrow) const;

  // ---- Shared objects: their names, and what reads them (shared_objects.cpp) ----

  static void addUnique(llvm::SmallVectorImpl<uint32_t> &objects, uint32_t object);
  uint32_t internObject(const SharedObject &object) const;
  void collectObjectsRead(const Stmt *statement, llvm::SmallVectorImpl<uint32_t> &objects) const;
  const llvm::SmallVector<uint32_t, 2> &returnedObjects(const FunctionDecl *definition) const;
  const llvm::SmallVector<uint32_t, 2> &returnedObjectsAt(const CallExpr *call,
                                                          const FunctionDecl *definition) const;
  bool returnsConstant(const Stmt *statement) const;
  bool returnsThroughParameters(const FunctionDecl *definition) const;
  void collectReturnedObjects(const Stmt *statement,
                              llvm::SmallVectorImpl<uint32_t> &objects) const;
  void collectLocalSources(const Stmt *body);
  void noteAssignments(const Stmt *statement);
  llvm::SmallVector<uint32_t, 2> sourcesOf(const VarDecl *variable) const;
  llvm::SmallVector<uint32_t, 2> currentGuards() const;
  std::optional<ValueGuard> currentValueGuard() const;
  llvm::SmallVector<ValueGuard, 2> currentValueGuards() const;
  void collectBlockGuards(CFG &cfg, CFGDomTree &dominators);
  void establishedFlags(const CFG &cfg, llvm::ArrayRef<const CFGBlock *> order);
  void noteStores(const FunctionDecl *callee, const FunctionLowering &body, size_t depth);
  void addCalleeStores(const UnitState::StoreSummary &summary);
  llvm::BitVector setUpBlocks(const CFG &cfg, llvm::ArrayRef<const CFGBlock *> order,
                              uint32_t flag) const;
  uint32_t currentAfterSetUp() const;
  struct ZeroTest {
    uint32_t object;
    const Expr *load;
    uint64_t bits; // 0: the whole value
    bool holdsWhenZero;
    const VarDecl *variable; // the local or parameter tested, if any
  };
  std::optional<ZeroTest> zeroTest(const Expr *condition) const;
  std::optional<ZeroTest> testedLoad(const Expr *tested, bool holdsWhenZero, uint64_t bits) const;
  bool incrementsGuardedValue(const Expr *value, uint32_t object) const;
  const Expr *onlyValue(const VarDecl *local) const;
  mutable llvm::DenseMap<const VarDecl *, const Expr *> onlyValues;
  bool isLoadedValue(const Expr *expression) const;
  static llvm::BitVector reachableAvoiding(const CFGBlock *start, const CFGBlock *avoided,
                                           const llvm::BitVector &region);
  void collectAddressSources(const Expr *lvalue, llvm::SmallVectorImpl<uint32_t> &objects) const;
  const Expr *lastAssignmentBefore(const Stmt *use, const VarDecl *variable) const;
  bool assigns(const Stmt *statement, const VarDecl *variable) const;
  std::optional<SharedObject> nameObject(const Expr *expression) const;
  std::optional<SharedObject> nameVariable(const VarDecl *variable) const;
  const FieldNames &fieldNames(const FieldDecl *field) const;
  static SharedObject instanceField(const SharedObject &base, const std::string &key,
                                    const std::string &name);
  SharedObject fieldOf(const SharedObject &object, const RecordDecl *record,
                       const FieldDecl *field) const;
  std::string typeKey(const RecordDecl *record) const;
  bool isThreadLocal(const MemberExpr *member) const;
  std::optional<SharedObject> nameThroughPointer(const Expr *pointer) const;
  std::optional<SharedObject> findTarget(const Stmt *statement,
                                         const Expr **lvalue = nullptr) const;

  // ---- Events, their locations and text, reference counts (events.cpp) ----

  ParentMap *parents() const;
  const std::string &absolutePath(FileID id, StringRef name) const;
  bp_location engineLocation(SourceLocation location) const;
  bp_location fileEngineLocation(SourceLocation file) const;
  bp_location eventLocation(SourceLocation location) const;
  SourceLocation fileLocation(SourceLocation location) const;
  SourceLocation statementBegin(const Stmt *statement) const;
  std::string indentationAt(SourceLocation location) const;
  void recordText(uint32_t event, const Stmt *statement,
                  CharSourceRange ownText = CharSourceRange());
  void writeText(uint32_t event, const Stmt *statement, CharSourceRange ownText);
  DeferredText &deferredText(uint32_t event);
  void addBarrier(unsigned strength, int primitive, bool implicit, SourceLocation location,
                  const Stmt *statement, CharSourceRange ownText = CharSourceRange());
  uint32_t addAccess(const SharedObject &object, bp_access_kind kind, bool marked, int primitive,
                     SourceLocation location, const Stmt *statement);
  void addProvenance(uint32_t event, const Expr *lvalue);
  void addRoots(uint32_t event, const Expr *lvalue, const Expr *pointer, const Expr *value,
                const Stmt *loaded);
  const Expr *comparedPointer(const Stmt *loaded) const;
  static const Expr *comparedValue(const PrimitiveUse &use);
  static const Expr *pointerOperand(const PrimitiveUse &use);
  static const Expr *storedPointer(const PrimitiveUse &use, bp_op op);
  std::optional<uint32_t> rootOf(const Expr *expression, unsigned depth = 0) const;
  std::optional<unsigned> returnedParameter(const FunctionDecl *function) const;
  void collectDowncasts(const Stmt *body);
  void noteDowncasts(const Stmt *statement);
  const std::string *subtypeOf(uint32_t root) const;
  std::string containerOf(const Expr *expression, unsigned depth = 0) const;
  std::string pointedContainer(const Expr *pointer, unsigned depth = 0) const;
  static std::string recordOrSpelling(QualType type);
  bool isBuildingBlock(const RecordDecl *record) const;
  const VarDecl *returnedGlobalArray(const Expr *pointer) const;
  std::optional<std::string> mainFileText(SourceRange range) const;
  void recordAccessText(uint32_t event, const Expr *lvalue, const Stmt *statement,
                        bp_access_kind kind);
  void writeAccessText(uint32_t event, const Expr *lvalue, const Stmt *statement,
                       bp_access_kind kind);
  static const CallExpr *callOf(const PrimitiveUse &use);
  static const Expr *lockArgument(const Stmt *root);
  static const Expr *operand(const PrimitiveUse &use);
  static const Expr *bitWord(const PrimitiveUse &use);
  bool resultDropped(const Stmt *root) const;
  uint64_t testedBits(const Expr *value) const;
  void collectMaskedValues(const Stmt *statement) const;
  template <typename Visit> static void walkValue(const Expr *value, Visit visit);
  uint64_t changedBits(bp_op op, const Expr *argument, QualType type) const;
  uint64_t withinWidth(uint64_t bits, QualType type) const;
  static const ValueDecl *handleOf(const CallExpr *call);
  void addJoin(const PrimitiveUse &use);
  void addSpawn(const PrimitiveUse &use);
  void addLock(const PrimitiveUse &use, bool acquire);
  void addTryLock(const PrimitiveUse &use, int64_t takenAs);
  bool lockWhereTested(const PrimitiveUse &use, uint32_t lock, int64_t takenAs);
  std::optional<SharedObject> lockOf(const PrimitiveUse &use) const;
  uint32_t conditionalLockBlock(const Stmt *lockUse) const;
  bool stableCondition(const Expr *condition) const;
  bool lowerBitLock(const PrimitiveUse &use, bp_order order, const SharedObject &word);
  std::optional<SharedObject> nameStructureLock(const Expr *pointer) const;
  std::optional<int64_t> evaluate(const Expr *expression) const;
  // `x & MASK`, `tmp + COUNT`: the operand that is not a constant, and the
  // constant, either way round
  std::optional<std::pair<const Expr *, int64_t>>
  constantOperand(const BinaryOperator *binary) const;
  std::optional<bp_order> findOrder(const Stmt *statement) const;
  void emitOpaque(const PrimitiveUse &use);
  bool isReferencePut(const PrimitiveUse &use, const Expr *lvalue) const;
  static bool returns(const Stmt *statement);
  bool handsOverAfter(const Stmt *branch, const VarDecl *counted) const;
  static bool testedThenHandedOver(const Stmt *statement, const VarDecl *result,
                                   const VarDecl *counted);
  static bool handsOver(const Stmt *statement, const VarDecl *counted);
  static bool mentions(const Stmt *statement, const VarDecl *variable, bool skipFields);
  static const Expr *storedValue(const Stmt *root);
  static const Expr *exchangedValue(const Stmt *root);
};

} // namespace barrierpair::lowering

#endif
