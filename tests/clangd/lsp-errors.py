"""barrierpair-clangd's errors: bad arguments, a missing clangd, malformed
messages from clangd, and clangd's exit status passed on. A stand-in clangd
(written below) misbehaves on purpose.

usage: lsp-errors.py <barrierpair-clangd>"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Client, Timeout, initialize  # noqa: E402

TIMEOUT = 60  # seconds for any one expected message; a loaded machine is slow

# Answers initialize after a body that is not JSON and a header without
# Content-Length; exits 3 on `exit`, 4 at the end of its input.
FAKE_CLANGD = r'''#!/usr/bin/env python3
import json, sys
if "--version" in sys.argv:
    print("fake clangd version 19")
    sys.exit(0)
def send(raw):
    sys.stdout.buffer.write(raw)
    sys.stdout.buffer.flush()
def reply(message):
    body = json.dumps(message).encode()
    send(b"Content-Length: %d\r\n\r\n" % len(body) + body)
while True:
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            sys.exit(4)
        if not line.strip():
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    message = json.loads(sys.stdin.buffer.read(length))
    if message.get("method") == "initialize":
        send(b"Content-Length: 7\r\n\r\n{oops!}")
        send(b"Server: fake\r\n\r\n")
        reply({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {}}})
    elif message.get("method") == "exit":
        sys.exit(3)
'''


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def run(argv, env=None):
    return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=TIMEOUT, env=env)


def main():
    wrapper = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as directory:
        try:
            result = run([wrapper, "--clangd=/no/such/clangd"])
            check(result.returncode == 2, f"status {result.returncode}")
            check("barrierpair-clangd: error: --clangd=/no/such/clangd: no such executable"
                  in result.stderr, result.stderr)

            result = run([wrapper, "--clangd"])
            check(result.returncode == 2 and "--clangd needs the path of a clangd" in result.stderr,
                  result.stderr)

            result = run([wrapper], env=dict(os.environ, PATH=directory))
            check(result.returncode == 2, f"status {result.returncode}")
            check("no clangd-19 or clangd on PATH: install clangd-19 or pass --clangd=PATH"
                  in result.stderr, result.stderr)

            result = run([wrapper, "--help"])
            check(result.returncode == 0 and "usage: barrierpair-clangd" in result.stdout,
                  result.stdout)

            fake = os.path.join(directory, "fake-clangd")
            with open(fake, "w") as f:
                f.write(FAKE_CLANGD)
            os.chmod(fake, 0o755)

            # --version is clangd's, printed as it prints it (editors check it).
            result = run([wrapper, "--clangd=" + fake, "--version"])
            check(result.returncode == 0 and result.stdout == "fake clangd version 19\n",
                  f"--version: {result.returncode} {result.stdout!r}")

            # Malformed messages from clangd are skipped; the answer after
            # them arrives; `exit` ends the wrapper with clangd's status.
            client = Client([wrapper, "--clangd=" + fake], cwd=directory)
            response = initialize(client, directory, TIMEOUT)
            check(response.get("result") == {"capabilities": {}}, f"initialize: {response}")
            client.notify("exit", None)
            status = client.process.wait(timeout=TIMEOUT)
            check(status == 3, f"clangd's exit status 3 expected, got {status}")
            check(client.wait_for_log("a header without Content-Length", TIMEOUT), client.stderr)
            logged = "".join(client.stderr)
            check(logged.count("skipped a malformed message from clangd") == 2, logged)

            # The editor closing its end: clangd sees the end of its input.
            client = Client([wrapper, "--clangd=" + fake], cwd=directory)
            initialize(client, directory, TIMEOUT)
            client.process.stdin.close()
            status = client.process.wait(timeout=TIMEOUT)
            check(status == 4, f"clangd's exit status 4 expected, got {status}")
        except (AssertionError, Timeout, subprocess.TimeoutExpired) as error:
            print(f"FAIL: {error}", file=sys.stderr)
            return 1
    print("PASS: lsp-errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
