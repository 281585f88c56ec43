#!/usr/bin/env python3
"""Writes a compile_commands.json, as CMake or bear would.

usage: make-cdb.py <build-dir> [--directory DIR] [--command] [--flag F]... <file>...

Each file becomes one entry compiled with clang in DIR (default: the build
dir); files are written as given (relative to DIR, or absolute). --command
writes "command" strings instead of "arguments" lists.
"""
import argparse
import json
import os
import shlex

parser = argparse.ArgumentParser()
parser.add_argument("build")
parser.add_argument("--directory")
parser.add_argument("--command", action="store_true")
parser.add_argument("--flag", action="append", default=[])
parser.add_argument("--compiler", default="clang")
parser.add_argument("files", nargs="+")
options = parser.parse_args()

directory = os.path.abspath(options.directory or options.build)
entries = []
for name in options.files:
    arguments = [options.compiler] + options.flag + ["-c", name, "-o", name + ".o"]
    entry = {"directory": directory, "file": name}
    if options.command:
        entry["command"] = " ".join(shlex.quote(a) for a in arguments)
    else:
        entry["arguments"] = arguments
    entries.append(entry)
os.makedirs(options.build, exist_ok=True)
with open(os.path.join(options.build, "compile_commands.json"), "w") as out:
    json.dump(entries, out, indent=2)
