// The LibTooling half of `barrierpair check`: one ToolInvocation per compile
// command, on worker threads, each lowering its translation unit into an
// engine of its own with the plugin's lowering (plugin/lowering.h). The
// engines are merged in the database's order, never in the order the workers
// finish, so the output is the same whatever --jobs.
//
// This is the only file of the driver that includes Clang's headers.
#include "driver.h"

#include "lowering.h"
#include "primitive_use.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

using namespace clang;
using namespace clang::tooling;

namespace {

using EnginePtr = std::unique_ptr<bp_engine, void (*)(bp_engine *)>;

struct Job {
  std::string file;      // absolute
  std::string directory; // where the command runs
  std::vector<std::string> commandLine;
};

// --contents: absolute path -> the text to analyse instead of the file's.
using Overlays = std::vector<std::pair<std::string, std::string>>;

struct Result {
  EnginePtr engine{nullptr, bp_engine_destroy};
  bool compiled = false;
  bool notC = false;
  std::string diagnostics; // clang's, printed after all jobs, in job order
};

std::string absolute(const std::string &path, const std::string &base) {
  llvm::SmallString<256> result(path);
  if (!llvm::sys::path::is_absolute(result)) {
    llvm::SmallString<256> full(base);
    llvm::sys::path::append(full, result);
    result = full;
  }
  llvm::sys::path::remove_dots(result, /*remove_dot_dot=*/true);
  return std::string(result);
}

std::string currentDirectory() {
  llvm::SmallString<256> cwd;
  if (llvm::sys::fs::current_path(cwd))
    return ".";
  return std::string(cwd);
}

void error(const std::string &message) {
  std::fprintf(stderr, "barrierpair: error: %s\n", message.c_str());
}

void note(const std::string &message) {
  std::fprintf(stderr, "barrierpair: note: %s\n", message.c_str());
}

// C by its extension, or by an explicit `-x c`; the language clang parses
// it as is checked again after parsing.
bool looksLikeC(const Job &job) {
  for (size_t i = 0; i + 1 < job.commandLine.size(); i++) {
    if (job.commandLine[i] == "-x")
      return job.commandLine[i + 1] == "c" || job.commandLine[i + 1] == "c-header" ||
             job.commandLine[i + 1] == "cpp-output";
  }
  llvm::StringRef extension = llvm::sys::path::extension(job.file);
  return extension == ".c" || extension == ".i" || extension == ".h";
}

// ---- One translation unit ----

class LowerConsumer : public ASTConsumer {
public:
  LowerConsumer(CompilerInstance &instance, bp_engine *engine)
      : instance(instance), engine(engine), watch(instance.getPreprocessor()) {}

  void HandleTranslationUnit(ASTContext &context) override {
    // An AST with errors would give findings about code that is not there.
    if (instance.getDiagnostics().hasErrorOccurred())
      return;
    if (watch.needsLowering(context, barrierpair::AnalysisScope::Program))
      barrierpair::lowerTranslationUnit(context, engine, &watch.macros(), false);
  }

private:
  CompilerInstance &instance;
  bp_engine *engine;
  barrierpair::PrimitiveUseWatch watch;
};

class LowerAction : public ASTFrontendAction {
public:
  LowerAction(bp_engine *engine, bool *notC) : engine(engine), notC(notC) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &instance,
                                                 llvm::StringRef) override {
    const LangOptions &language = instance.getLangOpts();
    if (language.CPlusPlus || language.ObjC) {
      *notC = true;
      return std::make_unique<ASTConsumer>();
    }
    return std::make_unique<LowerConsumer>(instance, engine);
  }

private:
  bp_engine *engine;
  bool *notC;
};

