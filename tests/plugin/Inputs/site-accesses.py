"""Prints the accesses of one function in the site files of a directory,
one a line: the object's name, load or store, and whether the memory was
still unpublished there."""
import pathlib
import re
import sys

directory, wanted = sys.argv[1], sys.argv[2]
for path in sorted(pathlib.Path(directory).glob("*.sites")):
    objects, function = {}, None
    for line in path.read_text().splitlines():
        if line.startswith("object "):
            number, key, display = re.match(r'object (\d+) "(.*?)" "(.*?)"', line).groups()
            objects[number] = display
        elif line.startswith("function "):
            function = line.split('"')[1]
        elif line.startswith("event ") and function == wanted and " type=0 " in line:
            fields = dict(re.findall(r' (\w+)=("[^"]*"|\S+)', line))
            kind = "store" if fields["kind"] == "1" else "load"
            print(f"{objects.get(fields['object'], '?')} {kind} unpublished={fields['unpublished']}")
