#!/usr/bin/env python3
"""The analyzer on every litmus file of this directory, against each file's
Result: line (barrierpair check DIR). Fails on a disagreement that
divergences.txt does not list, and on a listed file that now agrees (the list
must shrink as the analysis model improves). A divergence that is the
article's rule must agree with LKMM under --model=lkmm, which relaxes exactly
that rule; one that a beta check finds must agree under --beta.

usage: check-suite.py <barrierpair> <litmus directory> <divergences.txt>
"""
import re
import subprocess
import sys


def main():
    tool, directory, divergences_path = sys.argv[1:4]
    listed = {}
    with open(divergences_path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3:
                print(f"{divergences_path}: bad line (file<TAB>says<TAB>why): {line.strip()}")
                return 1
            listed[fields[0].removesuffix(".litmus")] = fields[2]
    run = subprocess.run([tool, "check", directory], capture_output=True, text=True)
    if run.returncode == 2:
        print(run.stderr)
        return 1
    verdicts = dict(re.findall(r"^Litmus (\S+): .*: (agree|DISAGREE)$", run.stdout, re.M))
    failures = []
    for name, verdict in sorted(verdicts.items()):
        if verdict == "DISAGREE" and name not in listed:
            failures.append(f"{name}: disagrees with its Result: line and is not in divergences.txt")
        if verdict == "agree" and name in listed:
            failures.append(f"{name}: now agrees: remove it from divergences.txt")
    lkmm = subprocess.run([tool, "check", "--model=lkmm", directory], capture_output=True,
                          text=True)
    lkmm_verdicts = dict(re.findall(r"^Litmus (\S+): .*: (agree|DISAGREE)$", lkmm.stdout, re.M))
    for name, why in sorted(listed.items()):
        if why.startswith("article rule") and lkmm_verdicts.get(name) != "agree":
            failures.append(f"{name}: the article's rule, but --model=lkmm does not agree either")
    beta = subprocess.run([tool, "check", "--beta", directory], capture_output=True, text=True)
    beta_verdicts = dict(re.findall(r"^Litmus (\S+): .*: (agree|DISAGREE)$", beta.stdout, re.M))
    for name, why in sorted(listed.items()):
        if why.startswith("beta") and beta_verdicts.get(name) != "agree":
            failures.append(f"{name}: found by a beta check, but --beta does not agree either")
    for name in sorted(set(listed) - set(verdicts)):
        failures.append(f"{name}: listed in divergences.txt but not checked")
    summary = re.search(r"^\d+ litmus tests: .*$", run.stdout, re.M)
    print(summary.group(0) if summary else run.stdout)
    classes = {}
    for why in listed.values():
        key = why.split(":")[0]
        classes[key] = classes.get(key, 0) + 1
    print("listed divergences:", ", ".join(f"{n} {k}" for k, n in sorted(classes.items())))
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
