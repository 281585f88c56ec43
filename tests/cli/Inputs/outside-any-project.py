#!/usr/bin/env python3
"""usage: outside-any-project.py <file>... -- <command>...: copies the files
into a new temporary directory outside every source tree and build (so no
compile_commands.json above it is found), runs the command there, passes its
output and exit status through, and removes the directory."""
import shutil
import subprocess
import sys
import tempfile

split = sys.argv.index("--")
files, command = sys.argv[1:split], sys.argv[split + 1:]
with tempfile.TemporaryDirectory() as directory:
    for name in files:
        shutil.copy(name, directory)
    sys.exit(subprocess.run(command, cwd=directory).returncode)
