#!/usr/bin/env python3
"""make bench: the plugin's and the engine's cost, as one table.

usage: bench/run.py <build-dir> [--quick] [--docs <docs-dir>]
                    [--liburcu-cache <dir>] [--realcode-cache <dir>]

Writes <build-dir>/bench/results.json and the plots (PNG, gnuplot) beside
it; with --docs, copies the plots and the table into the docs. Every time is
a median over runs, every overhead a ratio of runs made side by side (see
measure.py); beside the CPU time, the plugin's overhead is also counted in
instructions executed (instructions.py, valgrind's callgrind), which do not
move between runs on a shared machine. --quick: fewer and smaller runs, for trying the driver.

Inputs: liburcu (scripts/fetch-liburcu.sh, cached in <build>/liburcu), zlib,
the sqlite3 amalgamation and Concurrency Kit (scripts/realcode.py's builds,
cached in <build>/realcode), and generated files; each is fetched and built
only when its cache lacks it.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "scripts"))
import compile_set  # noqa: E402
import instructions  # noqa: E402
import measure  # noqa: E402
import plot  # noqa: E402
import realcode  # noqa: E402
import table  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG = "clang-19"
GENERATED_SEED = 1
GENERATED_LINES = 100000
SIZES = (10000, 30000)  # smaller generated files, for the cost against file size
SQLITE_FLAGS = ["-DSQLITE_THREADSAFE=0"]
ENGINE_SITES = "1e3,3e3,1e4,3e4,1e5,3e5,1e6"


def progress(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def machine():
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in lscpu.splitlines() if ":" in line)
    keep = ["Architecture", "Model name", "CPU(s)", "Thread(s) per core", "Hypervisor vendor",
            "L2 cache", "L3 cache"]
    summary = {key: fields[key].strip() for key in keep if key in fields}
    clang = subprocess.run([CLANG, "--version"], capture_output=True, text=True).stdout
    summary["clang"] = clang.splitlines()[0] if clang else ""
    return summary


def plugin_overhead(build, inputs, large, quick):
    """Runs per figure: more where a run is short; the generated TU and the
    sqlite3 amalgamation take half a minute to a minute a compile at -O2."""
    plugin = [f"-fplugin={build}/lib/barrierpair.so"]
    scratch = os.path.join(build, "bench", "objects")
    os.makedirs(scratch, exist_ok=True)
    sets = {
        "liburcu": lambda mode, extra: compile_set.liburcu_commands(
            inputs["liburcu"], CLANG, mode, extra, scratch),
        "zlib": lambda mode, extra: compile_set.database_commands(
            inputs["zlib"], CLANG, mode, extra, scratch, "zlib"),
    }
    files = {
        "sqlite3": lambda mode, extra: compile_set.file_command(
            inputs["sqlite3"], CLANG, mode, extra, scratch, SQLITE_FLAGS),
        "large": lambda mode, extra: compile_set.large_tu_command(
            large, CLANG, mode, extra, scratch),
    }
    runs = {"syntax": {"liburcu": 7, "zlib": 7, "sqlite3": 5, "large": 5},
            "O2": {"liburcu": 5, "zlib": 5, "sqlite3": 3, "large": 3}}
    results = {}
    for mode in ("syntax", "O2"):
        for source in ("liburcu", "zlib", "sqlite3", "large"):
            count = (2 if source in sets else 1) if quick else runs[mode][source]
            progress(f"plugin overhead, {source}, {mode}, {count} runs")
            if source in sets:
                plain, with_plugin = sets[source](mode, []), sets[source](mode, plugin)
                results[f"{source}_{mode}"] = measure.side_by_side(
                    lambda: measure.run_set(plain), lambda: measure.run_set(with_plugin), count)
            else:
                plain, with_plugin = files[source](mode, []), files[source](mode, plugin)
                results[f"{source}_{mode}"] = measure.side_by_side(
                    lambda: measure.run_one(plain), lambda: measure.run_one(with_plugin), count)
    return results


def instruction_overhead(build, inputs, large, quick):
    """Plugin ÷ plain in instructions executed (callgrind), -fsyntax-only:
    one run a side, as the count does not move between runs; the figure the
    1% targets are read from. None without valgrind
    (scripts/install-deps.sh --bench installs it)."""
    if not instructions.available():
        progress("no valgrind: instruction counts left out")
        return None
    plugin = [f"-fplugin={build}/lib/barrierpair.so"]
    scratch = os.path.join(build, "bench", "objects")
    os.makedirs(scratch, exist_ok=True)
    sets = {
        "liburcu": lambda extra: compile_set.liburcu_commands(
            inputs["liburcu"], CLANG, "syntax", extra, scratch),
        "zlib": lambda extra: compile_set.database_commands(
            inputs["zlib"], CLANG, "syntax", extra, scratch, "zlib"),
        "sqlite3": lambda extra: [(compile_set.file_command(
            inputs["sqlite3"], CLANG, "syntax", extra, scratch, SQLITE_FLAGS), None)],
        "large": lambda extra: [(compile_set.large_tu_command(
            large, CLANG, "syntax", extra, scratch), None)],
    }
    results = {}
    for source, commands in sets.items():
        if quick and source == "liburcu":
            continue  # 35 compiles under valgrind: minutes
        progress(f"instruction counts, {source}, -fsyntax-only (callgrind)")
        results[f"{source}_syntax"] = instructions.side_by_side(
            commands([]), commands(plugin), jobs=os.cpu_count() or 1)
    return results


def cost_by_size(build, large, quick):
    """-fsyntax-only with and without the plugin on generated files of
    several sizes (the largest is plugin_overhead's)."""
    plugin = [f"-fplugin={build}/lib/barrierpair.so"]
    scratch = os.path.join(build, "bench", "objects")
    results = []
    for lines in ((2000,) if quick else SIZES):
        path = os.path.join(build, "bench", f"generated-{lines}.c")
        subprocess.run([os.path.join(build, "bin", "barrierpair-bench-gen"), "--seed",
                        str(GENERATED_SEED), "--lines", str(lines), "-o", path], check=True)
        progress(f"plugin cost against file size, {lines} lines")
        plain = compile_set.large_tu_command(path, CLANG, "syntax", [], scratch)
        with_plugin = compile_set.large_tu_command(path, CLANG, "syntax", plugin, scratch)
        result = measure.side_by_side(lambda: measure.run_one(plain),
                                      lambda: measure.run_one(with_plugin), 1 if quick else 5)
        result["lines"] = lines
        results.append(result)
    return results


def whole_program(build, liburcu, runs, jobs):
    progress(f"whole program, liburcu, {runs} runs, {jobs} jobs")
    scratch = os.path.join(build, "bench", "objects")
    parse = compile_set.liburcu_commands(liburcu, CLANG, "syntax", [], scratch)
    check = [os.path.join(build, "bin", "barrierpair"), "check", "-p", liburcu,
             "--jobs", str(jobs), "--format", "json", "-o", os.devnull]
    result = measure.side_by_side(lambda: measure.run_set(parse, jobs),
                                  lambda: measure.run_one(check, liburcu), runs, clock="wall")
    result["jobs"] = jobs
    result["files"] = len(parse)
    return result


def check_ck(build, ck, runs, jobs):
    """`barrierpair check` on Concurrency Kit with its primitive file: CPU
    time and peak RSS, medians of `runs`, and its files' parallel parse."""
    progress(f"barrierpair check, Concurrency Kit, {runs} runs")
    scratch = os.path.join(build, "bench", "objects")
    check = [os.path.join(build, "bin", "barrierpair"), "check", "-p", ck, "--jobs", str(jobs),
             "--primitives", os.path.join(ROOT, "share", "primitives", "ck.def"),
             "--format", "json", "-o", os.devnull]
    result = measure.repeat(check, runs, ck)
    parse = compile_set.database_commands(ck, CLANG, "syntax", [], scratch, "ck")
    parses = [measure.run_set(parse, jobs) for _ in range(runs)]
    result["parse_wall"] = statistics.median(seconds["wall"] for seconds, _ in parses)
    result["parse_cpu"] = statistics.median(seconds["cpu"] for seconds, _ in parses)
    result["files"] = len(parse)
    result["jobs"] = jobs
    return result


def engine_scaling(build, runs, sites):
    progress(f"engine scaling, {sites} sites, {runs} runs")
    tool = os.path.join(build, "bin", "barrierpair-bench-engine")
    report = os.path.join(build, "bench", "engine.json")
    all_runs = []
    for _ in range(runs):
        subprocess.run([tool, "--sites", sites, "--json", report], check=True,
                       stdout=subprocess.DEVNULL)
        with open(report) as data:
            all_runs.append(json.load(data)["runs"])
    medians = []
    for size in zip(*all_runs):
        median = dict(size[0])
        median["analysis_seconds"] = statistics.median(r["analysis_seconds"] for r in size)
        median["peak_rss_kib"] = statistics.median(r["peak_rss_kib"] for r in size)
        median["seconds"] = {phase: statistics.median(r["seconds"][phase] for r in size)
                             for phase in size[0]["seconds"]}
        median["reporting_seconds"] = median["seconds"]["reporting"]
        medians.append(median)
    return medians


def litmus(build, runs, iterations):
    progress(f"litmus throughput, {runs} runs")
    tool = os.path.join(build, "bin", "barrierpair-litmus")
    report = os.path.join(build, "bench", "litmus.json")
    rates, witnesses = {}, []
    for _ in range(runs):
        subprocess.run([tool, "--variant", "weakest", "--iterations", str(iterations),
                        "--json", report], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(report) as data:
            for test in json.load(data)["tests"]:
                rates.setdefault(test["scenario"], []).append(test["runs_per_second"])
        subprocess.run([tool, "--self-test", "--json", report], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(report) as data:
            first = json.load(data)["tests"][0]["first_witness"]
        witnesses.append(first["seconds"] if first else None)
    seen = [w for w in witnesses if w is not None]
    return {
        "iterations": iterations,
        "runs_per_second": {row: statistics.median(r) for row, r in sorted(rates.items())},
        "first_witness_seconds": statistics.median(seen) if seen else None,
        "self_tests_witnessed": f"{len(seen)}/{len(witnesses)}",
    }


def count_lines(path):
    """Lines of a file, or of the C files a compilation database names."""
    if os.path.isdir(path):
        with open(os.path.join(path, "compile_commands.json")) as database:
            files = sorted({entry["file"] for entry in json.load(database)})
    else:
        files = [path]
    total = 0
    for name in files:
        with open(name, "rb") as source:
            total += source.read().count(b"\n")
    return total


def arguments():
    parser = argparse.ArgumentParser(description="Measures what barrierpair costs "
                                     "(docs/performance.md).")
    parser.add_argument("build", nargs="?", default="build",
                        help="the build directory (default: build)")
    parser.add_argument("--quick", action="store_true",
                        help="a short trial of the driver: fewer and smaller runs")
    parser.add_argument("--docs", metavar="DIR",
                        help="also copy the plots and results.json into DIR")
    parser.add_argument("--liburcu-cache", metavar="DIR",
                        help="where liburcu is fetched and built (default: BUILD/liburcu)")
    parser.add_argument("--realcode-cache", metavar="DIR",
                        help="where zlib, sqlite3 and ck are (default: BUILD/realcode)")
    options = parser.parse_args()
    if not os.path.isfile(os.path.join(options.build, "lib", "barrierpair.so")):
        parser.error(f"{options.build} is not a build directory of barrierpair "
                     "(no lib/barrierpair.so): build it first, `make build`")
    return options


def main():
    options = arguments()
    build = os.path.abspath(options.build)
    quick = options.quick
    docs = options.docs
    out = os.path.join(build, "bench")
    os.makedirs(out, exist_ok=True)

    progress("fetching liburcu (cached)")
    liburcu_cache = options.liburcu_cache or os.path.join(build, "liburcu")
    liburcu = subprocess.run(["sh", os.path.join(ROOT, "scripts", "fetch-liburcu.sh"),
                              liburcu_cache], check=True,
                             capture_output=True, text=True).stdout.strip()
    realcode_cache = options.realcode_cache or os.path.join(build, "realcode")
    progress("fetching zlib, sqlite3 and ck (cached)")
    inputs = {"liburcu": liburcu}
    for package in ("zlib", "sqlite3", "ck"):
        inputs[package] = realcode.prepare(package, realcode_cache, CLANG)
    inputs["sqlite3"] = os.path.join(inputs["sqlite3"], "sqlite3.c")
    large = os.path.join(out, "large.c")
    lines = 10000 if quick else GENERATED_LINES
    subprocess.run([os.path.join(build, "bin", "barrierpair-bench-gen"), "--seed",
                    str(GENERATED_SEED), "--lines", str(lines), "-o", large], check=True)

    results = {"machine": machine(), "generated": {"seed": GENERATED_SEED, "lines": lines}}
    results["inputs"] = {name: {"path": path, "lines": count_lines(path)}
                         for name, path in inputs.items()}
    results["inputs"]["large"] = {"path": large, "lines": count_lines(large)}
    results["plugin"] = plugin_overhead(build, inputs, large, quick)
    results["instructions"] = instruction_overhead(build, inputs, large, quick)
    results["by_size"] = cost_by_size(build, large, quick)
    results["by_size"].append(dict(results["plugin"]["large_syntax"], lines=lines))
    results["check_ck"] = check_ck(build, inputs["ck"], 1 if quick else 3, os.cpu_count() or 1)
    results["whole_program"] = whole_program(build, liburcu, 2 if quick else 5,
                                             os.cpu_count() or 1)
    results["engine"] = engine_scaling(build, 1 if quick else 3,
                                       "1e3,1e4,1e5" if quick else ENGINE_SITES)
    results["litmus"] = litmus(build, 1 if quick else 3, 20000 if quick else 200000)

    with open(os.path.join(out, "results.json"), "w") as data:
        json.dump(results, data, indent=1)
    text = table.render(results)
    with open(os.path.join(out, "results.md"), "w") as data:
        data.write(text)
    pictures = plot.render(results, out)
    print(text)
    progress(f"wrote {out}/results.json, results.md and {len(pictures)} plots")
    if docs:
        for picture in pictures:
            shutil.copy(picture, os.path.join(docs, "pictures", os.path.basename(picture)))
        shutil.copy(os.path.join(out, "results.json"),
                    os.path.join(docs, "data", "performance.json"))
        progress(f"copied the plots and results.json into {docs}")


if __name__ == "__main__":
    main()
