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
