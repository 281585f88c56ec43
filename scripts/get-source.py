#!/usr/bin/env python3
"""Gets a Debian source package from the archive this machine's apt uses.

usage: scripts/get-source.py <source-package> [<dir>]
       scripts/get-source.py --derive <file>...

The first form makes sure apt knows source entries, then runs
`apt-get source <source-package>` in <dir> (default: the current directory)
and prints the directory it unpacked. A directory <source-package>-* already
in <dir> is reused: nothing is fetched. When the archive lacks the files of
the version apt picks, the other versions apt knows are tried, newest first.

Source entries come from the machine's own `deb` entries, never from an
address written here: every enabled `deb` entry of /etc/apt/sources.list,
/etc/apt/sources.list.d/*.list (one-line format) and
/etc/apt/sources.list.d/*.sources (deb822) whose URI and suite have no
`deb-src` entry yet is copied, with its URIs, Suites, Components and
Signed-By, as a `deb-src` entry into
/etc/apt/sources.list.d/barrierpair-deb-src.sources. A second run adds
nothing; `apt-get update` runs only when something was added (or when apt
does not know the package's source yet). Writing there and updating need
root: they run directly as root, else through sudo.

--derive prints the entries that would be added for the given files (a
`.sources` file is deb822, any other one-line) and touches nothing.
"""
import functools
import glob
import os
import re
import shutil
import subprocess
import sys

APT_DIR = "/etc/apt"
OUTPUT = os.path.join(APT_DIR, "sources.list.d", "barrierpair-deb-src.sources")


def log(message):
    print(f"get-source: {message}", file=sys.stderr)


class Entry:
    """One apt source entry: deb or deb-src, its URIs, suites, components
    and Signed-By (the value's lines as written, for an inline key)."""

    def __init__(self, types, uris, suites, components, signed_by=None):
        self.types, self.uris, self.suites = types, uris, suites
        self.components, self.signed_by = components, signed_by


def parse_deb822(text):
    """The enabled entries of a deb822 .sources file."""
    entries = []
    for paragraph in re.split(r"\n[ \t]*\n", text):
        fields, name = {}, None
        for line in paragraph.splitlines():
            if line.startswith("#"):
                continue
            if line[:1] in (" ", "\t") and name:
                fields[name].append(line.strip())
            elif ":" in line:
                name, value = line.split(":", 1)
                name = name.strip().lower()
                fields[name] = [value.strip()]
        if not fields or " ".join(fields.get("enabled", ["yes"])).lower() == "no":
            continue
        words = {k: " ".join(v).split() for k, v in fields.items() if k != "signed-by"}
        entries.append(Entry(words.get("types", []), words.get("uris", []),
                             words.get("suites", []), words.get("components", []),
                             fields.get("signed-by")))
    return entries


def parse_one_line(text):
    """The enabled entries of a one-line sources.list file:
    `type [options] uri suite [component...]`; `#` starts a comment."""
    entries = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        options = {}
        match = re.match(r"(\S+)\s+\[([^\]]*)\]\s*(.*)", line)
        if match:
            kind, option_text, rest = match.groups()
            for option in option_text.split():
                if "=" in option:
                    key, value = option.split("=", 1)
                    options[key.lower()] = value
            words = [kind] + rest.split()
        else:
            words = line.split()
        if len(words) < 3:
            continue
        signed_by = options.get("signed-by")
        entries.append(Entry([words[0]], [words[1]], [words[2]], words[3:],
                             [signed_by.replace(",", " ")] if signed_by else None))
    return entries


