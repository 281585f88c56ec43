#!/usr/bin/env python3
"""usage: expect-exit.py <status> <command>...: runs the command, passing its
output through, and fails unless it exits with exactly <status>."""
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:]).returncode
if status != expected:
    sys.stderr.write(f"expect-exit: '{sys.argv[2]}' exited {status}, expected {expected}\n")
    sys.exit(1)
