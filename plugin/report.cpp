#include "report.h"

#include "clang/Basic/DiagnosticFrontend.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>
#include <string>

using namespace clang;

namespace barrierpair {
namespace {

struct FreeText {
  void operator()(char *text) const { std::free(text); }
};
using Text = std::unique_ptr<char, FreeText>;

class Reporter {
public:
  Reporter(DiagnosticsEngine &diagnostics, const SourceManager &sources, const FileMap &files,
           const bp_engine *engine)
      : diagnostics(diagnostics), sources(sources), files(files), engine(engine) {}

  void report(const bp_finding &finding) {
    SourceLocation at = locationOf(finding.at);
    // -w, -Wno-backend-plugin or a pragma there: no text to make.
    if (at.isInvalid() || diagnostics.isIgnored(diag::warn_fe_backend_plugin, at))
      return;
    Text message(bp_finding_message(engine, &finding));
    std::string text =
        std::string(message.get()) + " [barrierpair-" + bp_rule_name(finding.rule) + "]";
    {
      DiagnosticBuilder warning = diagnostics.Report(at, diag::warn_fe_backend_plugin);
      warning << text;
      if (std::optional<FixItHint> fix = fixFor(finding))
        warning << *fix;
    }
    bp_note notes[BP_NOTES_MAX];
    size_t count = bp_finding_notes(engine, &finding, notes);
    for (size_t i = 0; i < count; i++) {
      Text note(notes[i].text);
      SourceLocation noteAt = locationOf(notes[i].event);
      diagnostics.Report(noteAt.isValid() ? noteAt : at, diag::note_fe_backend_plugin)
          << note.get();
    }
  }

private:
  DiagnosticsEngine &diagnostics;
  const SourceManager &sources;
  const FileMap &files;
  const bp_engine *engine;

  SourceLocation locationOf(uint32_t event) const {
    return toSourceLocation(sources, files, bp_event_get(engine, event)->location);
  }

  std::optional<FixItHint> fixFor(const bp_finding &finding) const {
    bp_fix fix;
    if (!bp_finding_fix(engine, &finding, &fix))
      return std::nullopt;
    Text text(fix.text);
    SourceLocation begin = toSourceLocation(sources, files, fix.begin);
    SourceLocation end = toSourceLocation(sources, files, fix.end);
    if (begin.isInvalid() || end.isInvalid())
      return std::nullopt;
    if (begin == end)
      return FixItHint::CreateInsertion(begin, text.get());
    return FixItHint::CreateReplacement(CharSourceRange::getCharRange(begin, end), text.get());
  }
};

} // namespace

void reportFindings(DiagnosticsEngine &diagnostics, const SourceManager &sources,
                    const FileMap &files, const bp_engine *engine, const bp_finding *findings,
                    size_t count) {
  // clang prints diagnostics to llvm::errs(), which is unbuffered: a write
  // call every few bytes, thousands for a few dozen findings with their
  // source lines and carets. It is buffered while they are reported.
  llvm::raw_ostream &errors = llvm::errs();
  bool buffer = count > 0 && errors.GetBufferSize() == 0;
  if (buffer)
    errors.SetBuffered();
  Reporter reporter(diagnostics, sources, files, engine);
  for (size_t i = 0; i < count; i++)
    reporter.report(findings[i]);
  if (buffer)
    errors.SetUnbuffered(); // flushes
}

} // namespace barrierpair
