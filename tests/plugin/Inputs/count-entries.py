"""Prints how many blocks of a function have no predecessor but lead
somewhere: its entry, and any block control never reaches that was linked
into the rest."""
import glob
import re
import sys

directory, name = sys.argv[1], sys.argv[2]
for path in glob.glob(directory + "/*.sites"):
    lines = open(path).read().split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith(f'function "{name}"')]
    if not starts:
        continue
    successors, entered = {}, set()
    for line in lines[starts[0] + 1:]:
        if line == "end":
            break
        edge = re.match(r"(?:loop-)?edge (\d+) (\d+)", line)
        if edge:
            successors.setdefault(int(edge.group(1)), []).append(int(edge.group(2)))
            entered.add(int(edge.group(2)))
    entries = [block for block in successors if block not in entered]
    print(f"{name}: {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}")
