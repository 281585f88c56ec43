"""The Neovim 0.7 setup of docs/editor.md, run headless: Neovim opens a file
with a broken message-passing pair through barrierpair-clangd, shows the
finding, applies its quick fix, and the finding goes; a header opens as C.
Skipped, with a message, when `nvim` is not installed.

usage: neovim.py <barrierpair-clangd> <clangd> <docs/editor.md>"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77  # ctest's SKIP_RETURN_CODE

SOURCE = """\
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready;

void writer(void) {
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
}

int reader(void) {
  while (!CMM_LOAD_SHARED(ready))
    ;
  return CMM_LOAD_SHARED(message);
}
"""

# Run after init.lua: waits for the finding, applies its quick fix, waits
# for the finding to go, opens a header; writes what it saw to RESULT.
DRIVER = r"""
local result = { steps = {} }
local function ours()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.source == "barrierpair" then table.insert(found, d) end
  end
  return found
end
local function finish()
  local file = io.open(RESULT, "w")
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qall!")
end
local ok, problem = pcall(function()
  result.found = vim.wait(TIMEOUT, function() return #ours() > 0 end, 50)
  if not result.found then return end
  local d = ours()[1]
  result.message = d.message
  result.line = d.lnum
  local range = { start = { line = d.lnum, character = d.col },
                  ["end"] = { line = d.end_lnum, character = d.end_col } }
  local answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(0) }, range = range,
    context = { diagnostics = { { range = range, message = d.message, source = d.source } } },
  }, TIMEOUT)
  for _, answer in pairs(answers or {}) do
    for _, action in ipairs(answer.result or {}) do
      if action.title and action.title:find("cmm_smp_rmb", 1, true) and action.edit then
        result.fix = action.title
        vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
      end
    end
  end
  result.fixed_line = vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, false)[1]
  result.cleared = vim.wait(TIMEOUT, function() return #ours() == 0 end, 50)
  vim.cmd("edit " .. vim.fn.fnameescape(HEADER))
  result.header_filetype = vim.bo.filetype
  result.header_attached = vim.wait(TIMEOUT, function()
    return next(vim.lsp.buf_get_clients(0)) ~= nil
  end, 50)
end)
if not ok then result.error = tostring(problem) end
finish()
"""


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    wrapper, clangd, docs = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    nvim = shutil.which("nvim")
    if not nvim:
        print("SKIP: nvim is not installed (Debian's neovim): the Neovim setup of "
              "docs/editor.md is not run")
        return SKIP
    with open(docs) as f:
        match = re.search(r"<!-- neovim-0.7 -->\n```lua\n(.*?)\n```", f.read(), re.S)
    if not match:
        print("FAIL: no Neovim 0.7 setup in docs/editor.md", file=sys.stderr)
        return 1
    init = match.group(1)
    init = init.replace("/usr/local/bin/barrierpair-clangd", wrapper)
    init = init.replace("/usr/bin/clangd-19", shutil.which(clangd) or clangd)
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True).stdout
    print(version.splitlines()[0] if version else "nvim")
    with tempfile.TemporaryDirectory() as directory:
        directory = os.path.realpath(directory)
        source = os.path.join(directory, "reader.c")
        header = os.path.join(directory, "ring.h")
        with open(source, "w") as f:
            f.write(SOURCE)
        with open(header, "w") as f:
            f.write("struct ring { int head; };\n")
        with open(os.path.join(directory, "compile_commands.json"), "w") as f:
            json.dump([{"directory": directory, "file": source,
                        "arguments": ["cc", "-c", "reader.c"]}], f)
        result_path = os.path.join(directory, "result.json")
        with open(os.path.join(directory, "init.lua"), "w") as f:
            f.write(init + "\n")
        with open(os.path.join(directory, "driver.lua"), "w") as f:
            f.write(f"RESULT = {json.dumps(result_path)}\nHEADER = {json.dumps(header)}\n"
                    f"TIMEOUT = 20000\n" + DRIVER)
        env = dict(os.environ, HOME=directory, XDG_CONFIG_HOME=directory,
                   XDG_DATA_HOME=directory, XDG_STATE_HOME=directory)
        try:
            run = subprocess.run([nvim, "--headless", "-n", "-i", "NONE", "-u", "init.lua",
                                  "reader.c", "-c", "luafile driver.lua"],
                                 cwd=directory, env=env, capture_output=True, text=True,
                                 timeout=90)
            check(os.path.exists(result_path),
                  f"Neovim wrote no result (status {run.returncode}): {run.stderr}")
            with open(result_path) as f:
                result = json.load(f)
            check("error" not in result, f"the driver failed: {result.get('error')}")
            check(result.get("found"), f"no barrierpair diagnostic in Neovim: {result}")
            check("needs cmm_smp_rmb() here" in result["message"], result["message"])
            check(result["line"] == 14, f"the finding on line 15: {result}")
            check(result.get("fix") == "Insert 'cmm_smp_rmb();'", f"the quick fix: {result}")
            check(result["fixed_line"].strip() == "cmm_smp_rmb();",
                  f"the fix inserted the barrier: {result['fixed_line']!r}")
            check(result.get("cleared"), f"the finding stayed after the fix: {result}")
            check(result["header_filetype"] == "c", f"a header opens as C: {result}")
            check(result["header_attached"], f"the header is served: {result}")
        except (AssertionError, subprocess.TimeoutExpired) as error:
            print(f"FAIL: {error}", file=sys.stderr)
            return 1
    print("PASS: neovim")
    return 0


if __name__ == "__main__":
    sys.exit(main())
