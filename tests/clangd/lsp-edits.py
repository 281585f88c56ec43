"""barrierpair-clangd while the file is edited into a state that does not
compile: the last findings stay where the edits left them alone, moved with
the text, and go where an edit touched them; every set carries the version of
the text its positions are about; the log gives clang's first error.

usage: lsp-edits.py <barrierpair-clangd> <clangd>"""
import json
import os
import sys

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
  while (!CMM_LOAD_SHARED(ready))
    ;
  return /* \u2192 */ CMM_LOAD_SHARED(message);
}
"""
FINDING_LINE = 14  # 0-based: the load of 'message'
WRITER_END_LINE = 9  # the writer's closing brace
HALF_TYPED = "  cmm_smp_r\n"
MOVED_BY = "/* moved */ "


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def position(line, character):
    return {"line": line, "character": character}


def errors(diagnostics):
    return [d for d in clangds(diagnostics) if d.get("severity") == 1]


def versioned(version, predicate):
    def matches(message):
        return (message.get("method") == "textDocument/publishDiagnostics"
                and message["params"].get("version") == version
                and predicate(message["params"]["diagnostics"]))
    return matches


def session(wrapper, clangd, directory):
    source = os.path.join(directory, "reader.c")
    with open(source, "w") as f:
        f.write(BROKEN)
    with open(os.path.join(directory, "compile_commands.json"), "w") as f:
        json.dump([{"directory": directory, "file": source,
                    "arguments": ["cc", "-c", "reader.c"]}], f)
    uri = "file://" + source
    client = Client([wrapper, "--clangd=" + clangd, "--log=error"], cwd=directory)
    try:
        initialize(client, directory, TIMEOUT)
        line_text = BROKEN.splitlines()[FINDING_LINE]
        start = utf16_length(line_text[: line_text.index("CMM_LOAD_SHARED(message)")])
        after_return = utf16_length(line_text[: line_text.index("/*")])

        # Version 1: the finding, published with version 1.
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "c", "version": 1, "text": BROKEN}})
        _, published = client.wait_for(versioned(1, ours), TIMEOUT, "the finding at version 1")
        finding = ours(published["params"]["diagnostics"])[0]
        check(finding["range"]["start"] == position(FINDING_LINE, start), finding["range"])

        # Version 2: a half-typed barrier in the writer (the file no longer
        # compiles) and a comment before the finding on its line. The finding
        # stays, one line down and moved right, beside clangd's error, and
        # the set says version 2.
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [
                {"range": {"start": position(WRITER_END_LINE, 0),
                           "end": position(WRITER_END_LINE, 0)}, "text": HALF_TYPED},
                {"range": {"start": position(FINDING_LINE + 1, after_return),
                           "end": position(FINDING_LINE + 1, after_return)}, "text": MOVED_BY},
            ]})
        _, published = client.wait_for(
            versioned(2, lambda d: ours(d) and errors(d)), TIMEOUT,
            "clangd's error and the moved finding at version 2")
        moved = ours(published["params"]["diagnostics"])
        check(len(moved) == 1, f"one finding: {moved}")
        expected = {"start": position(FINDING_LINE + 1, start + len(MOVED_BY)),
                    "end": position(FINDING_LINE + 1, start + len(MOVED_BY) + len("CMM_LOAD_SHARED"))}
        check(moved[0]["range"] == expected, f"moved to {moved[0]['range']}, not {expected}")
        check(any(r["location"]["range"]["start"] == position(7, 2)
                  for r in moved[0]["relatedInformation"]),
              f"the note at the writer's barrier stays: {moved[0]['relatedInformation']}")
        check(client.wait_for_log("barrierpair check exited with 2: ", TIMEOUT), client.stderr)
        logged = [line for line in client.stderr if "barrierpair check exited with 2" in line]
        check(f"reader.c:{WRITER_END_LINE + 1}:3: error:" in logged[0]
              and "generated" not in logged[0], f"clang's first error in the log: {logged}")

        # The quick fix of the moved finding inserts at the moved place.
        request_id = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": moved[0]["range"],
            "context": {"diagnostics": moved}})
        actions = client.response(request_id, TIMEOUT, "codeAction response")["result"] or []
        fixes = [a for a in actions if isinstance(a, dict) and "cmm_smp_rmb" in a.get("title", "")]
        check(len(fixes) == 1, f"one quick fix: {actions}")
        edit = fixes[0]["edit"]["changes"][uri][0]
        check(edit["range"]["start"] == position(FINDING_LINE + 1, 2), f"the fix moved: {edit}")

        # Version 3: an edit inside the finding's own text. The file still
        # does not compile; the finding is gone, clangd's error stays.
        inside = start + len(MOVED_BY) + len("CMM_")
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 3},
            "contentChanges": [{"range": {"start": position(FINDING_LINE + 1, inside),
                                          "end": position(FINDING_LINE + 1, inside + len("LOAD"))},
                                "text": "READ"}]})
        client.wait_for(versioned(3, lambda d: errors(d) and not ours(d)), TIMEOUT,
                        "clangd's error without the touched finding at version 3")
        request_id = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": expected, "context": {"diagnostics": []}})
        actions = client.response(request_id, TIMEOUT, "codeAction response")["result"] or []
        check(not [a for a in actions if isinstance(a, dict) and "cmm_smp_rmb" in a.get("title", "")],
              f"no quick fix for a touched finding: {actions}")

        # Version 4: the original text again. It compiles; the analysis
        # gives the finding at its first place, with version 4.
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": BROKEN}]})
        _, published = client.wait_for(versioned(4, lambda d: ours(d) and not errors(d)), TIMEOUT,
                                       "the finding again at version 4")
        finding = ours(published["params"]["diagnostics"])[0]
        check(finding["range"]["start"] == position(FINDING_LINE, start), finding["range"])

        request_id = client.request("shutdown", None)
        client.response(request_id, TIMEOUT, "shutdown response")
        client.notify("exit", None)
        check(client.process.wait(timeout=TIMEOUT) == 0, "exit status 0")
    finally:
        if client.process.poll() is None:
            client.process.kill()
        client.process.wait()


if __name__ == "__main__":
    sys.exit(run_session(session, "lsp-edits"))