def parse(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return parse_deb822(text) if path.endswith(".sources") else parse_one_line(text)


def derive(entries):
    """deb-src entries for every deb entry's (URI, suite) that no deb-src
    entry has: one per deb entry and URI, in their order."""
    have = {(uri.rstrip("/"), suite) for e in entries if "deb-src" in e.types
            for uri in e.uris for suite in e.suites}
    derived = []
    for e in entries:
        if "deb" not in e.types:
            continue
        for uri in e.uris:
            if uri.startswith("cdrom:"):
                continue
            suites = [s for s in e.suites if (uri.rstrip("/"), s) not in have]
            have.update((uri.rstrip("/"), s) for s in suites)
            if suites:
                derived.append(Entry(["deb-src"], [uri], suites, e.components, e.signed_by))
    return derived


def deb822(entries):
    paragraphs = []
    for e in entries:
        lines = ["Types: deb-src", f"URIs: {' '.join(e.uris)}", f"Suites: {' '.join(e.suites)}"]
        if e.components:
            lines.append(f"Components: {' '.join(e.components)}")
        if e.signed_by:
            first, *rest = e.signed_by
            lines.append(f"Signed-By: {first}".rstrip())
            lines += [f" {line}" for line in rest]
        paragraphs.append("\n".join(lines) + "\n")
    return "\n".join(paragraphs)


def machine_source_files():
    files = [os.path.join(APT_DIR, "sources.list")]
    files += sorted(glob.glob(os.path.join(APT_DIR, "sources.list.d", "*.list")))
    files += sorted(glob.glob(os.path.join(APT_DIR, "sources.list.d", "*.sources")))
    return [f for f in files if os.path.isfile(f)]


def as_root(command, **kwargs):
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            sys.exit(f"get-source: {' '.join(command)} needs root or sudo")
        command = ["sudo"] + command
    subprocess.run(command, check=True, **kwargs)


def enable_deb_src():
    """Adds the missing deb-src entries; True when it added some."""
    entries = [e for path in machine_source_files() for e in parse(path)]
    added = derive(entries)
    if not added:
        return False
    old = open(OUTPUT).read() if os.path.exists(OUTPUT) else ""
    text = (old.rstrip("\n") + "\n\n" if old.strip() else
            "# deb-src entries copied from this machine's deb entries\n"
            "# by barrierpair's scripts/get-source.py.\n\n") + deb822(added)
    log(f"adding {len(added)} deb-src entr{'y' if len(added) == 1 else 'ies'} to {OUTPUT}")
    as_root(["tee", OUTPUT], input=text.encode(), stdout=subprocess.DEVNULL)
    return True


def apt_update():
    log("apt-get update")
    try:
        as_root(["apt-get", "update", "-qq"], stdout=sys.stderr)
    except subprocess.CalledProcessError:
        # A repository without source indexes fails its deb-src entry;
        # the others are updated all the same.
        log("apt-get update reported errors; going on")


def source_known(package):
    return subprocess.run(["apt-get", "source", "--print-uris", "-qq", package],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def versions(package):
    """The source versions apt knows for package, newest first."""
    listed = subprocess.run(["apt-cache", "showsrc", "--only-source", package],
                            capture_output=True, text=True).stdout
    known = set(re.findall(r"^Version: (\S+)$", listed, re.MULTILINE))

    def compare(a, b):
        newer = subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0
        return -1 if newer else 1 if a != b else 0
    return sorted(known, key=functools.cmp_to_key(compare))


def fetch(package, directory):
    """apt-get source package; when the archive lacks the files of the
    version apt picks (a mirror may list a version it does not hold), the
    other versions apt knows, newest first."""
    log(f"apt-get source {package} in {directory}")
    if subprocess.run(["apt-get", "source", "-qq", package], cwd=directory,
                      stdout=sys.stderr).returncode == 0:
        return
    for version in versions(package):
        log(f"apt-get source {package}={version} in {directory}")
        if subprocess.run(["apt-get", "source", "-qq", f"{package}={version}"], cwd=directory,
                          stdout=sys.stderr).returncode == 0:
            return
    sys.exit(f"get-source: apt-get source {package} failed for every version apt knows")


def unpacked(package, directory):
    return sorted(d for d in glob.glob(os.path.join(directory, glob.escape(package) + "-*"))
                  if os.path.isdir(d))


def get_source(package, directory):
    os.makedirs(directory, exist_ok=True)
    directory = os.path.abspath(directory)
    existing = unpacked(package, directory)
    if existing:
        return existing[-1]
    if enable_deb_src() or not source_known(package):
        apt_update()
    fetch(package, directory)
    existing = unpacked(package, directory)
    if not existing:
        sys.exit(f"get-source: apt-get source {package} left no {package}-* directory "
                 f"in {directory} (is {package} a source package's name?)")
    return existing[-1]


def main(argv):
    if len(argv) >= 2 and argv[0] == "--derive":
        sys.stdout.write(deb822(derive([e for path in argv[1:] for e in parse(path)])))
    elif len(argv) in (1, 2) and not argv[0].startswith("-"):
        print(get_source(argv[0], argv[1] if len(argv) == 2 else "."))
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main(sys.argv[1:])
