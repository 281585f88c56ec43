"""The compile commands the plugin benchmarks replay: liburcu's, from the
compilation database scripts/fetch-liburcu.sh leaves, and the generated
translation unit's, each as -fsyntax-only or -O2 -c, with or without the
plugin."""
import json
import os

# What a command keeps of the database's: the defines, includes and warnings
# the project builds with; the mode and the output are the benchmark's.
DROPPED_WITH_VALUE = {"-o"}
DROPPED = {"-c", "-fsyntax-only", "-g", "-O0", "-O1", "-O2", "-O3", "-Os"}


def mode_flags(mode, output):
    if mode == "syntax":
        return ["-fsyntax-only"]
    return ["-O2", "-c", "-o", output]


def liburcu_commands(source_dir, clang, mode, plugin, scratch):
    with open(os.path.join(source_dir, "compile_commands.json")) as database:
        entries = json.load(database)
    commands = []
    for index, entry in enumerate(entries):
        arguments = entry["arguments"]
        kept, skip = [clang], False
        for argument in arguments[1:]:
            if skip:
                skip = False
            elif argument in DROPPED_WITH_VALUE:
                skip = True
            elif argument not in DROPPED and argument != entry["file"] and \
                    os.path.basename(argument) != os.path.basename(entry["file"]):
                kept.append(argument)
        output = os.path.join(scratch, f"liburcu-{index}.o")
        kept += mode_flags(mode, output) + plugin + [entry["file"]]
        commands.append((kept, entry["directory"]))
    return commands


def large_tu_command(path, clang, mode, plugin, scratch):
    output = os.path.join(scratch, "large.o")
    return [clang, "-std=c11", "-Wall"] + mode_flags(mode, output) + plugin + [path]
