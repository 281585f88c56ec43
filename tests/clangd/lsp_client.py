"""A scripted LSP client for barrierpair-clangd: frames messages, reads the
server's on a thread, and waits for the messages a test expects, with a
deadline instead of sleeps."""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time


class Timeout(Exception):
    pass


class Client:
    def __init__(self, argv, cwd=None):
        self.process = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages = queue.Queue()
        self.stderr = []
        self.next_id = 1
        threading.Thread(target=self._read_messages, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_messages(self):
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = out.read(length)
            self.messages.put((time.monotonic(), json.loads(body)))

    def _read_stderr(self):
        for line in self.process.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def send_raw(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    def wait_for(self, predicate, timeout, what):
        """The first message (time received, message) that satisfies
        predicate; others are dropped. Answers server requests on the way."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout(f"no {what} within {timeout} s")
            try:
                item = self.messages.get(timeout=left)
            except queue.Empty:
                raise Timeout(f"no {what} within {timeout} s")
            if item is None:
                raise Timeout(f"the server closed its output while waiting for {what}")
            received, message = item
            if "method" in message and "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            if predicate(message):
                return received, message

    def response(self, request_id, timeout, what):
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout, what)[1]

    def diagnostics(self, uri, predicate, timeout, what):
        def matches(message):
            return (
                message.get("method") == "textDocument/publishDiagnostics"
                and message["params"]["uri"] == uri
                and predicate(message["params"]["diagnostics"])
            )

        return self.wait_for(matches, timeout, what)

    def wait_for_log(self, text, timeout):
        """Whether the server wrote `text` to standard error in time."""
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.stderr):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def children(self):
        """Process ids of the server's children."""
        pids = []
        task_dir = f"/proc/{self.process.pid}/task"
        for task in os.listdir(task_dir):
            try:
                with open(f"{task_dir}/{task}/children") as f:
                    pids += [int(p) for p in f.read().split()]
            except OSError:
                pass
        return pids


CAPABILITIES = {
    "textDocument": {
        "publishDiagnostics": {"relatedInformation": True},
        "codeAction": {
            "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "refactor"]}}
        },
        "synchronization": {"didSave": True},
    }
}


def initialize(client, root, timeout):
    request_id = client.request(
        "initialize",
        {"processId": os.getpid(), "rootUri": "file://" + root, "capabilities": CAPABILITIES},
    )
    response = client.response(request_id, timeout, "initialize response")
    client.notify("initialized", {})
    return response


def ours(diagnostics):
    return [d for d in diagnostics if d.get("source") == "barrierpair"]


def clangds(diagnostics):
    return [d for d in diagnostics if d.get("source") != "barrierpair"]


def run_session(session, name):
    """The main of a session test: argv is the wrapper and clangd; the
    session runs in a fresh directory; returns the exit status."""
    wrapper, clangd = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as directory:
        try:
            session(wrapper, clangd, os.path.realpath(directory))
        except (AssertionError, Timeout) as error:
            print(f"FAIL: {error}", file=sys.stderr)
            return 1
    print(f"PASS: {name}")
    return 0
