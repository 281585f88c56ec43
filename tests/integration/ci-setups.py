"""Runs the CI setups of docs/integration.md as written there, on a small
repository with a pull-request-like history: the GitHub Actions workflow's
`run:` scripts (then checks the SARIF file it uploads), the GitLab job's
script (then checks the code quality report), and the pre-commit hook in a
temporary git repository.

usage: ci-setups.py <github|gitlab|pre-commit> <directory of barrierpair> <docs/integration.md>"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "..", "cli", "Inputs", "mp")

CMAKELISTS = """\
cmake_minimum_required(VERSION 3.20)
project(app C)
add_library(app STATIC writer.c old-reader.c reader.c)
"""


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def block_after(page, marker):
    """The fenced code block that follows <!-- marker --> in the page."""
    match = re.search(r"<!-- " + re.escape(marker) + r" -->\n```\w*\n(.*?)\n```", page, re.S)
    check(match, f"no code block after <!-- {marker} --> in docs/integration.md")
    return match.group(1) + "\n"


def run_scripts(yaml):
    """The `run: |` scripts of a workflow, in order."""
    scripts, lines = [], yaml.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"^(\s*)(- )?run: \|$", line)
        if not match:
            continue
        indent = len(match.group(1)) + (2 if match.group(2) else 0)
        body = []
        for following in lines[i + 1:]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following[indent + 2:])
        scripts.append("\n".join(body) + "\n")
    return scripts


def git(directory, *arguments):
    subprocess.run(["git", "-c", "user.name=ci", "-c", "user.email=ci@localhost",
                    "-c", "init.defaultBranch=main", *arguments],
                   cwd=directory, check=True, capture_output=True)


def copy_input(name, directory, as_name=None, rename=None):
    with open(os.path.join(INPUTS, name)) as f:
        text = f.read()
    if rename:
        text = text.replace(*rename)
    with open(os.path.join(directory, as_name or name), "w") as f:
        f.write(text)


def repository(directory):
    """main: the writer and old_reader, whose finding is old; feature: a
    new reader without its barrier."""
    git(directory, "init", "-q")
    copy_input("writer.c", directory)
    copy_input("reader-broken.c", directory, "old-reader.c", ("int reader(", "int old_reader("))
    copy_input("reader.c", directory)
    with open(os.path.join(directory, "CMakeLists.txt"), "w") as f:
        f.write(CMAKELISTS)
    git(directory, "add", ".")
    git(directory, "commit", "-q", "-m", "base")
    git(directory, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(directory, "checkout", "-q", "-b", "feature")
    copy_input("reader-broken.c", directory, "reader.c")
    git(directory, "commit", "-q", "-am", "a reader without its barrier")


def environment(tools, directory, **extra):
    env = dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"])
    env.update(extra)
    return env


def functions_of_sarif(path):
    with open(path) as f:
        log = json.load(f)
    results = log["runs"][0]["results"]
    for result in results:
        check("barrierpairKey/v2" in result.get("partialFingerprints", {}), result)
    return sorted(r["locations"][0]["logicalLocations"][0]["name"] for r in results)


def github(tools, page, directory):
    workflow = block_after(page, "github-workflow")
    check("sarif_file: barrierpair.sarif" in workflow and "upload-sarif" in workflow,
          "the workflow uploads barrierpair.sarif")
    scripts = run_scripts(workflow)
    check(len(scripts) == 2 and "make -C" in scripts[0], f"a build step and a check step: {scripts}")
    repository(directory)
    for event, base_ref, expected in (("pull request", "main", ["reader"]),
                                      ("push", "", ["old_reader", "reader"])):
        shutil.rmtree(os.path.join(directory, "build"), ignore_errors=True)
        env = environment(tools, directory, GITHUB_BASE_REF=base_ref,
                          GITHUB_PATH=os.path.join(directory, ".github-path"),
                          RUNNER_TEMP=directory)
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                 scripts[1]], cwd=directory, env=env, capture_output=True,
                                text=True)
        check(result.returncode == 0, f"{event}: the check step failed: {result.stderr}")
        found = functions_of_sarif(os.path.join(directory, "barrierpair.sarif"))
        check(found == expected, f"{event}: findings in {found}, expected {expected}")


def gitlab(tools, page, directory):
    job = block_after(page, "gitlab-ci")
    check("codequality: gl-code-quality-report.json" in job, "the job's report is code quality")
    script = re.search(r"script:\n((?:\s+- .*\n)+)", job)
    check(script, "the job has a script")
    commands = [line.strip()[2:] for line in script.group(1).splitlines()]
    repository(directory)
    env = environment(tools, directory)
    for command in commands:
        result = subprocess.run(["sh", "-e", "-c", command], cwd=directory, env=env,
                                capture_output=True, text=True)
        check(result.returncode == 0, f"'{command}' failed: {result.stderr}")
    with open(os.path.join(directory, "gl-code-quality-report.json")) as f:
        issues = json.load(f)
    check(len(issues) == 2, f"two issues: {issues}")
    for issue in issues:
        check(set(issue) == {"description", "check_name", "fingerprint", "severity", "location"},
              issue)
        check(issue["check_name"] == "barrierpair-missing-barrier", issue)
        check(issue["severity"] in ("info", "minor", "major", "critical", "blocker"), issue)
        check(issue["location"]["path"] in ("reader.c", "old-reader.c"), issue)
        check(isinstance(issue["location"]["lines"]["begin"], int), issue)
    check(len({i["fingerprint"] for i in issues}) == 2, "fingerprints differ")
    # The same finding keeps its fingerprint when the code above it moves.
    before = {i["location"]["path"]: i["fingerprint"] for i in issues}
    with open(os.path.join(directory, "reader.c")) as f:
        text = f.read()
    with open(os.path.join(directory, "reader.c"), "w") as f:
        f.write("// moved\n// down\n" + text)
    subprocess.run(["sh", "-e", "-c", commands[-1]], cwd=directory, env=env, check=True,
                   capture_output=True)
    with open(os.path.join(directory, "gl-code-quality-report.json")) as f:
        after = {i["location"]["path"]: i["fingerprint"] for i in json.load(f)}
    check(after == before, f"fingerprints moved: {before} then {after}")


def pre_commit(tools, page, directory):
    hook = block_after(page, "pre-commit")
    git(directory, "init", "-q")
    copy_input("writer.c", directory)
    copy_input("reader-broken.c", directory, "old-reader.c", ("int reader(", "int old_reader("))
    git(directory, "add", ".")
    git(directory, "commit", "-q", "-m", "base, with an old finding")
    hook_path = os.path.join(directory, ".git", "hooks", "pre-commit")
    with open(hook_path, "w") as f:
        f.write(hook)
    os.chmod(hook_path, 0o755)
    copy_input("reader.c", directory)
    os.makedirs(os.path.join(directory, "build"))
    with open(os.path.join(directory, "build", "compile_commands.json"), "w") as f:
        json.dump([{"directory": directory, "file": name, "arguments": ["cc", "-c", name]}
                   for name in ("writer.c", "old-reader.c", "reader.c")], f)
    env = environment(tools, directory)

    def commit(message):
        return subprocess.run(["git", "-c", "user.name=ci", "-c", "user.email=ci@localhost",
                               "commit", "-q", "-m", message], cwd=directory, env=env,
                              capture_output=True, text=True)

    # A correct reader: the old finding is not this commit's; accepted.
    git(directory, "add", "reader.c")
    result = commit("a correct reader")
    check(result.returncode == 0, f"the correct reader refused: {result.stderr}")
    # Its barrier removed: refused, with the finding and the hook's word.
    copy_input("reader-broken.c", directory, "reader.c")
    git(directory, "add", "reader.c")
    result = commit("the barrier removed")
    check(result.returncode != 0, "a commit bringing a finding was accepted")
    check("in 'reader'" in result.stdout + result.stderr and "old_reader" not in result.stdout,
          f"the new finding only: {result.stdout}")
    check("pre-commit: barrierpair found problems" in result.stderr, result.stderr)
    # A change with no C in it is not checked.
    with open(os.path.join(directory, "NOTES"), "w") as f:
        f.write("notes\n")
    git(directory, "reset", "-q", "reader.c")
    git(directory, "add", "NOTES")
    result = commit("notes")
    check(result.returncode == 0, f"a commit without C refused: {result.stderr}")


def main():
    setup, tools, docs = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    with open(docs) as f:
        page = f.read()
    with tempfile.TemporaryDirectory() as directory:
        directory = os.path.realpath(directory)
        try:
            {"github": github, "gitlab": gitlab, "pre-commit": pre_commit}[setup](
                tools, page, directory)
        except (AssertionError, subprocess.CalledProcessError) as error:
            print(f"FAIL: {setup}: {error}", file=sys.stderr)
            return 1
    print(f"PASS: {setup}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
