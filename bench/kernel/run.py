#!/usr/bin/env python3
"""The Linux kernel as barrierpair's scale test (not part of `make check`).

usage: run.py --barrierpair BIN [--cache DIR] [--jobs N] [--json FILE]
              [--sample N] [--seed S] [--no-install] [--database FILE]
              [--plugin SO]

Installs Debian's linux-source-6.1 and what its clang build needs
(scripts/install-deps.sh --kernel), builds nine core directories (kernel,
mm, block, io_uring, net, fs, lib, ipc, security) for x86_64 defconfig with
clang (bench/kernel/build.sh, once: the cache keeps the tree), takes the
kernel's own compile database of those directories, and runs `barrierpair
check` on it. Prints the wall and CPU time and the peak memory of the
check, the time the kernel's own compile of the directories took, the
findings by rule and by directory, the agreement of the kernel's "Pairs
with" comments with the partners the analysis finds, and a seeded sample
of findings to triage. --database takes a kernel tree already built
(its compile_commands.json, from scripts/clang-tools/gen_compile_commands.py)
instead of building one. --plugin also writes the site files of the same
units with the plugin (`clang -fsyntax-only` on each compile command) and
runs `barrierpair link` over them, in the order of their names and in the
reverse order, and says whether both reports are the same bytes as
check's. Exit status 0, or 2 when a step fails.
"""
import argparse
import collections
import json
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

DIRECTORIES = ["kernel", "mm", "block", "io_uring", "net", "fs", "lib", "ipc", "security"]
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))


def top_directory(path, tree):
    return os.path.relpath(path, tree).split(os.sep)[0]


def build(cache, jobs, install):
    if install:
        subprocess.run(["sh", os.path.join(SOURCE, "scripts", "install-deps.sh"), "--kernel"],
                       check=True)
    started = time.monotonic()
    result = subprocess.run(["sh", os.path.join(HERE, "build.sh"), cache, str(jobs)],
                            check=True, stdout=subprocess.PIPE, text=True)
    database = result.stdout.strip().splitlines()[-1]
    tree = os.path.dirname(database)
    seconds_file = os.path.join(tree, ".bench-compile-seconds")
    if not os.path.exists(seconds_file):
        with open(seconds_file, "w") as out:
            out.write("%.0f\n" % (time.monotonic() - started))
    with open(seconds_file) as data:
        compile_seconds = float(data.read())
    return tree, database, compile_seconds


def program_database(tree, database, cache):
    """The database of the nine directories alone, in its own directory."""
    with open(database) as data:
        entries = json.load(data)
    kept = [e for e in entries
            if top_directory(os.path.join(e["directory"], e["file"]), tree) in DIRECTORIES]
    directory = os.path.join(cache, "program")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        json.dump(kept, out, indent=1)
    return directory, len(kept)


def run_check(barrierpair, directory, jobs, cache, tree):
    report = os.path.join(cache, "findings.json")
    comments = os.path.join(cache, "comments.json")
    command = [barrierpair, "check", "-p", directory, "-j", str(jobs), "--format", "json",
               "-o", report, "--comments", comments]
    started = time.monotonic()
    # run in the tree: reports give its files relative to it
    process = subprocess.Popen(command, cwd=tree)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("run.py: barrierpair check failed with status %d" % code)
    with open(report) as data:
        findings = json.load(data)["findings"]
    with open(comments) as data:
        checked = json.load(data)["comments"]
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak_mib": usage.ru_maxrss / 1024.0}, findings, checked


def site_command(entry, plugin, sites):
    """The entry's compile as a parse that writes its site file."""
    arguments = list(entry["arguments"]) if "arguments" in entry else shlex.split(entry["command"])
    command = [arguments[0], "-fsyntax-only", "-w", "-fplugin=" + plugin,
               "-fplugin-arg-barrierpair-sites-dir=" + sites]
    skip = False
    for argument in arguments[1:]:
        if skip:
            skip = False
        elif argument in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif argument != "-c" and not argument.startswith("-Wp,-M"):
            # the build's dependency files stay as the build wrote them
            command.append(argument)
    return command


