#!/usr/bin/env python3
"""Deletes a program's barriers one at a time and reports which deletions
`barrierpair check` catches at the deleted site.

usage: deletions.py --barrierpair BIN [options] PROGRAM

PROGRAM is a directory. With a compile_commands.json in it, that is the
program; without one, every *.c file in it (not below) is a translation unit
compiled with the --cflag flags. The directory is copied once to a temporary
directory (compile_commands.json rewritten to point at the copy), so the
program itself is never modified; in the copy each site is changed, checked
and restored (try/finally) in turn.

Sites
  --set fences (the default) deletes every call of a barrier: a primitive
  whose operation is FENCE in `barrierpair-tables primitives` (or a
  --primitives file), except compiler-only barriers (cmm_barrier(),
  atomic_signal_fence()) and a fence whose order argument is relaxed. The
  call is replaced by `((void)0)`, on the same line, so line numbers do not
  move. --set weaken instead turns each acquire, release, consume or seq_cst
  load, store or read-modify-write of the tables into a relaxed one
  (rcu_assign_pointer() becomes CMM_STORE_SHARED(), an order argument becomes
  relaxed, smp_load_acquire(p) becomes __atomic_load_n(p, __ATOMIC_RELAXED)).
  --set both does both.

  Candidates are the calls in the program's own files: the translation
  units of the database under PROGRAM, plus the files matching --include
  (a glob relative to PROGRAM, e.g. 'include/urcu/static/*.h'). Calls in
  comments, strings and preprocessor directives (a macro's body) are not
  sites. A site whose line no translation unit compiles (a header nobody
  includes, an #if branch not taken) is listed as not compiled and not run.

Caught at the site
  A deletion is caught at the site when `barrierpair check` reports a new
  finding (one whose rule, file, line, column, function and objects the
  pristine run does not have) that either
    - has its location, or one of its notes' locations, in the deleted
      site's file within --near lines (10) of the site's line, or
    - is in the site's enclosing function: the finding's function, or a
      function named in its message as "in its call of 'F'", is the
      enclosing function (or ends with '_' + its name, as liburcu's
      flavours rename a function with a prefix).
  It is caught elsewhere when there are new findings but none at the site,
  and missed when there is no new finding.

Exit status: 0; 1 when --max-pristine or --min-caught is not met; 2 on an
error (a check that fails with status 2, a database that cannot be read).
"""
import argparse
import fnmatch
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

COMPILER_ONLY = {"compiler only", "COMPILER"}
STRONG_ORDERS = re.compile(
    r"\b(memory_order_(?:acquire|release|acq_rel|consume|seq_cst)|"
    r"__ATOMIC_(?:ACQUIRE|RELEASE|ACQ_REL|CONSUME|SEQ_CST))\b"
)
RELAXED = re.compile(r"\b(memory_order_relaxed|__ATOMIC_RELAXED)\b")

# --set weaken: named accesses with an ordering of their own, and what a
# relaxed version of each is. (name, replacement name, argument appended).
WEAKEN_RENAMES = {
    "rcu_dereference": ("CMM_LOAD_SHARED", None),
    "_rcu_dereference": ("_CMM_LOAD_SHARED", None),
    "rcu_assign_pointer": ("CMM_STORE_SHARED", None),
    "_rcu_assign_pointer": ("_CMM_STORE_SHARED", None),
    "rcu_set_pointer": ("__atomic_store_n", "__ATOMIC_RELAXED"),
    "_rcu_set_pointer": ("__atomic_store_n", "__ATOMIC_RELAXED"),
    "smp_load_acquire": ("__atomic_load_n", "__ATOMIC_RELAXED"),
    "smp_store_release": ("__atomic_store_n", "__ATOMIC_RELAXED"),
    "atomic_load": ("atomic_load_explicit", "memory_order_relaxed"),
    "atomic_store": ("atomic_store_explicit", "memory_order_relaxed"),
    "atomic_exchange": ("atomic_exchange_explicit", "memory_order_relaxed"),
    "atomic_fetch_add": ("atomic_fetch_add_explicit", "memory_order_relaxed"),
    "atomic_fetch_sub": ("atomic_fetch_sub_explicit", "memory_order_relaxed"),
    "atomic_fetch_or": ("atomic_fetch_or_explicit", "memory_order_relaxed"),
    "atomic_fetch_and": ("atomic_fetch_and_explicit", "memory_order_relaxed"),
    "atomic_fetch_xor": ("atomic_fetch_xor_explicit", "memory_order_relaxed"),
}