// The project's command, made into a syntax-only parse that prints no
// warnings (only errors matter here) and loads no plugin.
std::vector<std::string> adjust(const Job &job) {
  CommandLineArguments arguments = job.commandLine;
  arguments = getClangSyntaxOnlyAdjuster()(arguments, job.file);
  arguments = getClangStripOutputAdjuster()(arguments, job.file);
  arguments = getClangStripDependencyFileAdjuster()(arguments, job.file);
  CommandLineArguments result;
  bool hasResourceDir = false;
  for (size_t i = 0; i < arguments.size(); i++) {
    llvm::StringRef argument(arguments[i]);
    if (argument.starts_with("-fplugin=") || argument.starts_with("-fplugin-arg-"))
      continue;
    // the kernel's `-Wp,-MMD,dir/.file.o.d`: the dependency file is the
    // build's, which a parse must not write (the adjuster above knows only
    // the driver's own -MD and -MMD)
    if (argument.starts_with("-Wp,-MD,") || argument.starts_with("-Wp,-MMD,"))
      continue;
    if ((argument == "-Xclang") && i + 1 < arguments.size() &&
        (llvm::StringRef(arguments[i + 1]).starts_with("-load") ||
         llvm::StringRef(arguments[i + 1]).starts_with("-plugin"))) {
      i++;
      continue;
    }
    if (argument.starts_with("-resource-dir"))
      hasResourceDir = true;
    result.push_back(arguments[i]);
  }
  if (!hasResourceDir && !result.empty())
    result.insert(result.begin() + 1, "-resource-dir=" BARRIERPAIR_CLANG_RESOURCE_DIR);
  result.push_back("-w");
  result.push_back("-fno-color-diagnostics");
  return result;
}

// The disk, with the overlaid files' texts in front of it.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemFor(const Overlays &overlays) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> disk = llvm::vfs::createPhysicalFileSystem();
  if (overlays.empty())
    return disk;
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
      new llvm::vfs::InMemoryFileSystem());
  for (const auto &[path, text] : overlays)
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> layered(
      new llvm::vfs::OverlayFileSystem(disk));
  layered->pushOverlay(memory);
  return layered;
}

void runJob(const Job &job, const Overlays &overlays, Result &result) {
  result.engine.reset(bp_engine_create());
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem = fileSystemFor(overlays);
  fileSystem->setCurrentWorkingDirectory(job.directory);
  FileSystemOptions options;
  options.WorkingDir = job.directory;
  llvm::IntrusiveRefCntPtr<FileManager> files(new FileManager(options, fileSystem));

  llvm::raw_string_ostream stream(result.diagnostics);
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> diagnosticOptions(new DiagnosticOptions());
  diagnosticOptions->ShowColors = false;
  TextDiagnosticPrinter printer(stream, diagnosticOptions.get());

  ToolInvocation invocation(
      adjust(job), std::make_unique<LowerAction>(result.engine.get(), &result.notC), files.get());
  invocation.setDiagnosticConsumer(&printer);
  invocation.setDiagnosticOptions(diagnosticOptions.get());
  result.compiled = invocation.run() && printer.getNumErrors() == 0;
  stream.flush();
}

// ---- The compilation database ----

