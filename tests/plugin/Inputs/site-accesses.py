"""Prints the accesses of one function in the site files of a directory,
one a line: the object's name, load or store, and fields of the event
(by default whether the memory was still unpublished there; a third
argument names others, comma-separated; an object's number prints as its
name, "-" as none)."""
import pathlib
import re
import sys

directory, wanted = sys.argv[1], sys.argv[2]
shown = sys.argv[3].split(",") if len(sys.argv) > 3 else ["unpublished"]
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
            values = []
            for name in shown:
                value = fields[name]
                if name in ("set_up_flag", "after_set_up"):
                    value = objects.get(value, value)
                values.append(f"{name}={value}")
            print(f"{objects.get(fields['object'], '?')} {kind} " + " ".join(values))
