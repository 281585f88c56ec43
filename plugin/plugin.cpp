// The Clang plugin `barrierpair`: runs beside the main action, reading the
// AST only, so it adds warnings to a normal compile without changing what
// clang produces.
#include "lowering.h"
#include "primitive_use.h"
#include "report.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace clang;

namespace barrierpair {
namespace {

std::string validArguments() {
  std::string rules;
  for (int rule = 0; rule < BP_RULE_COUNT; rule++)
    rules += std::string(rule ? ", " : "") + bp_rule_name(static_cast<bp_rule>(rule));
  return "sites-dir=<dir>, disable=<rule> (rules: " + rules +
         "), unpaired, strict-marking, beta, model=article|lkmm, primitives=<file>, stats";
}

// With -fplugin-arg-barrierpair-primitives=<file>: adds the file's rows to
// the primitive table before anything is lowered. Its errors point into the
// file, so clang shows the line with a caret.
bool loadPrimitives(const CompilerInstance &instance, const std::string &path) {
  enum { MaxErrors = 20 };
  bp_primitive_error errors[MaxErrors];
  size_t count = bp_primitives_load(path.c_str(), errors, MaxErrors);
  if (count == 0)
    return true;
  DiagnosticsEngine &diagnostics = instance.getDiagnostics();
  FileID file;
  if (instance.hasSourceManager()) {
    if (llvm::Expected<FileEntryRef> entry = instance.getFileManager().getFileRef(path))
      file = instance.getSourceManager().getOrCreateFileID(*entry, SrcMgr::C_User);
    else
      llvm::consumeError(entry.takeError());
  }
  unsigned located = diagnostics.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  unsigned unlocated = diagnostics.getCustomDiagID(DiagnosticsEngine::Error, "barrierpair: %0");
  for (size_t i = 0; i < std::min<size_t>(count, MaxErrors); i++) {
    const bp_primitive_error &error = errors[i];
    if (error.line == 0) {
      diagnostics.Report(unlocated) << error.message;
    } else if (file.isValid()) {
      SourceLocation location =
          instance.getSourceManager().translateLineCol(file, error.line, error.column);
      diagnostics.Report(location, located) << error.message;
    } else {
      diagnostics.Report(unlocated) << (path + ":" + std::to_string(error.line) + ":" +
                                        std::to_string(error.column) + ": " + error.message);
    }
  }
  if (count > MaxErrors) {
    unsigned more = diagnostics.getCustomDiagID(
        DiagnosticsEngine::Error, "barrierpair: %0 more errors in primitive file '%1'");
    diagnostics.Report(more) << static_cast<unsigned>(count - MaxErrors) << path;
  }
  return false;
}

// With -fplugin-arg-barrierpair-sites-dir=<dir>: the translation unit's
// program as a site file, for `barrierpair link <dir>`. One file per main
// file and output, written whole or not at all (parallel builds).
void writeSites(CompilerInstance &instance, const bp_engine *engine, const std::string &dir) {
  DiagnosticsEngine &diagnostics = instance.getDiagnostics();
  const SourceManager &sources = instance.getSourceManager();
  OptionalFileEntryRef main = sources.getFileEntryRefForID(sources.getMainFileID());
  llvm::SmallString<256> path(main ? main->getName() : "stdin");
  llvm::sys::fs::make_absolute(path);
  std::string identity = std::string(path) + '\0' + instance.getFrontendOpts().OutputFile;
  char name[64];
  std::snprintf(name, sizeof name, "-%016llx.sites",
                static_cast<unsigned long long>(llvm::xxh3_64bits(identity)));
  llvm::SmallString<256> target(dir);
  llvm::sys::path::append(target, llvm::sys::path::stem(path) + name);
  llvm::SmallString<256> temporary;
  std::error_code error = llvm::sys::fs::create_directories(dir);
  int descriptor = -1;
  if (!error)
    error = llvm::sys::fs::createUniqueFile(target + ".tmp-%%%%%%%%", descriptor, temporary);
  if (!error) {
    FILE *out = fdopen(descriptor, "w");
    bool written = out && bp_program_write(engine, out);
    if (out ? std::fclose(out) != 0 : true)
      written = false;
    error = written ? llvm::sys::fs::rename(temporary, target)
                    : std::make_error_code(std::errc::io_error);
    if (error)
      llvm::sys::fs::remove(temporary);
  }
  if (error) {
    unsigned id = diagnostics.getCustomDiagID(DiagnosticsEngine::Error,
                                              "barrierpair: cannot write site file '%0': %1");
    diagnostics.Report(id) << target << error.message();
  }
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &instance, bp_options options, std::string sitesDir, bool stats)
      : instance(instance), options(options), sitesDir(std::move(sitesDir)), stats(stats),
        watch(instance.getPreprocessor()) {}