std::unique_ptr<CompilationDatabase> loadDatabase(const bp_check_request &request,
                                                  const std::string &cwd, bool &failed) {
  std::string message;
  if (request.fixed) {
    std::vector<std::string> arguments(request.fixed_args,
                                       request.fixed_args + request.fixed_count);
    return std::make_unique<FixedCompilationDatabase>(cwd, arguments);
  }
  std::string directory;
  if (request.build_dir) {
    directory = absolute(request.build_dir, cwd);
    if (!llvm::sys::fs::is_directory(directory)) {
      error("build directory '" + std::string(request.build_dir) + "' does not exist");
      failed = true;
      return nullptr;
    }
  } else if (request.file_count) {
    // As clang-tidy: the nearest compile_commands.json above the first file.
    std::unique_ptr<CompilationDatabase> found =
        CompilationDatabase::autoDetectFromSource(absolute(request.files[0], cwd), message);
    if (found)
      return inferMissingCompileCommands(std::move(found));
    // As clang-tidy: said once, then the files are parsed with no flags.
    note("no compilation database for '" + std::string(request.files[0]) +
         "' or the directories above it: analysing with default flags (pass -p <build-dir>, "
         "the directory of compile_commands.json, or the compiler arguments after '--')");
    return std::make_unique<FixedCompilationDatabase>(cwd, std::vector<std::string>());
  } else {
    directory = cwd;
  }
  std::string path = directory + "/compile_commands.json";
  if (!llvm::sys::fs::exists(path)) {
    error("no compile_commands.json in '" + directory +
          "' (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or build under bear)");
    failed = true;
    return nullptr;
  }
  std::unique_ptr<JSONCompilationDatabase> database =
      JSONCompilationDatabase::loadFromFile(path, message, JSONCommandLineSyntax::AutoDetect);
  if (!database) {
    error("malformed compilation database: " + message);
    failed = true;
    return nullptr;
  }
  if (database->getAllCompileCommands().empty()) {
    error("'" + path + "' lists no files to analyse");
    failed = true;
    return nullptr;
  }
  return inferMissingCompileCommands(std::move(database));
}

// Entries of a database that compile nothing barrierpair could read: the
// compiler's own jobs (`clang -cc1`, recorded by bear when clang runs them
// as processes), preprocessing or dependency listing alone, and links.
bool isCompileCommand(const CompileCommand &command) {
  const std::vector<std::string> &line = command.CommandLine;
  for (size_t i = 1; i < line.size(); i++) {
    llvm::StringRef argument(line[i]);
    if (argument == "-cc1" || argument == "-cc1as" || argument == "-E" || argument == "-M" ||
        argument == "-MM")
      return false;
  }
  llvm::StringRef extension = llvm::sys::path::extension(command.Filename);
  // A link names its inputs; assembler sources stay "not C" below.
  return !(extension == ".o" || extension == ".a" || extension == ".so" || extension == ".lo" ||
           extension == ".la");
}

void addJobs(std::vector<Job> &jobs, llvm::StringSet<> &seen,
             const std::vector<CompileCommand> &commands, const std::string &cwd,
             std::vector<std::string> &notCompiles) {
  for (const CompileCommand &command : commands) {
    if (!isCompileCommand(command)) {
      notCompiles.push_back(absolute(command.Filename, absolute(command.Directory, cwd)));
      continue;
    }
    Job job;
    job.directory = absolute(command.Directory, cwd);
    job.file = absolute(command.Filename, job.directory);
    job.commandLine = command.CommandLine;
    std::string key = job.directory + '\0' + job.file;
    for (const std::string &argument : job.commandLine)
      key += '\0' + argument;
    if (seen.insert(key).second)
      jobs.push_back(std::move(job));
  }
}

class Progress {
public:
  Progress(bool enabled, size_t total) : enabled(enabled), total(total) {}

  void done(const std::string &file) {
    if (!enabled)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    count++;
    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", count, total,
                 llvm::sys::path::filename(file).str().c_str());
    std::fflush(stderr);
  }

  void finish() {
    if (enabled && count) {
      std::fprintf(stderr, "\r\033[K");
      std::fflush(stderr);
    }
  }

private:
  bool enabled;
  size_t total, count = 0;
  std::mutex mutex;
};

} // namespace

