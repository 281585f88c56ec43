# lit suite: the plugin's diagnostics, checked with clang -verify and FileCheck.
import os

import lit.formats

config.name = "barrierpair"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".test"]
config.excludes = ["Inputs", "engine", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.barrierpair_binary_dir, "tests")

tools = config.llvm_tools_dir
clang = os.path.join(tools, "clang")
inputs = os.path.join(config.test_source_root, "Inputs")
plugin = config.barrierpair_plugin

config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", "")])
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%inputs", inputs))
# %barrierpair: a syntax-only compile with the plugin, as a user's build runs it.
config.substitutions.append(
    ("%barrierpair", f"{clang} -fsyntax-only -fplugin={plugin} -I{inputs}")
)
config.substitutions.append(("%clang", clang))
config.substitutions.append(
    ("%tables", os.path.join(config.barrierpair_binary_dir, "bin", "barrierpair-tables"))
)
config.substitutions.append(("%source", config.barrierpair_source_dir))

# barrierpair check, link and explain (tests/cli): multi-file projects with a
# generated compile_commands.json.
import sys

cli_inputs = os.path.join(config.test_source_root, "cli", "Inputs")
# Before %barrierpair, which is a prefix of it.
config.substitutions.insert(
    0, ("%barrierpair-cli", os.path.join(config.barrierpair_binary_dir, "bin", "barrierpair"))
)
config.substitutions.append(("%cli-inputs", cli_inputs))
config.substitutions.insert(
    0, ("%barrierpair-litmus", os.path.join(config.barrierpair_binary_dir, "bin", "barrierpair-litmus"))
)
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%make-cdb", f"{sys.executable} {cli_inputs}/make-cdb.py"))
config.substitutions.append(("%expect-exit", f"{sys.executable} {cli_inputs}/expect-exit.py"))
# Installed once into the build by scripts/install-sarif-validator.sh (a ctest fixture).
sarif_tools = os.path.join(config.barrierpair_binary_dir, "sarif-tools")
config.substitutions.append(("%validate-sarif", f"sh {cli_inputs}/validate-sarif.sh {sarif_tools}"))

# Rules the driver knows, for the tests of rules still arriving (issue 3).
import subprocess

for rule in ("unpaired-barrier", "transitive-weak-barrier", "missing-access-once"):
    try:
        known = subprocess.run(
            [os.path.join(config.barrierpair_binary_dir, "bin", "barrierpair"), "explain", rule],
            capture_output=True,
        ).returncode == 0
    except OSError:
        known = False
    if known:
        config.available_features.add("rule-" + rule)