  void HandleTranslationUnit(ASTContext &context) override {
    DiagnosticsEngine &diagnostics = instance.getDiagnostics();
    if (diagnostics.hasErrorOccurred())
      return; // an AST with errors would give findings about code that is not there
    // Site files join other units' into a program, where a plain function
    // of this one may be the other side of their barriers.
    bool lower = watch.needsLowering(context, sitesDir.empty() ? AnalysisScope::Unit
                                                               : AnalysisScope::Program);
    std::unique_ptr<bp_engine, void (*)(bp_engine *)> engine(bp_engine_create(), bp_engine_destroy);
    // Alone, the unit's events' text is worked out only for its findings.
    std::optional<LoweredUnit> lowered;
    if (lower)
      lowered.emplace(lowerTranslationUnit(context, engine.get(), &watch.macros(), sitesDir.empty(),
                                           sitesDir.empty()));
    if (!sitesDir.empty())
      writeSites(instance, engine.get(), sitesDir);
    if (!lower) {
      remark(context, sitesDir.empty()
                          ? "barrierpair: nothing to analyse: nothing in this translation unit "
                            "orders memory (no barrier, lock or atomic access with an order) "
                            "and it holds no annotation"
                          : "barrierpair: nothing to analyse: no primitive, volatile or _Atomic "
                            "access, or annotation in this translation unit");
      return;
    }
    bp_finding *findings = nullptr;
    size_t count = bp_analyze(engine.get(), &options, &findings);
    remark(context, "barrierpair: " + std::to_string(bp_event_count(engine.get())) +
                        " events analysed, " + std::to_string(count) + " findings");
    reportFindings(diagnostics, context.getSourceManager(), lowered->files(), engine.get(),
                   findings, count);
    std::free(findings);
  }

private:
  CompilerInstance &instance;
  bp_options options;
  std::string sitesDir;
  bool stats;
  PrimitiveUseWatch watch;

  // With -fplugin-arg-barrierpair-stats: what the plugin did with the unit.
  void remark(ASTContext &context, const std::string &text) {
    if (!stats)
      return;
    DiagnosticsEngine &diagnostics = instance.getDiagnostics();
    const SourceManager &sources = context.getSourceManager();
    unsigned id = diagnostics.getCustomDiagID(DiagnosticsEngine::Remark, "%0");
    diagnostics.Report(sources.getLocForStartOfFile(sources.getMainFileID()), id) << text;
  }
};

bp_options unpairedOff() {
  bp_options options = {};
  options.disabled[BP_RULE_UNPAIRED_BARRIER] = true;
  return options;
}

class Action : public PluginASTAction {
public:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &instance,
                                                 StringRef file) override {
    const LangOptions &language = instance.getLangOpts();
    if (language.CPlusPlus || language.ObjC) {
      DiagnosticsEngine &diagnostics = instance.getDiagnostics();
      unsigned id = diagnostics.getCustomDiagID(
          DiagnosticsEngine::Error,
          "barrierpair analyses C only; '%0' is compiled as %1 (remove -fplugin for it)");
      diagnostics.Report(id) << file << (language.CPlusPlus ? "C++" : "Objective-C");
      return std::make_unique<ASTConsumer>();
    }
    return std::make_unique<Consumer>(instance, options, sitesDir, stats);
  }

  bool ParseArgs(const CompilerInstance &instance,
                 const std::vector<std::string> &arguments) override {
    DiagnosticsEngine &diagnostics = instance.getDiagnostics();
    bool valid = true;
    for (const std::string &argument : arguments) {
      StringRef text(argument);
      if (text == "unpaired") {
        options.disabled[BP_RULE_UNPAIRED_BARRIER] = false;
        continue;
      }
      if (text == "strict-marking") {
        options.strict_marking = true;
        continue;
      }
      if (text == "beta") {
        options.beta = true;
        continue;
      }
      if (text == "model=lkmm" || text == "model=article") {
        options.model_lkmm = text == "model=lkmm";
        continue;
      }
      if (text == "stats") {
        stats = true;
        continue;
      }
      if (text.consume_front("sites-dir=") && !text.empty()) {
        sitesDir = text.str();
        continue;
      }
      text = argument;
      if (text.consume_front("primitives=") && !text.empty()) {
        valid = loadPrimitives(instance, text.str()) && valid;
        continue;
      }
      text = argument;
      if (text.consume_front("disable=")) {
        int rule = bp_rule_find(text.str().c_str());
        if (rule >= 0) {
          options.disabled[rule] = true;
          continue;
        }
      }
      unsigned id = diagnostics.getCustomDiagID(
          DiagnosticsEngine::Error,
          "barrierpair: unknown plugin argument '%0'; valid arguments: %1");
      diagnostics.Report(id) << argument << validArguments();
      valid = false;
    }
    return valid;
  }

  // Before the main action: after it, clang keeps the AST through the
  // backend for the plugin (no -clear-ast-before-backend), which costs an
  // optimised compile memory and time; the analysis only reads the AST.
  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  std::string sitesDir;
  bool stats = false;
  // The plugin sees one translation unit, where a barrier's partner is often
  // in another file: unpaired-barrier waits for -fplugin-arg-barrierpair-unpaired.
  bp_options options = unpairedOff();
};

} // namespace
} // namespace barrierpair

static FrontendPluginRegistry::Add<barrierpair::Action>
    registration("barrierpair", "check memory-barrier pairings");
