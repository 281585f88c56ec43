#!/usr/bin/env python3
"""The benchmarks' tools, small: the generator is deterministic and its
output compiles cleanly; the engine benchmark's JSON has its fields.

usage: smoke.py <bench-gen> <bench-engine> <clang> <work-dir>
"""
import json
import os
import subprocess
import sys

gen, engine, clang, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)


def fail(message):
    sys.exit(f"bench-smoke: {message}")


def generate(name, *arguments):
    path = os.path.join(work, name)
    subprocess.run([gen, "-o", path, *arguments], check=True)
    with open(path, "rb") as program:
        return path, program.read()


first, first_bytes = generate("a.c", "--seed", "7", "--lines", "3000")
_, again_bytes = generate("b.c", "--seed", "7", "--lines", "3000")
_, other_bytes = generate("c.c", "--seed", "8", "--lines", "3000")
if first_bytes != again_bytes:
    fail("the same seed gave different programs")
if first_bytes == other_bytes:
    fail("seeds 7 and 8 gave the same program: the seed is ignored")
lines = first_bytes.count(b"\n")
if not 3000 <= lines < 3300:
    fail(f"--lines 3000 gave {lines} lines")
for pattern in (b"cmm_smp_wmb();", b"cmm_smp_rmb();", b"cmm_smp_mb();", b"CMM_LOAD_SHARED(",
                b"struct m"):
    if pattern not in first_bytes:
        fail(f"the program has no {pattern.decode()}")
compiled = subprocess.run([clang, "-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", first],
                          capture_output=True, text=True)
if compiled.returncode != 0:
    fail("the generated program does not compile cleanly:\n" + compiled.stderr[:4000])

report = os.path.join(work, "engine.json")
subprocess.run([engine, "--sites", "1000,3000", "--json", report], check=True,
               stdout=subprocess.DEVNULL)
with open(report) as data:
    runs = json.load(data)["runs"]
if [run["sites"] for run in runs] != [1000, 3000]:
    fail(f"engine runs are for {[run['sites'] for run in runs]}, not [1000, 3000]")
phases = {"build", "orderings", "pairing", "chains", "unpaired", "merge", "reporting"}
for run in runs:
    missing = ({"events", "functions", "objects", "orderings", "findings", "analysis_seconds",
                "peak_rss_kib", "seconds"} - run.keys()) | (phases - run.get("seconds", {}).keys())
    if missing:
        fail(f"engine run of {run['sites']} sites lacks {sorted(missing)}")
    if not run["events"] >= run["sites"] or run["orderings"] <= 0 or run["peak_rss_kib"] <= 0:
        fail(f"engine run of {run['sites']} sites is implausible: {run}")
if not runs[1]["orderings"] > runs[0]["orderings"]:
    fail("a larger program gave no more orderings")
print(f"bench-smoke: generator deterministic, {lines} lines compile cleanly; engine JSON fine")
