"""Latency of barrierpair-clangd: for each examples/*/broken.c, the time from
didOpen to the first publishDiagnostics with barrierpair's findings, and to
clangd's first diagnostics for comparison; the median of a few opens.
Not a test; docs/editor.md quotes its output.

usage: latency.py <barrierpair-clangd> [runs]"""
import glob
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Client, initialize, ours  # noqa: E402

TIMEOUT = 30


def main():
    wrapper = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    # No background index: it would compete for the CPU with what is measured.
    client = Client([wrapper, "--log=error", "--background-index=false"], cwd=root)
    initialize(client, root, TIMEOUT)
    print(f"{'example':<16} {'clangd (ms)':>12} {'barrierpair (ms)':>17}")
    all_ours = []
    for path in sorted(glob.glob(os.path.join(root, "examples", "*", "broken.c"))):
        uri = "file://" + path
        with open(path) as f:
            text = f.read()
        theirs, mine = [], []
        for run in range(runs):
            opened = time.monotonic()
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "c", "version": run + 1, "text": text}})
            first = None
            while True:
                received, message = client.diagnostics(uri, lambda d: True, TIMEOUT, "diagnostics")
                diagnostics = message["params"]["diagnostics"]
                if first is None and (not ours(diagnostics) or len(diagnostics) > len(ours(diagnostics))):
                    first = received
                if ours(diagnostics):
                    break
            theirs.append((first or received) - opened)
            mine.append(received - opened)
            client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            # clangd clears a closed file's diagnostics; that must not count
            # as the next open's.
            client.diagnostics(uri, lambda d: not d, TIMEOUT, "the diagnostics cleared")
        name = os.path.basename(os.path.dirname(path))
        print(f"{name:<16} {statistics.median(theirs) * 1000:>12.0f} "
              f"{statistics.median(mine) * 1000:>17.0f}")
        all_ours += mine
    print(f"{'all':<16} {'':>12} {statistics.median(all_ours) * 1000:>17.0f}")
    request_id = client.request("shutdown", None)
    client.response(request_id, TIMEOUT, "shutdown response")
    client.notify("exit", None)
    client.process.wait(timeout=TIMEOUT)


if __name__ == "__main__":
    main()
