"""End to end: barrierpair-clangd between a scripted editor and the real
clangd-19, on a file with a broken message-passing pair and an unused
variable, compiled with -Wall through a compile_commands.json.

usage: lsp-session.py <barrierpair-clangd> <clangd>"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Client, Timeout, clangds, initialize, ours, run_session  # noqa: E402

TIMEOUT = 60  # seconds for any one expected message; a loaded machine is slow

BROKEN = """\
#include <urcu/arch.h>
#include <urcu/system.h>

int message, ready;

void writer(void) {
  CMM_STORE_SHARED(message, 42);
  cmm_smp_wmb();
  CMM_STORE_SHARED(ready, 1);
}

int reader(void) {
  int unused;
  while (!CMM_LOAD_SHARED(ready))
    ;
  return /* \u2192 */ CMM_LOAD_SHARED(message);
}
"""
FINDING_LINE = 15  # 0-based: the load of 'message'
FIX_TEXT = "cmm_smp_rmb();\n  "


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def unused_variable(diagnostics):
    return [d for d in clangds(diagnostics) if "unused variable 'unused'" in d["message"].lower()]


def session(wrapper, clangd, directory):
    source = os.path.join(directory, "reader.c")
    with open(source, "w") as f:
        f.write(BROKEN)
    with open(os.path.join(directory, "compile_commands.json"), "w") as f:
        json.dump(
            [{"directory": directory, "file": source, "arguments": ["cc", "-Wall", "-c", "reader.c"]}],
            f,
        )
    uri = "file://" + source
    client = Client([wrapper, "--clangd=" + clangd, "--log=error"], cwd=directory)
    try:
        initialize(client, directory, TIMEOUT)
        clangd_pids = [p for p in client.children() if open(f"/proc/{p}/comm").read().startswith("clangd")]
        check(len(clangd_pids) == 1, f"one clangd child expected, found {clangd_pids}")

        # didOpen: clangd's unused variable and our finding, in one set.
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": BROKEN}},
        )
        _, published = client.diagnostics(
            uri, lambda d: ours(d) and unused_variable(d), TIMEOUT, "clangd's and our diagnostics"
        )
        diagnostics = published["params"]["diagnostics"]
        check(len(ours(diagnostics)) == 1, f"one finding expected: {ours(diagnostics)}")
        finding = ours(diagnostics)[0]
        line_text = BROKEN.splitlines()[FINDING_LINE]
        start = utf16_length(line_text[: line_text.index("CMM_LOAD_SHARED(message)")])
        expected_range = {
            "start": {"line": FINDING_LINE, "character": start},
            "end": {"line": FINDING_LINE, "character": start + len("CMM_LOAD_SHARED")},
        }
        check(finding["range"] == expected_range, f"range {finding['range']} != {expected_range}")
        check(finding["code"] == "missing-barrier", f"code {finding['code']}")
        check(finding["severity"] == 2, "a warning")
        check("needs cmm_smp_rmb() here" in finding["message"], finding["message"])
        related = finding["relatedInformation"]
        check(
            any(r["location"]["uri"] == uri and r["location"]["range"]["start"] == {"line": 7, "character": 2}
                and "cmm_smp_wmb()" in r["message"] for r in related),
            f"a note at the writer's cmm_smp_wmb(): {related}",
        )
        check(any("scenario 3 (message passing) forbids" in r["message"] for r in related),
              f"the scenario note: {related}")

        # A malformed message from the editor: logged, skipped, the session
        # goes on.
        client.send_raw(b"Content-Length: 9\r\n\r\n{not json")
        client.send_raw(b"X-Nothing: 1\r\n\r\n")

        # codeAction at our diagnostic: the fix-it as a quick fix.
        request_id = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": finding["range"],
             "context": {"diagnostics": [finding]}},
        )
        actions = client.response(request_id, TIMEOUT, "codeAction response")["result"]
        fixes = [a for a in actions if isinstance(a, dict) and a.get("kind") == "quickfix"
                 and a.get("diagnostics") and a["diagnostics"][0].get("source") == "barrierpair"]
        check(len(fixes) == 1, f"one quick fix expected: {actions}")
        check([a for a in actions if "Expand macro 'CMM_LOAD_SHARED'" in a.get("title", "")],
              f"clangd's own actions kept: {actions}")
        fix = fixes[0]
        edit = {"range": {"start": {"line": FINDING_LINE, "character": 2},
                          "end": {"line": FINDING_LINE, "character": 2}},
                "newText": FIX_TEXT}
        check(fix["edit"] == {"changes": {uri: [edit]}}, f"the fix-it's edit: {fix['edit']}")
        check(fix["title"] == "Insert 'cmm_smp_rmb();'", fix["title"])
        check(client.wait_for_log("skipped a malformed message from the editor", TIMEOUT),
              f"the malformed message is logged: {client.stderr}")

        # didChange, incremental: the fix applied. Ours go, clangd's stay.
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2},
             "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]},
        )
        client.diagnostics(uri, lambda d: not ours(d) and unused_variable(d), TIMEOUT,
                           "clangd's diagnostics without ours after the fix")
        # No quick fix any more.
        request_id = client.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": finding["range"], "context": {"diagnostics": []}},
        )
        actions = client.response(request_id, TIMEOUT, "codeAction response") ["result"] or []
        check(not [a for a in actions if isinstance(a, dict) and a.get("kind") == "quickfix"
                   and "cmm_smp_rmb" in a.get("title", "")], f"no quick fix after the fix: {actions}")

        # didChange, the whole text: broken again, ours come back.
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": BROKEN}]},
        )
        client.diagnostics(uri, lambda d: ours(d) and unused_variable(d), TIMEOUT,
                           "our finding again after a full change")

        # shutdown and exit: both processes end, the wrapper with status 0.
        request_id = client.request("shutdown", None)
        client.response(request_id, TIMEOUT, "shutdown response")
        client.notify("exit", None)
        status = client.process.wait(timeout=TIMEOUT)
        check(status == 0, f"exit status {status}")
        deadline = time.monotonic() + TIMEOUT
        while any(os.path.exists(f"/proc/{p}") for p in clangd_pids):
            check(time.monotonic() < deadline, f"clangd {clangd_pids} still runs after exit")
            time.sleep(0.05)
    finally:
        if client.process.poll() is None:
            client.process.kill()
        client.process.wait()
    return client


if __name__ == "__main__":
    sys.exit(run_session(session, "lsp-session"))
