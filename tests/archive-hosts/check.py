#!/usr/bin/env python3
"""Fails when a file of the tree names a package archive's host.

usage: check.py <root>

The project takes apt's addresses from the machine it runs on
(scripts/get-source.py), so none of its files names an archive: a script or
test that does would point where a machine behind a mirror or proxy cannot
go. Only the target of a Markdown link, [text](url) or <url>, may name one.
Reads the files git tracks when <root> is the top of a git work tree, else
every file under <root>. Prints each offending line as file:line: text.
"""
import os
import re
import subprocess
import sys

# Written as patterns, so this file does not name the hosts it looks for.
HOSTS = re.compile(r"\b(deb|security|httpredir|snapshot|ftp(\.[a-z0-9-]+)?)\.debian\.org\b"
                   r"|\b([a-z0-9-]+\.)?(archive|security|ports)\.ubuntu\.com\b", re.IGNORECASE)
LINK = re.compile(r"\]\([^)\s]*\)|<https?://[^>\s]*>")


def files(root):
    if os.path.exists(os.path.join(root, ".git")):
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                                check=True)
        return [name for name in listed.stdout.decode().split("\0") if name]
    return [os.path.relpath(os.path.join(d, f), root)
            for d, _, names in os.walk(root) for f in names]


def main(root):
    found = 0
    for name in files(root):
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            outside_links = LINK.sub("", line) if name.endswith(".md") else line
            if HOSTS.search(outside_links):
                print(f"{name}:{number}: {line.strip()}")
                found += 1
    if found:
        sys.stdout.flush()
        print(f"{found} line(s) name a package archive's host; take the machine's "
              "apt entries instead (scripts/get-source.py)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1])
