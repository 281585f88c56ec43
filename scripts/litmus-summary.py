#!/usr/bin/env python3
"""Summarises a `barrierpair-litmus --json` run for docs/scenarios.md.

    litmus-summary.py table RESULTS.json
        one Markdown table row per scenario: what this CPU did with each variant
    litmus-summary.py sections RESULTS.json < sections.md
        copies sections.md, replacing each `<!-- litmus N -->` line (written by
        scenario-dot markdown) with that row's result in one paragraph

Nothing here knows the scenario table: rows, variants and verdicts all come
from the runner's JSON."""

import json
import re
import sys
from collections import defaultdict


def load(path):
    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    rows = defaultdict(list)
    for test in results["tests"]:
        rows[test["scenario"]].append(test)
    return results, rows


def runs(n):
    """10^6, not 1000000."""
    exponent = len(str(n)) - 1
    if n == 10**exponent and exponent >= 3:
        return f"10^{exponent}"
    return str(n)


def classify(tests):
    """Variant names by what the run showed, in the runner's order."""
    groups = defaultdict(list)
    for test in tests:
        verdict = test["verdict"]
        if verdict == "confirmed":
            groups["confirmed"].append(test)
        elif verdict == "witnessed":
            groups["witnessed"].append(test)
        elif verdict == "not shown by this CPU":
            allowed = test.get("cpu_model_allows")
            groups["unseen" if allowed else "impossible"].append(test)
        else:
            groups["contradiction"].append(test)
    return groups


def sharing(tests):
    """" (3 threads on 2 CPUs)" when the row's threads had to share CPUs."""
    shared = [t for t in tests if t.get("shared_cpus")]
    if not shared:
        return ""
    return f" ({shared[0]['threads']} threads on {shared[0]['cpus']} CPUs)"


def names(tests, counts=False):
    if not tests:
        return "—"
    if counts:
        return ", ".join(f"`{t['variant']}` ({t['witnesses']})" for t in tests)
    return ", ".join(f"`{t['variant']}`" for t in tests)


def machine(results):
    options = results["options"]
    return (
        f"{results['architecture']}, {results['cpus_available']} CPUs, "
        f"up to {runs(options['iterations'])} runs per test"
    )


def table(results, rows):
    model = results.get("cpu_model") or "no CPU model"
    print(f"Measured on {machine(results)}; CPU model {model}.")
    print()
    print(
        "| # | table's barriers held | forbidden outcome witnessed (count) "
        f"| broken, but {model} cannot show it | broken, allowed by {model}, not seen |"
    )
    print("|---|---|---|---|---|")
    for number in sorted(rows):
        g = classify(rows[number])
        held = names(g["confirmed"])
        if g["contradiction"]:
            held += " — **CONTRADICTION**: " + names(g["contradiction"], counts=True)
        print(
            f"| [{number}](#scenario-{number}) | {held} | {names(g['witnessed'], counts=True)} "
            f"| {names(g['impossible'])} | {names(g['unseen'])}{sharing(g['unseen'])} |"
        )


def paragraph(results, tests):
    g = classify(tests)
    total = tests[0]["iterations"] if tests else 0
    parts = []
    if g["contradiction"]:
        parts.append(
            "**the forbidden outcome appeared with the table's barriers** in "
            + names(g["contradiction"], counts=True)
        )
    if g["confirmed"]:
        parts.append(f"with the table's barriers ({names(g['confirmed'])}) it never appeared")
    if g["witnessed"]:
        parts.append(
            f"this CPU produced it in {names(g['witnessed'], counts=True)} of {runs(total)} runs"
        )
    if g["impossible"]:
        parts.append(
            f"{results.get('cpu_model') or 'this CPU'} cannot produce it in "
            f"{names(g['impossible'])}, so x86 hides those bugs"
        )
    if g["unseen"]:
        parts.append(
            f"it is possible but did not appear in {names(g['unseen'])}{sharing(g['unseen'])}"
        )
    return (
        f"**On {results['architecture']}** ([barrierpair-litmus](litmus.md), "
        f"{machine(results)}): " + "; ".join(parts) + "."
    )


def sections(results, rows):
    for line in sys.stdin:
        match = re.fullmatch(r"<!-- litmus (\d+) -->\n?", line)
        if not match:
            sys.stdout.write(line)
            continue
        number = int(match.group(1))
        if number in rows:
            print(paragraph(results, rows[number]))
        else:
            print(f"**On {results['architecture']}:** not measured.")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("table", "sections"):
        sys.exit("usage: litmus-summary.py table|sections RESULTS.json")
    results, rows = load(sys.argv[2])
    (table if sys.argv[1] == "table" else sections)(results, rows)


if __name__ == "__main__":
    main()
