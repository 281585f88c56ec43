#!/usr/bin/env python3
"""make bench: the plugin's and the engine's cost, as one table.

usage: bench/run.py <build-dir> [--quick] [--docs <docs-dir>]

Writes <build-dir>/bench/results.json and the plots (PNG, gnuplot) beside
it; with --docs, copies the plots and the table into the docs. Every time is
a median over runs, every overhead a ratio of runs made side by side (see
measure.py). --quick: fewer and smaller runs, for trying the driver.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compile_set  # noqa: E402
import measure  # noqa: E402
import plot  # noqa: E402
import table  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG = "clang-19"
GENERATED_SEED = 1
GENERATED_LINES = 100000
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


def plugin_overhead(build, liburcu, large, quick):
    """Runs per figure: more where a run is short, so each takes about a
    minute; the generated TU at -O2 takes half a minute a compile."""
    plugin = [f"-fplugin={build}/lib/barrierpair.so"]
    scratch = os.path.join(build, "bench", "objects")
    os.makedirs(scratch, exist_ok=True)
    results = {}
    for mode, liburcu_runs, large_runs in (("syntax", 7, 5), ("O2", 5, 3)):
        liburcu_runs, large_runs = (2, 1) if quick else (liburcu_runs, large_runs)
        progress(f"plugin overhead, liburcu, {mode}, {liburcu_runs} runs")
        plain = compile_set.liburcu_commands(liburcu, CLANG, mode, [], scratch)
        with_plugin = compile_set.liburcu_commands(liburcu, CLANG, mode, plugin, scratch)
        results[f"liburcu_{mode}"] = measure.side_by_side(
            lambda: measure.run_set(plain), lambda: measure.run_set(with_plugin), liburcu_runs)
        progress(f"plugin overhead, generated translation unit, {mode}, {large_runs} runs")
        plain_tu = compile_set.large_tu_command(large, CLANG, mode, [], scratch)
        plugin_tu = compile_set.large_tu_command(large, CLANG, mode, plugin, scratch)
        results[f"large_{mode}"] = measure.side_by_side(
            lambda: measure.run_one(plain_tu), lambda: measure.run_one(plugin_tu), large_runs)
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


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    quick = "--quick" in sys.argv
    docs = sys.argv[sys.argv.index("--docs") + 1] if "--docs" in sys.argv else None
    out = os.path.join(build, "bench")
    os.makedirs(out, exist_ok=True)

    progress("fetching liburcu (cached)")
    liburcu = subprocess.run(["sh", os.path.join(ROOT, "scripts", "fetch-liburcu.sh"),
                              os.path.join(build, "liburcu")], check=True,
                             capture_output=True, text=True).stdout.strip()
    large = os.path.join(out, "large.c")
    lines = 10000 if quick else GENERATED_LINES
    subprocess.run([os.path.join(build, "bin", "barrierpair-bench-gen"), "--seed",
                    str(GENERATED_SEED), "--lines", str(lines), "-o", large], check=True)

    results = {"machine": machine(), "generated": {"seed": GENERATED_SEED, "lines": lines}}
    results["plugin"] = plugin_overhead(build, liburcu, large, quick)
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