extern "C" void bp_check_lower(const bp_check_request *request, bp_engine *engine,
                               bp_check_summary *summary) {
  *summary = bp_check_summary{};
  std::string cwd = currentDirectory();
  bool failed = false;
  std::unique_ptr<CompilationDatabase> database = loadDatabase(*request, cwd, failed);
  if (!database) {
    summary->input_error = true;
    return;
  }

  Overlays overlays;
  for (size_t i = 0; i < request->overlay_count; i++) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
        llvm::MemoryBuffer::getFile(request->contents_files[i]);
    if (!contents) {
      error("cannot read the contents file '" + std::string(request->contents_files[i]) +
            "': " + contents.getError().message());
      summary->input_error = true;
      return;
    }
    overlays.emplace_back(absolute(request->overlaid_files[i], cwd),
                          (*contents)->getBuffer().str());
  }
  auto overlaid = [&](const std::string &file) {
    return std::any_of(overlays.begin(), overlays.end(),
                       [&](const auto &overlay) { return overlay.first == file; });
  };

  std::vector<Job> jobs;
  llvm::StringSet<> seen;
  std::vector<bool> named; // per job: the file was named on the command line
  std::vector<std::string> notCompiles;
  if (request->file_count) {
    for (size_t i = 0; i < request->file_count; i++) {
      std::string file = absolute(request->files[i], cwd);
      if (!llvm::sys::fs::exists(file) && !overlaid(file)) {
        error("no such file: '" + std::string(request->files[i]) + "'");
        summary->input_error = true;
        continue;
      }
      std::vector<CompileCommand> commands = database->getCompileCommands(file);
      if (commands.empty()) {
        error("'" + std::string(request->files[i]) + "' is not in the compilation database");
        summary->input_error = true;
        continue;
      }
      addJobs(jobs, seen, commands, cwd, notCompiles);
    }
    named.assign(jobs.size(), true);
  } else {
    addJobs(jobs, seen, database->getAllCompileCommands(), cwd, notCompiles);
    named.assign(jobs.size(), false);
  }

  if (!notCompiles.empty())
    note("skipped " + std::to_string(notCompiles.size()) + " entr" +
         (notCompiles.size() > 1 ? "ies" : "y") +
         " of the compilation database that compile nothing to analyse (the compiler's own "
         "'-cc1' jobs, preprocessing alone, links), e.g. '" +
         notCompiles.front() + "'");

  // Files that are not C: an error when named, skipped from a database.
  std::vector<Job> cJobs;
  std::vector<bool> cNamed;
  std::vector<std::string> skipped;
  for (size_t i = 0; i < jobs.size(); i++) {
    if (looksLikeC(jobs[i])) {
      cJobs.push_back(std::move(jobs[i]));
      cNamed.push_back(named[i]);
    } else if (named[i]) {
      error("'" + jobs[i].file + "' is not C: barrierpair analyses C only");
      summary->input_error = true;
    } else {
      skipped.push_back(jobs[i].file);
    }
  }
  jobs = std::move(cJobs);

  std::vector<Result> results(jobs.size());
  unsigned workers = std::max(1u, std::min<unsigned>(request->jobs, jobs.size()));
  std::atomic<size_t> next{0};
  Progress progress(request->progress, jobs.size());
  auto work = [&]() {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      runJob(jobs[i], overlays, results[i]);
      progress.done(jobs[i].file);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < workers; t++)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  progress.finish();

  for (size_t i = 0; i < jobs.size(); i++) {
    Result &result = results[i];
    if (!result.diagnostics.empty())
      std::fputs(result.diagnostics.c_str(), stderr);
    if (result.notC) {
      if (cNamed[i]) {
        error("'" + jobs[i].file +
              "' is not C (it is compiled as C++ or Objective-C): "
              "barrierpair analyses C only");
        summary->input_error = true;
      } else {
        skipped.push_back(jobs[i].file);
      }
      continue;
    }
    if (!result.compiled) {
      error("'" + jobs[i].file + "' does not compile; its functions are not analysed");
      summary->failed++;
      summary->input_error = true;
      continue;
    }
    bp_program_merge(engine, result.engine.get());
    summary->units++;
  }
  summary->skipped = skipped.size();
  if (!skipped.empty())
    note("skipped " + std::to_string(skipped.size()) + " file" + (skipped.size() > 1 ? "s" : "") +
         " that " + (skipped.size() > 1 ? "are" : "is") + " not C, e.g. '" + skipped.front() + "'");
  if (jobs.empty() && !summary->input_error) {
    error("no C files to analyse");
    summary->input_error = true;
  }
}
