#!/usr/bin/env python3
"""The engine's files call only down its pipeline (lib/README.md).

Stages, in order: model < analysis < rules < findings < driver. A file may
call a function defined in its own stage or an earlier one, never a later
one; a rule file never calls another rule file; and no two files call each
other, even through others. The driver (lib/analyze.c and the registry,
lib/rules/registry.c) may call every stage.

usage: dependencies.py <lib directory>
"""
import re
import sys
from pathlib import Path

STAGES = ["model", "analysis", "rules", "findings", "driver"]
DRIVER_FILES = {"analyze.c", "rules/registry.c"}


def stage_of(file):
    if file in DRIVER_FILES:
        return "driver"
    return file.split("/")[0] if "/" in file else "driver"


def code_only(text):
    """The text without comments, strings and character literals, whose
    words are no calls."""
    pattern = r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
    return re.sub(pattern, " ", text, flags=re.S)


def definitions_and_uses(code):
    """The bp_ functions the file defines (at top level, followed by a body)
    and the bp_ names it uses inside bodies and initialisers."""
    defined, used = set(), set()
    depth = 0
    for match in re.finditer(r"[{}]|\bbp_\w+", code):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth > 0:
            used.add(token)
        elif re.match(r"\s*\([^;{]*\)\s*\{", code[match.end():]):
            defined.add(token)
    return defined, used


def find_cycle(calls):
    """A list of files that call each other in a circle, or None."""
    state = {}  # file -> "open" while on the path, "done" after

    def visit(file, path):
        state[file] = "open"
        for callee in sorted(calls.get(file, ())):
            if state.get(callee) == "open":
                return path[path.index(callee):] + [callee]
            if callee not in state:
                cycle = visit(callee, path + [callee])
                if cycle:
                    return cycle
        state[file] = "done"
        return None

    for file in sorted(calls):
        if file not in state:
            cycle = visit(file, [file])
            if cycle:
                return cycle
    return None


def main():
    lib = Path(sys.argv[1])
    sources = sorted(path.relative_to(lib).as_posix() for path in lib.rglob("*.c"))
    definer, uses = {}, {}
    for file in sources:
        defined, used = definitions_and_uses(code_only((lib / file).read_text()))
        for function in defined:
            definer[function] = file
        uses[file] = used

    calls = {}  # file -> the files whose functions it calls
    problems = []
    for file in sources:
        for function in sorted(uses[file]):
            callee = definer.get(function)
            if callee is None or callee == file:
                continue
            calls.setdefault(file, set()).add(callee)
            caller_stage, callee_stage = stage_of(file), stage_of(callee)
            if STAGES.index(callee_stage) > STAGES.index(caller_stage):
                problems.append(f"{file} ({caller_stage}) calls {function} of {callee} "
                                f"({callee_stage}), a later stage")
            elif caller_stage == callee_stage == "rules":
                problems.append(f"rule {file} calls {function} of rule {callee}")

    cycle = find_cycle(calls)
    if cycle:
        problems.append("files call each other: " + " -> ".join(cycle))
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{len(sources)} files, {sum(map(len, calls.values()))} dependencies, "
              "all down the pipeline")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
