#!/usr/bin/env python3
"""Instructions a compile executes, counted by valgrind's callgrind: the
figure a 1% target can be read from. A shared virtual machine's CPU time
moves by tens of percent from run to run; a count of instructions does not
move at all for the same command, so one run of each side is enough.

clang runs cc1 in its own process (no fork), so callgrind counts the
front end and the plugin both. As a script:

  bench/instructions.py --plugin SO [--cwd DIR] [--profile FILE] -- clang-19 ARGS...

prints the plain and the plugin's counts and their ratio; --profile keeps
the plugin's run's callgrind output in FILE."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

VALGRIND = "valgrind"


def available():
    return shutil.which(VALGRIND) is not None


def count(command, cwd=None, profile=None):
    """The instructions `command` executes (callgrind's total); `profile`:
    where to keep callgrind's output, for callgrind_annotate."""
    with tempfile.TemporaryDirectory() as scratch:
        output = os.path.abspath(profile) if profile else os.path.join(scratch, "out")
        process = subprocess.run(
            [VALGRIND, "--tool=callgrind", "--callgrind-out-file=" + output] + command,
            cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if process.returncode not in (0, 1):
        raise RuntimeError(f"{command[:3]}... exited {process.returncode} under valgrind")
    found = re.search(r"Collected : (\d+)", process.stderr)
    if not found:
        raise RuntimeError(f"no instruction count from callgrind for {command[:3]}...")
    return int(found.group(1))


def count_set(commands, jobs=1):
    """The instructions of a list of (command, cwd), summed."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return sum(pool.map(lambda job: count(*job), commands))


def side_by_side(baseline, candidate, jobs=1):
    """baseline, candidate: lists of (command, cwd). Their counts and ratio."""
    plain, plugin = count_set(baseline, jobs), count_set(candidate, jobs)
    return {"baseline_instructions": plain, "candidate_instructions": plugin,
            "ratio": plugin / plain}


def main():
    parser = argparse.ArgumentParser(description="Instruction counts of a compile without and "
                                     "with the barrierpair plugin (callgrind).")
    parser.add_argument("--plugin", required=True, help="the plugin's .so")
    parser.add_argument("--cwd", help="directory to run the command in")
    parser.add_argument("--profile", help="keep the plugin's run's callgrind output here")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = [a for a in options.command if a != "--"]
    if not command:
        parser.error("no command")
    plain = count(command, options.cwd)
    plugin = count(command[:1] + ["-fplugin=" + options.plugin] + command[1:], options.cwd,
                   options.profile)
    print(f"plain {plain:,}  plugin {plugin:,}  ratio {plugin / plain:.4f}")


if __name__ == "__main__":
    sys.exit(main())
