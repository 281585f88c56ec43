#!/usr/bin/env python3
"""Cross-checks the analyzer against the litmus variants.

For every generated litmus source listed in litmus_manifest.json, runs
`clang -fsyntax-only -fplugin=barrierpair.so` and compares the functions that
get a missing-barrier or weak-barrier warning with what the manifest says:
the generator derived it from the variant (which barrier each side got) and
the scenario table (what the row needs there), never from the analyzer.

A source passes when the analyzer reports exactly the expected rule at each
side's function and nothing for the correct variants. Exit status 0 when
every source passes, 1 otherwise, 2 on bad usage.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

CHECKED_RULES = {"missing-barrier", "weak-barrier"}
DIAGNOSTIC = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>warning|error): "
    r"(?P<message>.*?)(?: \[barrierpair-(?P<rule>[a-z-]+)\])?(?: \[-W[^\]]+\])?$"
)
FUNCTION_START = re.compile(r"^static struct litmus_registers (cpu\d)\(size_t i\) \{$")
NAMED_FUNCTION = re.compile(r" in '(cpu\d)'")


def function_lines(source_path):
    """Maps each line number of a generated source to the cpuN function it is in."""
    owner = {}
    current = None
    with open(source_path, encoding="utf-8") as source:
        for number, line in enumerate(source, start=1):
            start = FUNCTION_START.match(line.rstrip("\n"))
            if start:
                current = start.group(1)
            if current:
                owner[number] = current
            if current and line.startswith("}"):
                current = None
    return owner


def analyze(test, args):
    """Runs the analyzer on one source; returns (test, diagnostics, errors)."""
    source = os.path.join(args.generated_dir, test["source"])
    command = [args.clang, "-fsyntax-only", "-fplugin=" + args.plugin, "-std=c11"]
    # The article ignores scenario 0 (IRIW), and a litmus thread only looks
    # at what it loads (its registers), acting on none of it: by default a
    # side that loads twice is message passing only where the code acts on
    # the first load (docs/rules/missing-barrier.md). Both come with beta.
    command.append("-fplugin-arg-barrierpair-beta")
    command += ["-I" + directory for directory in args.include]
    command.append(source)
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    owner = function_lines(source)
    diagnostics, errors = [], []
    for line in completed.stderr.splitlines():
        match = DIAGNOSTIC.match(line)
        if not match:
            continue
        if match.group("severity") == "error":
            errors.append(line)
            continue
        if not match.group("rule"):
            continue  # a compiler warning, not ours: the compile test covers those
        function = owner.get(int(match.group("line")))
        if function is None:
            named = NAMED_FUNCTION.search(match.group("message"))
            function = named.group(1) if named else "?"
        diagnostics.append((function, match.group("rule"), line))
    if completed.returncode != 0 and not errors:
        errors.append(f"clang exited with status {completed.returncode}: {completed.stderr.strip()}")
    return test, diagnostics, errors


def compare(test, diagnostics, errors):
    """Returns the list of disagreements for one source (empty: it passes)."""
    problems = list(errors)
    expected = {(side["function"], side["expected_rule"]) for side in test["sides"]
                if side["expected_rule"]}
    reported = {(function, rule) for function, rule, _ in diagnostics if rule in CHECKED_RULES}
    correct = not expected and all(not side["table_says"] for side in test["sides"])
    sides = {side["function"]: side for side in test["sides"]}

    def why(function):
        side = sides.get(function)
        if not side:
            return "an extra CPU with a single store"
        barrier = "no barrier" if side["barrier"] == "(none)" else side["barrier"]
        return f"it has {barrier}, the row allows {side['weakest_allowed']}"

    for function, rule in sorted(expected - reported):
        problems.append(f"expected {rule} at '{function}' ({why(function)}), analyzer said nothing")
    for function, rule in sorted(reported - expected):
        problems.append(f"analyzer reported {rule} at '{function}' ({why(function)}), "
                        "the table does not call that side broken that way")
    if correct:
        for function, rule, line in diagnostics:
            if rule not in CHECKED_RULES:
                problems.append(f"correct variant, yet the analyzer reported {rule}: {line}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clang", required=True, help="clang-19 (or the matching clang)")
    parser.add_argument("--plugin", required=True, help="barrierpair.so")
    parser.add_argument("--manifest", required=True, help="litmus_manifest.json")
    parser.add_argument("-I", dest="include", action="append", default=[],
                        help="include directory for the generated sources")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--verbose", action="store_true", help="list every source")
    args = parser.parse_args()
    for path, what in ((args.clang, "clang"), (args.plugin, "plugin"), (args.manifest, "manifest")):
        if not os.path.exists(path):
            print(f"crosscheck: no {what} at {path}", file=sys.stderr)
            return 2
    with open(args.manifest, encoding="utf-8") as manifest:
        tests = json.load(manifest)["tests"]
    args.generated_dir = os.path.dirname(os.path.abspath(args.manifest))

    failures = 0
    silent_broken = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for test, diagnostics, errors in pool.map(lambda t: analyze(t, args), tests):
            problems = compare(test, diagnostics, errors)
            if any(side["table_says"] and not side["expected_rule"] for side in test["sides"]):
                silent_broken.append(test["name"])
            if problems:
                failures += 1
                print(f"DISAGREE {test['name']} ({test['source']}):")
                for problem in problems:
                    print(f"  {problem}")
            elif args.verbose:
                rules = ", ".join(f"{f}: {r}" for f, r, _ in diagnostics) or "nothing"
                print(f"agree    {test['name']}: {rules}")
    print(f"crosscheck: {len(tests)} litmus sources, {len(tests) - failures} agree, "
          f"{failures} disagree")
    if silent_broken:
        print(f"crosscheck: {len(silent_broken)} variants have no barrier on either side "
              "(broken by the table, but no barriered site for missing-barrier to pair with), "
              "so the analyzer is expected to stay silent: " + ", ".join(silent_broken))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