def run_link(barrierpair, plugin, directory, jobs, cache, tree):
    """`link` over the units' site files, in two orders, against check's report."""
    with open(os.path.join(directory, "compile_commands.json")) as data:
        entries = json.load(data)
    sites = os.path.join(cache, "sites")
    shutil.rmtree(sites, ignore_errors=True)
    os.makedirs(sites)
    started = time.monotonic()
    with ThreadPoolExecutor(max(jobs, 1)) as pool:
        statuses = list(pool.map(
            lambda e: subprocess.run(site_command(e, plugin, sites), cwd=e["directory"],
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL).returncode, entries))
    site_seconds = time.monotonic() - started
    # the same files under names that sort the other way round
    reversed_sites = os.path.join(cache, "sites-reversed")
    shutil.rmtree(reversed_sites, ignore_errors=True)
    os.makedirs(reversed_sites)
    for rank, name in enumerate(sorted(os.listdir(sites), reverse=True)):
        os.symlink(os.path.join(sites, name),
                   os.path.join(reversed_sites, "%06d-%s" % (rank, name)))
    with open(os.path.join(cache, "findings.json"), "rb") as data:
        checked = data.read()
    figures = {"site_seconds": site_seconds, "failed_units": sum(1 for s in statuses if s)}
    for key, source in (("", sites), ("_reversed", reversed_sites)):
        report = os.path.join(cache, "link%s.json" % key)
        started = time.monotonic()
        process = subprocess.Popen([barrierpair, "link", source, "--format", "json", "-o", report],
                                   cwd=tree)
        _, status, usage = os.wait4(process.pid, 0)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            sys.exit("run.py: barrierpair link failed")
        figures["link%s_seconds" % key] = time.monotonic() - started
        figures["link%s_peak_mib" % key] = usage.ru_maxrss / 1024.0
        with open(report, "rb") as data:
            figures["same%s" % key] = data.read() == checked
    return figures


def comment_agreement(comments):
    named = [c for c in comments if c["defined"]]
    agreeing = [c for c in named if c["agrees"]]
    partnered = [c["partners"] for c in comments if c["partners"]]
    return {
        "comments": len(comments),
        "naming_a_defined_function": len(named),
        "agreeing": len(agreeing),
        "agreement": len(agreeing) / len(named) if named else None,
        "median_partners": statistics.median(partnered) if partnered else None,
        # where the analysis parts from the named partner (report/comments.c)
        "by_verdict": collections.Counter(c["verdict"] for c in named),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--barrierpair", required=True)
    parser.add_argument("--cache", default=os.path.join(SOURCE, "build", "kernel"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-install", action="store_true")
    parser.add_argument("--database", help="a built tree's compile_commands.json")
    parser.add_argument("--plugin", help="the plugin's .so: also compare `link` with `check`")
    args = parser.parse_args()
    cache = os.path.abspath(args.cache)
    os.makedirs(cache, exist_ok=True)

    if args.database:
        database = os.path.abspath(args.database)
        tree, compile_seconds = os.path.dirname(database), None
    else:
        tree, database, compile_seconds = build(cache, args.jobs, not args.no_install)
    directory, units = program_database(tree, database, cache)
    figures, findings, comments = run_check(os.path.abspath(args.barrierpair), directory,
                                            args.jobs, cache, tree)
    by_rule = collections.Counter(f["rule"] for f in findings)
    by_directory = collections.Counter(
        top_directory(os.path.join(tree, f["file"]), tree) for f in findings)
    agreement = comment_agreement(comments)
    sample = random.Random(args.seed).sample(findings, min(args.sample, len(findings)))

    print("linux-source-6.1, %d translation units of %s" % (units, ", ".join(DIRECTORIES)))
    if compile_seconds is not None:
        print("kernel's own compile of them: %.0f s wall (%d jobs)" % (compile_seconds, args.jobs))
    print("barrierpair check: %.1f s wall, %.1f s CPU, peak %.0f MiB" %
          (figures["wall"], figures["cpu"], figures["peak_mib"]))
    print("findings: %d" % len(findings))
    for rule, count in by_rule.most_common():
        print("  %-26s %d" % (rule, count))
    print("by directory:")
    for name, count in by_directory.most_common():
        print("  %-26s %d" % (name, count))
    print("\"Pairs with\" comments beside barriers: %d; naming a function the program defines: "
          "%d; the analysis pairs the barrier with it: %d%s; median partners of a commented "
          "barrier with any: %s" %
          (agreement["comments"], agreement["naming_a_defined_function"], agreement["agreeing"],
           " (%.0f%%)" % (100 * agreement["agreement"]) if agreement["agreement"] is not None
           else "", agreement["median_partners"]))
    for verdict, count in agreement["by_verdict"].most_common():
        print("  %-26s %d" % (verdict, count))
    linked = None
    if args.plugin:
        linked = run_link(os.path.abspath(args.barrierpair), os.path.abspath(args.plugin),
                          directory, args.jobs, cache, tree)
        print("barrierpair link: site files %.1f s wall (%d jobs, %d units failed), link %.1f s "
              "wall, peak %.0f MiB; the same bytes as check: %s; site files in reverse order: %s" %
              (linked["site_seconds"], args.jobs, linked["failed_units"],
               linked["link_seconds"], linked["link_peak_mib"],
               "yes" if linked["same"] else "no", "yes" if linked["same_reversed"] else "no"))
    print("sample of %d findings (seed %d):" % (len(sample), args.seed))
    for f in sample:
        print("  %s:%d: [%s] %s" % (os.path.relpath(os.path.join(tree, f["file"]), tree),
                                    f["line"], f["rule"], f["message"]))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"units": units, "compile_seconds": compile_seconds, "check": figures,
                       "findings": len(findings), "by_rule": by_rule,
                       "by_directory": by_directory, "comments": agreement,
                       "link": linked, "sample": sample}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
