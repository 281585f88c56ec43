"""The compile commands the plugin benchmarks replay: a project's, from its
compilation database (liburcu's from scripts/fetch-liburcu.sh, zlib's from
scripts/realcode.py), and single files' (the sqlite3 amalgamation, the
generated translation unit), each as -fsyntax-only or -O2 -c, with or
without the plugin."""
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


def database_commands(source_dir, clang, mode, plugin, scratch, name="liburcu"):
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
        output = os.path.join(scratch, f"{name}-{index}.o")
        kept += mode_flags(mode, output) + plugin + [entry["file"]]
        commands.append((kept, entry["directory"]))
    return commands


def liburcu_commands(source_dir, clang, mode, plugin, scratch):
    return database_commands(source_dir, clang, mode, plugin, scratch, "liburcu")


def file_command(path, clang, mode, plugin, scratch, flags):
    output = os.path.join(scratch, os.path.splitext(os.path.basename(path))[0] + ".o")
    return [clang] + flags + mode_flags(mode, output) + plugin + [path]


def large_tu_command(path, clang, mode, plugin, scratch):
    return file_command(path, clang, mode, plugin, scratch, ["-std=c11", "-Wall"])
