// Annotations: the engine reads them from the text of every file the
// lowering took events from, so all front ends see the same ones.
#include "lowering.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace barrierpair {

void scanAnnotations(const clang::SourceManager &sources, const FileMap &files, bp_engine *engine) {
  // In the engine's file order, so the annotations' order does not depend on
  // the hash map's.
  std::vector<std::pair<uint32_t, clang::FileID>> ordered(files.begin(), files.end());
  std::sort(ordered.begin(), ordered.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &[engineFile, id] : ordered) {
    std::optional<llvm::MemoryBufferRef> buffer = sources.getBufferOrNone(id);
    if (buffer)
      bp_scan_annotations(engine, engineFile, buffer->getBufferStart(), buffer->getBufferSize());
  }
}

} // namespace barrierpair
