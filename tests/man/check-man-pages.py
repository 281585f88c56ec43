#!/usr/bin/env python3
"""Every option a command's --help prints, and every argument the plugin
accepts, is in its man page: an option cannot be added undocumented.

--pages is the directory of the generated pages (barrierpair.1, ...) or,
when pandoc is not installed, of their Markdown sources (barrierpair.1.md).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# In a --help text: -x, --long-option, -fplugin-arg-...; not a '-' in prose.
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def page_text(directory, page):
    """The page's words, with roff's and Markdown's markup taken out."""
    for name in (page, page + ".md"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                text = file.read()
            text = re.sub(r"\\f(\[[A-Z]*\]|[A-Z])", "", text)  # roff fonts
            text = text.replace("\\-", "-").replace("\\[aq]", "'").replace("\\ ", " ")
            return text.replace("*", "").replace("\\", "")
    return None


def help_options(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check-man-pages: {' '.join(command)} exited {result.returncode}")
    return result.stdout, sorted(set(OPTION.findall(result.stdout)))


def plugin_arguments(clang, plugin):
    """The valid arguments from the plugin's error for an unknown one."""
    with tempfile.NamedTemporaryFile("w", suffix=".c") as source:
        source.write("int x;\n")
        source.flush()
        result = subprocess.run(
            [clang, "-fsyntax-only", f"-fplugin={plugin}",
             "-fplugin-arg-barrierpair-no-such-argument", source.name],
            capture_output=True, text=True)
    match = re.search(r"valid arguments: (.*)", result.stderr)
    if not match:
        sys.exit("check-man-pages: the plugin did not list its arguments:\n" + result.stderr)
    listed = match.group(1)
    rules = re.search(r"\(rules: ([^)]*)\)", listed)
    listed = re.sub(r"\(rules: [^)]*\)", "", listed)
    arguments = [re.match(r"\s*([\w-]+=?)", part).group(1) for part in listed.split(",")]
    return arguments + [rule.strip() for rule in rules.group(1).split(",")] if rules else arguments


def main():
    parser = argparse.ArgumentParser()
    for name in ("pages", "barrierpair", "litmus", "clang", "plugin"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()

    wanted = {}
    usage, options = help_options([args.barrierpair, "--help"])
    commands = re.findall(r"barrierpair (\w+) ", usage)
    wanted["barrierpair.1"] = options + commands
    wanted["barrierpair-litmus.1"] = help_options([args.litmus, "--help"])[1]
    wanted["barrierpair-plugin.7"] = plugin_arguments(args.clang, args.plugin)

    missing = []
    for page, words in wanted.items():
        text = page_text(args.pages, page)
        if text is None:
            missing.append(f"{page}: not in {args.pages}")
            continue
        for section in ("NAME", "SYNOPSIS", "DESCRIPTION"):
            if not re.search(rf"^(\.SH|#) {section}\b", text, re.MULTILINE):
                missing.append(f"{page}: no {section} section")
        for word in words:
            end = "" if word.endswith("=") else r"(?![\w-])"
            if not re.search(rf"(?<![\w-]){re.escape(word)}{end}", text):
                missing.append(f"{page}: does not mention '{word}'")
    if missing:
        print("\n".join(missing), file=sys.stderr)
        return 1
    total = sum(len(words) for words in wanted.values())
    print(f"check-man-pages: {len(wanted)} pages in {args.pages} mention all {total} options")
    return 0


if __name__ == "__main__":
    sys.exit(main())
