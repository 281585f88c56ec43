#!/usr/bin/env python3
"""The real-code test: liburcu 0.13 from Debian, analysed end to end.

usage: check-liburcu.py <barrierpair> <source-dir> <triage.tsv>

Runs `barrierpair check` over liburcu's compile_commands.json with --jobs 1
and 2 and fails when it crashes, reports an input error, gives different
output for the two, or reports a finding that tests/liburcu/triage.tsv (the
triage in docs/liburcu-findings.md) does not list. Findings that went away
are only noted: update the triage when you fix a false positive.
"""
import json
import subprocess
import sys
import time

barrierpair, source, triage_path = sys.argv[1:4]


def run(jobs):
    start = time.monotonic()
    result = subprocess.run([barrierpair, "check", "-p", source, "--format", "json",
                             "--jobs", str(jobs)], cwd=source, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if result.returncode not in (0, 1):
        sys.stderr.write(result.stderr)
        sys.exit(f"check-liburcu: barrierpair check --jobs {jobs} exited {result.returncode}")
    return result.stdout, elapsed


one, seconds = run(1)
two, _ = run(2)
if one != two:
    sys.exit("check-liburcu: --jobs 1 and --jobs 2 give different output")

findings = json.loads(one)["findings"]
units = len(json.load(open(f"{source}/compile_commands.json")))


def key(finding):
    k = finding["key"]
    return "|".join([k["rule"], finding["file"].split("/")[-1], k["function"]] + k["objects"])


triaged = {}
for line in open(triage_path):
    if line.strip() and not line.startswith("#"):
        fields = line.rstrip("\n").split("\t")
        triaged[fields[0]] = fields[1]

found = {key(f) for f in findings}
new = sorted(found - triaged.keys())
gone = sorted(triaged.keys() - found)
classes = {}
for k in found & triaged.keys():
    classes[triaged[k]] = classes.get(triaged[k], 0) + 1
print(f"liburcu: {units} compile commands, {len(findings)} findings "
      f"({len(found)} keys) in {seconds:.2f} s with --jobs 1; by triage class: "
      + ", ".join(f"{c} {n}" for c, n in sorted(classes.items())))
for k in gone:
    print(f"note: no longer reported (update tests/liburcu/triage.tsv and "
          f"docs/liburcu-findings.md): {k}")
if new:
    for k in new:
        print(f"error: not triaged: {k}")
    sys.exit("check-liburcu: new findings on liburcu: triage them in docs/liburcu-findings.md "
             "and tests/liburcu/triage.tsv (true problem, false positive and why, or needs "
             "annotation)")
