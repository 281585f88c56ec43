#include "report.h"

#include "clang/Basic/DiagnosticFrontend.h"

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

// The whitespace that starts the line holding `location`.
std::string indentationAt(SourceManager &sources, SourceLocation location) {
  std::pair<FileID, unsigned> position = sources.getDecomposedLoc(location);
  StringRef buffer = sources.getBufferData(position.first);
  size_t lineStart = buffer.rfind('\n', position.second == 0 ? 0 : position.second - 1);
  lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
  size_t end = lineStart;
  while (end < position.second && (buffer[end] == ' ' || buffer[end] == '\t'))
    end++;
  return buffer.substr(lineStart, end - lineStart).str();
}

std::optional<FixItHint> fixFor(SourceManager &sources, const bp_engine *engine,
                                const std::vector<EventSite> &sites, const bp_finding &finding) {
  std::string barrier = bp_finding_fix_barrier(&finding);
  if (finding.rule == BP_RULE_WEAK_BARRIER) {
    const bp_event *event = bp_event_get(engine, finding.side.barrier);
    const EventSite &site = sites[finding.side.barrier];
    if (!event->implicit && site.ownText.isValid())
      return FixItHint::CreateReplacement(site.ownText, barrier);
  }
  // Otherwise a new barrier goes in front of the statement of the second access.
  SourceLocation first = sites[finding.side.first].statementBegin;
  SourceLocation second = sites[finding.side.second].statementBegin;
  if (first.isInvalid() || second.isInvalid() || first == second ||
      !sources.isBeforeInTranslationUnit(first, second))
    return std::nullopt;
  return FixItHint::CreateInsertion(second, barrier + ";\n" + indentationAt(sources, second));
}

} // namespace

void reportFindings(DiagnosticsEngine &diagnostics, SourceManager &sources, const bp_engine *engine,
                    const std::vector<EventSite> &sites, const bp_finding *findings, size_t count) {
  for (size_t i = 0; i < count; i++) {
    const bp_finding &finding = findings[i];
    SourceLocation at = sites[finding.at].location;
    if (at.isInvalid())
      continue;
    Text message(bp_finding_message(engine, &finding));
    std::string text =
        std::string(message.get()) + " [barrierpair-" + bp_rule_name(finding.rule) + "]";
    {
      DiagnosticBuilder warning = diagnostics.Report(at, diag::warn_fe_backend_plugin);
      warning << text;
      if (std::optional<FixItHint> fix = fixFor(sources, engine, sites, finding))
        warning << *fix;
    }
    if (Text partner{bp_finding_partner_note(engine, &finding)}) {
      uint32_t partnerEvent =
          finding.partner.barrier != BP_NO_EVENT ? finding.partner.barrier : finding.partner.second;
      SourceLocation partnerAt = sites[partnerEvent].location;
      diagnostics.Report(partnerAt.isValid() ? partnerAt : at, diag::note_fe_backend_plugin)
          << partner.get();
    }
    if (Text scenario{bp_finding_scenario_note(engine, &finding)})
      diagnostics.Report(at, diag::note_fe_backend_plugin) << scenario.get();
  }
}

} // namespace barrierpair