def primitives(tables, primitive_files):
    """{name: (kind, ordering)} from barrierpair-tables and the primitive files."""
    out = subprocess.run([tables, "primitives"], capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            table[cells[0].strip("`")] = (cells[2], cells[3])
    for path in primitive_files:
        with open(path) as f:
            text = re.sub(r"(#|//).*", "", f.read())
        for name, operation, ordering in re.findall(
            r"BP_PRIMITIVE\(\s*(\w+)\s*,\s*\w+\s*,\s*(\w+)\s*,\s*(\w+)\s*\)", text
        ):
            kind = {"FENCE": "fence", "LOAD": "load", "STORE": "store", "RMW": "read-modify-write"}
            table[name] = (kind.get(operation, operation.lower()), ordering)
    return table


def mask(text):
    """The text with comments, strings and character literals blanked (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def directive_lines(masked):
    """Line numbers (1-based) of preprocessor directives, continuations included."""
    lines, inside = set(), False
    for number, line in enumerate(masked.split("\n"), 1):
        if inside or line.lstrip().startswith("#"):
            lines.add(number)
            inside = line.rstrip().endswith("\\")
    return lines


KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "do", "else", "__attribute__",
            "__typeof__", "typeof", "__asm__", "asm", "_Alignas", "__declspec"}


def functions(masked, directives):
    """[(name, first line, last line)] of the function definitions, by braces."""
    lines = masked.split("\n")
    code = "\n".join("" if i + 1 in directives else l for i, l in enumerate(lines))
    # extern "C" { ... } of a header read by C++ too (the string is masked):
    # its functions are at the top level.
    code = re.sub(r"\bextern\s*\{", lambda m: " " * len(m.group()), code)
    result, depth, start, header_from = [], 0, None, 0
    line_of = lambda pos: code.count("\n", 0, pos) + 1
    for match in re.finditer(r"[{};]", code):
        c, pos = match.group(), match.start()
        if c == "{":
            if depth == 0:
                header = code[header_from:pos]
                name = None
                for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", header):
                    if m.group(1) not in KEYWORDS:
                        name = m.group(1)
                        break
                # A function's header ends with ')' (or an attribute).
                start = (name, line_of(pos)) if name and re.search(r"\)\s*$", header) else None
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                if start:
                    result.append((start[0], start[1], line_of(pos)))
                start, header_from = None, pos + 1
        elif depth == 0:
            header_from = pos + 1
    return result


def closing_paren(masked, open_pos):
    depth = 0
    for i in range(open_pos, len(masked)):
        if masked[i] == "(":
            depth += 1
        elif masked[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def find_sites(root, rel, table, which):
    """The sites of one file: dicts with the edit that deletes or weakens each."""
    with open(os.path.join(root, rel), errors="replace") as f:
        text = f.read()
    masked = mask(text)
    directives = directive_lines(masked)
    funcs = functions(masked, directives)
    names = sorted(table, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.>])(" + "|".join(map(re.escape, names)) + r")\s*\(")
    sites, in_macros = [], 0
    for m in pattern.finditer(masked):
        name = m.group(1)
        kind, ordering = table[name]
        close = closing_paren(masked, m.end() - 1)
        if close is None:
            continue
        line = masked.count("\n", 0, m.start()) + 1
        call = text[m.start():close + 1]
        args = masked[m.end():close]
        edit = None
        if kind == "fence" and which in ("fences", "both"):
            if ordering in COMPILER_ONLY or RELAXED.search(args):
                continue
            # Keep the lines: the newlines of a call written over several.
            edit = ("delete", "((void)0)" + "\n" * call.count("\n"))
        elif kind != "fence" and which in ("weaken", "both"):
            strong = ordering in ("acquire", "release", "release, publishing", "consume",
                                  "seq_cst", "ACQUIRE", "RELEASE", "PUBLISH", "CONSUME",
                                  "SEQ_CST", "ACQ_REL")
            if name in WEAKEN_RENAMES and (strong or ordering in ("mb",)) and \
                    kind in ("load", "store", "read-modify-write"):
                new_name, extra = WEAKEN_RENAMES[name]
                inner = text[m.end():close]
                edit = ("weaken", new_name + "(" + inner + (", " + extra if extra else "") + ")")
            elif ordering.startswith("from the order") and kind != "fence" and \
                    STRONG_ORDERS.search(args):
                edit = ("weaken", STRONG_ORDERS.sub(
                    lambda o: "__ATOMIC_RELAXED" if o.group().startswith("__") else
                    "memory_order_relaxed", call))
        if edit is None:
            continue
        if line in directives:
            in_macros += 1
            continue
        function = next((f for f, first, last in funcs if first <= line <= last), None)
        sites.append({
            "file": rel, "line": line, "column": m.start() - masked.rfind("\n", 0, m.start()),
            "barrier": name, "function": function, "edit": edit[0],
            "span": [m.start(), close + 1], "replacement": edit[1], "call": " ".join(call.split()),
        })
    return text, sites, in_macros


def read_database(program):
    path = os.path.join(program, "compile_commands.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def copy_program(program, workdir, cflags):
    """Copies PROGRAM into workdir; returns (copy, database entries of the copy)."""
    copy = os.path.join(workdir, os.path.basename(os.path.abspath(program)) or "program")
    shutil.copytree(program, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    entries = read_database(program)
    source = os.path.realpath(program)
    if entries is None:
        entries = [{"directory": copy, "file": name,
                    "arguments": ["clang"] + cflags + ["-c", name, "-o", name + ".o"]}
                   for name in sorted(os.listdir(copy)) if name.endswith(".c")]
    else:
        entries = json.loads(json.dumps(entries).replace(source, copy)
                             .replace(os.path.abspath(program), copy))
    if not any(entry_file(e).startswith(copy + os.sep) for e in entries):
        raise RuntimeError(f"the compile_commands.json of {program} names no file inside it "
                           "(was the tree moved after it was written?)")
    with open(os.path.join(copy, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    return copy, entries


def entry_file(entry):
    return os.path.normpath(os.path.join(entry["directory"], entry["file"]))


def compiled_sites(copy, entries, sites_by_file):
    """Marks the sites whose line some translation unit compiles: each site is
    replaced by a marker token, every unit is preprocessed, the markers that
    survive are the compiled sites. The files are restored afterwards."""
    originals = {}
    try:
        for rel, (text, sites) in sites_by_file.items():
            originals[rel] = text
            edited = text
            for index, site in sorted(enumerate(sites), key=lambda s: -s[1]["span"][0]):
                a, b = site["span"]
                edited = edited[:a] + f" __bp_site_{site['id']}_ " + "\n" * text[a:b].count("\n") + edited[b:]
            with open(os.path.join(copy, rel), "w") as f:
                f.write(edited)
        seen = set()
        for entry in entries:
            args = entry.get("arguments") or shlex.split(entry["command"])
            kept, skip = [], False
            for arg in args[1:]:
                if skip:
                    skip = False
                    continue
                if arg in ("-o", "-MF", "-MT", "-MQ"):
                    skip = True
                    continue
                if arg in ("-c", "-MD", "-MMD", "-MP") or arg.startswith("-o"):
                    continue
                kept.append(arg)
            compiler = args[0] if shutil.which(args[0]) else "clang"
            run = subprocess.run([compiler, "-E", "-P", "-w"] + kept, cwd=entry["directory"],
                                 capture_output=True, text=True, errors="replace")
            seen.update(int(i) for i in re.findall(r"__bp_site_(\d+)_", run.stdout))
        return seen
    finally:
        for rel, text in originals.items():
            with open(os.path.join(copy, rel), "w") as f:
                f.write(text)


def check(options, copy):
    command = [options.barrierpair, "check", "-p", ".", "--format", "json", "--jobs", str(options.jobs)]
    for path in options.primitives:
        command += ["--primitives", os.path.abspath(path)]
    if options.beta:
        command.append("--beta")
    run = subprocess.run(command, cwd=copy, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"barrierpair check exited {run.returncode}: {run.stderr.strip()[:2000]}")
    findings = json.loads(run.stdout)["findings"]
    for finding in findings:
        for place in [finding] + finding.get("notes", []):
            place["file"] = os.path.relpath(os.path.join(copy, place["file"]), copy)
    return findings


def identity(finding):
    key = finding.get("key", {})
    return (finding["rule"], finding["file"], finding["line"], finding["column"],
            finding.get("function"), tuple(key.get("objects", [])))


def function_matches(found, name):
    return found == name or found.endswith("_" + name)


def at_site(finding, site, near):
    """Why FINDING is at SITE ('line' or 'function'), or None."""
    for place in [finding] + finding.get("notes", []):
        if place["file"] == site["file"] and abs(place["line"] - site["line"]) <= near:
            return "line"
    name = site["function"]
    if name:
        called = re.findall(r"in its call of '([^']+)'", finding.get("message", ""))
        if any(function_matches(f, name) for f in [finding.get("function") or ""] + called):
            return "function"
    return None


def run(options):
    program = os.path.abspath(options.program)
    tables = options.tables or os.path.join(os.path.dirname(os.path.abspath(options.barrierpair)),
                                            "barrierpair-tables")
    table = primitives(tables, options.primitives)
    started = time.time()
    workdir = tempfile.mkdtemp(prefix="bp-deletions-")
    try:
        copy, entries = copy_program(program, workdir, options.cflag)
        own = sorted({os.path.relpath(entry_file(e), copy) for e in entries
                      if not os.path.relpath(entry_file(e), copy).startswith("..")})
        for pattern in options.include:
            own += sorted(os.path.relpath(p, copy) for p in glob.glob(os.path.join(copy, pattern)))
        own = sorted(set(own))
        sites_by_file, in_macros, all_sites = {}, 0, []
        for rel in own:
            text, sites, macros = find_sites(copy, rel, table, options.set)
            in_macros += macros
            for site in sites:
                site["id"] = len(all_sites)
                all_sites.append(site)
            if sites:
                sites_by_file[rel] = (text, sites)
        compiled = compiled_sites(copy, entries, sites_by_file)
        pristine = check(options, copy)
        pristine_ids = {identity(f) for f in pristine}
        results = []
        for site in all_sites:
            if site["id"] not in compiled:
                site["result"] = "not compiled"
                results.append(site)
                continue
            text = sites_by_file[site["file"]][0]
            a, b = site["span"]
            path = os.path.join(copy, site["file"])
            try:
                with open(path, "w") as f:
                    f.write(text[:a] + site["replacement"] + text[b:])
                findings = check(options, copy)
            finally:
                with open(path, "w") as f:
                    f.write(text)
            new = [f for f in findings if identity(f) not in pristine_ids]
            reasons = [(at_site(f, site, options.near), f) for f in new]
            caught = [(why, f) for why, f in reasons if why]
            site["result"] = "site" if caught else "elsewhere" if new else "missed"
            site["caught_by"] = caught[0][0] if caught else None
            # Caught only by a broken contract: the barrier's partner is
            # whatever the contract stands for (often the library's user).
            site["by_contract_only"] = bool(caught) and all(
                f["rule"] == "broken-contract" for _, f in caught)
            site["already_warned"] = any(at_site(f, site, options.near) for f in pristine)
            # A pristine finding at the site whose message the deletion changed.
            before = {identity(f): f["message"] for f in pristine if at_site(f, site, options.near)}
            site["changed_at_site"] = any(before.get(identity(f), f["message"]) != f["message"]
                                          for f in findings)
            site["new_findings"] = [{"rule": f["rule"], "file": f["file"], "line": f["line"],
                                     "function": f.get("function"), "message": f["message"]}
                                    for _, f in (caught or reasons)]
            results.append(site)
            if options.verbose:
                print(f"{site['file']}:{site['line']}: {site['barrier']}: {site['result']}",
                      file=sys.stderr)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for site in results:
        for key in ("span", "replacement", "id"):
            site.pop(key, None)
    count = lambda r: sum(1 for s in results if s["result"] == r)
    summary = {
        "program": options.program, "set": options.set, "near": options.near,
        "pristine_findings": len(pristine), "sites": len(results),
        "not_compiled": count("not compiled"), "in_macro_definitions": in_macros,
        "deleted": len(results) - count("not compiled"), "caught_at_site": count("site"),
        "caught_at_site_by_contract_only": sum(1 for s in results if s.get("by_contract_only")),
        "caught_elsewhere": count("elsewhere"), "missed": count("missed"),
        "seconds": round(time.time() - started, 1),
    }
    return summary, results


def report(summary, results):
    verb = {"fences": "deleted", "weaken": "weakened", "both": "deleted or weakened"}[summary["set"]]
    print(f"{summary['program']}: {summary['pristine_findings']} pristine findings; "
          f"{summary['deleted']} sites {verb} ({summary['not_compiled']} more not compiled, "
          f"{summary['in_macro_definitions']} in macro definitions not touched)")
    print(f"caught at the site: {summary['caught_at_site']}, caught elsewhere: "
          f"{summary['caught_elsewhere']}, missed: {summary['missed']} "
          f"({summary['seconds']} s)")
    print(f"of those caught at the site, by a broken contract alone: "
          f"{summary['caught_at_site_by_contract_only']}")
    rows = [s for s in results if s["result"] != "not compiled"]
    if rows:
        print()
        print("| site | barrier | function | result | first new finding |")
        print("|---|---|---|---|---|")
        for s in rows:
            first = s["new_findings"][0] if s["new_findings"] else None
            shown = f"{first['rule']} in {first['function']} ({first['file']}:{first['line']})" \
                if first else ("(site already warned before)" if s["already_warned"] else "")
            result = {"site": f"at site ({s['caught_by']})", "elsewhere": "elsewhere",
                      "missed": "**missed**"}[s["result"]]
            print(f"| {s['file']}:{s['line']} | `{s['call']}` | {s['function']} | {result} | {shown} |")
    misses = [s for s in results if s["result"] == "missed"]
    if misses:
        print("\nmissed:")
        for s in misses:
            extra = " (a pristine finding is already at the site" + \
                (", its message changed)" if s["changed_at_site"] else ")") \
                if s["already_warned"] else ""
            print(f"  {s['file']}:{s['line']}: {s['call']} in {s['function']}{extra}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program", help="a directory with compile_commands.json, or of *.c files")
    parser.add_argument("--barrierpair", required=True, help="the barrierpair binary")
    parser.add_argument("--tables", help="barrierpair-tables (default: beside --barrierpair)")
    parser.add_argument("--primitives", action="append", default=[], metavar="FILE")
    parser.add_argument("--include", action="append", default=[], metavar="GLOB",
                        help="more files of the program's own, relative to it (headers)")
    parser.add_argument("--cflag", action="append", default=[],
                        help="a compiler flag when PROGRAM has no compile_commands.json")
    parser.add_argument("--set", choices=("fences", "weaken", "both"), default="fences")
    parser.add_argument("--beta", action="store_true",
                        help="check with --beta (the checks not yet proven quiet on real code)")
    parser.add_argument("--near", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", metavar="FILE", help="write the summary and every site")
    parser.add_argument("--max-pristine", type=int, help="fail when the pristine run has more")
    parser.add_argument("--min-caught", type=int, help="fail when fewer are caught at the site")
    parser.add_argument("--verbose", action="store_true")
    options = parser.parse_args()
    options.barrierpair = os.path.abspath(options.barrierpair)
    try:
        summary, results = run(options)
    except (RuntimeError, OSError, ValueError, subprocess.CalledProcessError) as error:
        print(f"deletions.py: error: {error}", file=sys.stderr)
        return 2
    report(summary, results)
    if options.json:
        with open(options.json, "w") as f:
            json.dump({"summary": summary, "sites": results}, f, indent=1)
            f.write("\n")
    status = 0
    if options.max_pristine is not None and summary["pristine_findings"] > options.max_pristine:
        print(f"FAIL: {summary['pristine_findings']} pristine findings, at most "
              f"{options.max_pristine} expected", file=sys.stderr)
        status = 1
    if options.min_caught is not None and summary["caught_at_site"] < options.min_caught:
        print(f"FAIL: {summary['caught_at_site']} deletions caught at the site, at least "
              f"{options.min_caught} expected", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
