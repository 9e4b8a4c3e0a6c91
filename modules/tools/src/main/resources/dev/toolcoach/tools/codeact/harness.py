# The sandbox's first process (PID 1 inside it): speaks the protocol with the JVM and runs the program in a child
# process (runner.py) that holds none of the JVM's descriptors. One JSON object per line:
#   from the JVM: {"code": str, "tools": [{"name": str, "params": [str]}]}, then one reply per call
#   to the JVM:   {"call": name, "arguments": {...}} for each tool call the program makes, then
#                 {"done": result or null, "exit": the program's exit status, "stdout": str, "stderr": str,
#                  "protocol_error": str or null}
# This process is not dumpable, so the program (same user) can neither open /proc/1/fd nor trace it: whatever the
# program prints, with print, os.write or a child process of its own, goes to its files, and the only lines the JVM
# reads are the ones written here, from what the program asked through its own channel and this process checked.
import ctypes
import json
import os
import subprocess
import sys

PR_SET_DUMPABLE = 4
MAX_LINE = 1 << 20
READ_CAP = 64 << 10
AFTER_DONE_SECONDS = 2


def _send(stream, message):
    stream.write(json.dumps(message) + "\n")
    stream.flush()


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read(READ_CAP + 1).decode("utf-8", "replace")
    except OSError:
        return ""


def _relay(jvm_in, jvm_out, to_child, from_child, tools):
    """Relays the program's tool calls until it is done; returns (result or None, protocol error or None)."""
    while True:
        line = from_child.readline(MAX_LINE + 1)
        if not line:
            return None, None
        if len(line) > MAX_LINE:
            return None, f"the program wrote a line longer than {MAX_LINE} bytes to the sandbox's channel"
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if isinstance(message, dict) and "done" in message and isinstance(message["done"], dict):
            return message["done"], None
        if not (isinstance(message, dict) and message.get("call") in tools and isinstance(message.get("arguments"), dict)):
            return None, "the program wrote something other than a tool call to the sandbox's channel"
        _send(jvm_out, {"call": message["call"], "arguments": message["arguments"]})
        reply = jvm_in.readline()
        if not reply:
            return None, None
        _send(to_child, json.loads(reply))


def main():
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise SystemExit("cannot make the sandbox's first process undumpable")
    jvm_in, jvm_out = sys.stdin, sys.stdout
    request = json.loads(jvm_in.readline())
    tools = {tool["name"] for tool in request["tools"]}
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()
    with open("stdout.txt", "wb") as out, open("stderr.txt", "wb") as err:
        child = subprocess.Popen([sys.executable, "-I", "-X", "utf8", "/harness/runner.py", str(to_child_r), str(from_child_w)],
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=err, pass_fds=(to_child_r, from_child_w))
    os.close(to_child_r)
    os.close(from_child_w)
    with os.fdopen(to_child_w, "w", encoding="utf-8") as to_child, \
            os.fdopen(from_child_r, "r", encoding="utf-8", errors="replace") as from_child:
        try:
            _send(to_child, {"code": request["code"], "tools": request["tools"]})
            result, protocol_error = _relay(jvm_in, jvm_out, to_child, from_child, tools)
        except BrokenPipeError:
            result, protocol_error = None, None
        try:
            exit_status = child.wait(AFTER_DONE_SECONDS if result is not None or protocol_error else None)
        except subprocess.TimeoutExpired:
            child.kill()
            exit_status = child.wait()
    _send(jvm_out, {"done": result, "exit": exit_status, "stdout": _read("stdout.txt"), "stderr": _read("stderr.txt"),
                    "protocol_error": protocol_error})


main()
