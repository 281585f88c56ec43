// The Clang plugin `barrierpair`: runs after the main action, so it adds
// warnings to a normal compile without changing what clang produces.
#include "lowering.h"
#include "report.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

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
  return "disable=<rule> (rules: " + rules + ")";
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &instance, bp_options options) : instance(instance), options(options) {}

  void HandleTranslationUnit(ASTContext &context) override {
    DiagnosticsEngine &diagnostics = instance.getDiagnostics();
    if (diagnostics.hasErrorOccurred())
      return; // an AST with errors would give findings about code that is not there
    std::unique_ptr<bp_engine, void (*)(bp_engine *)> engine(bp_engine_create(), bp_engine_destroy);
    FileMap files = lowerTranslationUnit(context, engine.get());
    bp_finding *findings = nullptr;
    size_t count = bp_analyze(engine.get(), &options, &findings);
    reportFindings(diagnostics, context.getSourceManager(), files, engine.get(), findings, count);
    std::free(findings);
  }

private:
  CompilerInstance &instance;
  bp_options options;
};

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
    return std::make_unique<Consumer>(instance, options);
  }

  bool ParseArgs(const CompilerInstance &instance,
                 const std::vector<std::string> &arguments) override {
    DiagnosticsEngine &diagnostics = instance.getDiagnostics();
    bool valid = true;
    for (const std::string &argument : arguments) {
      StringRef text(argument);
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

  ActionType getActionType() override { return AddAfterMainAction; }

private:
  bp_options options = {};
};

} // namespace
} // namespace barrierpair

static FrontendPluginRegistry::Add<barrierpair::Action>
    registration("barrierpair", "check memory-barrier pairings");
