#!/usr/bin/env python3
"""`make realcode`: barrierpair on real, correct libraries, against budgets.

usage: scripts/realcode.py [--barrierpair BIN] [--cache DIR] [--docs FILE]
                           [--json FILE] [--list] [PROJECT...]

For each project of docs/precision.md's budget table (or the ones named):
fetches its Debian source package (scripts/get-source.py), builds it with
clang-19 under bear (scripts/realcode/<source-package>.sh, run in the
source directory, writes its compile_commands.json there), runs
`barrierpair check -p <source> --format json` on it, and prints the findings
per project and rule with the time each check took. Sources and builds are
cached in DIR/<source-package>/ (default build/realcode); a project whose
compile_commands.json is there is not built again, and its build's output is
in build.log next to it.

--list prints the budget table as read and fails when a row has no recipe.
Exits 1 when a project has more findings than its budget, 2 when a project
cannot be fetched, built or checked.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Options of `barrierpair check` for a project (paths from the repository root).
CHECK_OPTIONS = {
    "ck": ["--primitives", os.path.join(ROOT, "share", "primitives", "ck.def")],
}


def log(message):
    print(f"realcode: {message}", file=sys.stderr, flush=True)


def budgets(docs):
    """The rows of the budget table between the markers of docs/precision.md:
    | project | source package | budget |, the package in backquotes."""
    text = open(docs).read()
    table = re.search(r"<!-- begin budgets -->\n(.*?)<!-- end budgets -->", text, re.S)
    if not table:
        sys.exit(f"realcode: no budget table in {docs}")
    rows = []
    for line in table.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[2].isdigit():
            rows.append((cells[0], cells[1].strip("`"), int(cells[2])))
    return rows


def list_budgets(rows):
    missing = []
    for project, package, budget in rows:
        print(f"{project}\t{package}\t{budget}")
        if not os.path.exists(os.path.join(ROOT, "scripts", "realcode", f"{package}.sh")):
            missing.append(package)
    if not rows or missing:
        sys.exit("realcode: " + (f"no recipe scripts/realcode/<package>.sh for: {', '.join(missing)}"
                                 if rows else "the budget table has no rows"))


def prepare(package, cache, clang):
    """The source directory of package, fetched and built when not cached."""
    directory = os.path.join(cache, package)
    source = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "get-source.py"),
                             package, directory], stdout=subprocess.PIPE, text=True)
    if source.returncode != 0:
        raise RuntimeError(f"cannot fetch the source package {package}")
    source = source.stdout.strip()
    database = os.path.join(source, "compile_commands.json")
    if os.path.exists(database):
        return source
    recipe = os.path.join(ROOT, "scripts", "realcode", f"{package}.sh")
    build_log = os.path.join(directory, "build.log")
    log(f"building {os.path.basename(source)} with {clang} under bear (log: {build_log})")
    environment = dict(os.environ, CC=clang, JOBS=str(os.cpu_count() or 1))
    with open(build_log, "w") as output:
        built = subprocess.run(["sh", "-eu", recipe], cwd=source, env=environment,
                               stdout=output, stderr=subprocess.STDOUT)
    if built.returncode != 0 or not os.path.exists(database):
        if os.path.exists(database):
            os.remove(database)
        tail = open(build_log).read().splitlines()[-15:]
        raise RuntimeError(f"building {package} failed:\n  " + "\n  ".join(tail))
    return source


def check(barrierpair, package, source):
    """barrierpair check on source: (findings, compile commands, seconds)."""
    command = [barrierpair, "check", "-p", source, "--format", "json"]
    command += CHECK_OPTIONS.get(package, [])
    start = time.monotonic()
    result = subprocess.run(command, cwd=source, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if result.returncode not in (0, 1):
        sys.stderr.write(result.stderr[-4000:])
        raise RuntimeError(f"barrierpair check exited {result.returncode} on {package}")
    units = len(json.load(open(os.path.join(source, "compile_commands.json"))))
    return json.loads(result.stdout)["findings"], units, seconds


def table(results):
    """The Markdown table of findings per project and rule."""
    rules = sorted({f["rule"] for r in results for f in r["findings"]})
    header = ["project", "source", "compile commands", "findings"] + [f"`{r}`" for r in rules]
    header += ["budget", "check time"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in results:
        counts = [sum(f["rule"] == rule for f in r["findings"]) for rule in rules]
        over = len(r["findings"]) > r["budget"]
        lines.append("| " + " | ".join(
            [r["project"], r["source"], str(r["units"]),
             f"**{len(r['findings'])}**" if over else str(len(r["findings"]))]
            + [str(c) for c in counts]
            + [str(r["budget"]), f"{r['seconds']:.1f} s"]) + " |")
    total = sum(r["seconds"] for r in results)
    lines.append("")
    lines.append(f"Findings over the budget in bold; {total:.1f} s of checking in all.")
    return "\n".join(lines)


def write_json(results, path):
    """The table's figures as JSON: per project its total and rule counts."""
    summary = []
    for r in results:
        rules = sorted({f["rule"] for f in r["findings"]})
        summary.append({key: r[key] for key in ("project", "package", "source", "budget", "units")}
                       | {"seconds": round(r["seconds"], 2), "findings": len(r["findings"]),
                          "rules": {rule: sum(f["rule"] == rule for f in r["findings"])
                                    for rule in rules}})
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as out:
        json.dump(summary, out, indent=2)
        out.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    parser.add_argument("--barrierpair", default=os.path.join(ROOT, "build", "bin", "barrierpair"))
    parser.add_argument("--cache", default=os.path.join(ROOT, "build", "realcode"))
    parser.add_argument("--docs", default=os.path.join(ROOT, "docs", "precision.md"))
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--list", action="store_true",
                        help="print the budget table as read and check each row has a recipe")
    parser.add_argument("--clang", default=os.environ.get("BARRIERPAIR_CLANG", "clang-19"))
    parser.add_argument("projects", nargs="*", help="projects or source packages (default: all)")
    args = parser.parse_args()
    barrierpair = os.path.abspath(args.barrierpair)
    cache = os.path.abspath(args.cache)

    rows = budgets(args.docs)
    if args.list:
        return list_budgets(rows)
    if args.projects:
        known = {name for row in rows for name in row[:2]}
        unknown = [p for p in args.projects if p not in known]
        if unknown:
            sys.exit(f"realcode: not in the budget table: {', '.join(unknown)}")
        rows = [row for row in rows if row[0] in args.projects or row[1] in args.projects]

    started = time.monotonic()
    results, failed = [], []
    for project, package, budget in rows:
        try:
            source = prepare(package, cache, args.clang)
            log(f"barrierpair check on {os.path.basename(source)}")
            findings, units, seconds = check(barrierpair, package, source)
        except RuntimeError as error:
            log(str(error))
            failed.append(project)
            continue
        results.append({"project": project, "package": package,
                        "source": os.path.basename(source), "budget": budget,
                        "units": units, "seconds": seconds, "findings": findings})

    print(table(results))
    print(f"{time.monotonic() - started:.1f} s in all, fetching and building included.")
    if args.json:
        write_json(results, args.json)
    over = [r["project"] for r in results if len(r["findings"]) > r["budget"]]
    if failed:
        log(f"could not measure: {', '.join(failed)}")
        sys.exit(2)
    if over:
        log(f"over the budget of docs/precision.md: {', '.join(over)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
