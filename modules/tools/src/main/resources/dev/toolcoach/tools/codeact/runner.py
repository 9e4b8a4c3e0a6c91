# Runs one code action: the program, in a process of its own (see harness.py). Its channel to the sandbox's first
# process is two descriptors given on the command line, which no child process of the program inherits; standard
# output and error are its files, so nothing it prints can be taken for the protocol. One JSON object per line:
#   in:  {"code": str, "tools": [{"name": str, "params": [str]}]}   then one reply per call
#   out: {"call": name, "arguments": {...}} for each tool call, and {"done": {...}} at the end
import ast
import json
import os
import sys
import traceback

_channel_in = os.fdopen(int(sys.argv[1]), "r", encoding="utf-8")
_channel_out = os.fdopen(int(sys.argv[2]), "w", encoding="utf-8")
os.set_inheritable(_channel_in.fileno(), False)
os.set_inheritable(_channel_out.fileno(), False)


class ToolError(Exception):
    """A tool answered with an error."""


def _send(message):
    _channel_out.write(json.dumps(message) + "\n")
    _channel_out.flush()


def _tool(name, params):
    def call(*args, **kwargs):
        if len(args) > len(params):
            raise TypeError(f"{name}() takes {len(params)} positional arguments but {len(args)} were given")
        arguments = dict(zip(params, args))
        for key, value in kwargs.items():
            if key in arguments:
                raise TypeError(f"{name}() got multiple values for argument '{key}'")
            arguments[key] = value
        _send({"call": name, "arguments": arguments})
        reply = json.loads(_channel_in.readline())
        if not reply.get("ok"):
            raise ToolError(reply.get("error"))
        return reply.get("value")

    call.__name__ = name
    return call


def _jsonable(value):
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)


def _user_traceback(error):
    # only the program's own frames: the runner is not the model's business
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == "<code>"]
    lines = [f"line {f.lineno}, in {f.name}" for f in frames]
    return "; ".join(lines + [f"{type(error).__name__}: {error}"])


def _run(request):
    scope = {"__name__": "__main__", "ToolError": ToolError}
    for tool in request["tools"]:
        scope[tool["name"]] = _tool(tool["name"], tool["params"])
    try:
        tree = ast.parse(request["code"], "<code>", "exec")
    except SyntaxError as error:
        return {"ok": False, "error": f"SyntaxError: {error.msg} (line {error.lineno})"}
    except ValueError as error:
        return {"ok": False, "error": f"SyntaxError: {error}"}
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    try:
        exec(compile(tree, "<code>", "exec"), scope)
        value = eval(compile(last, "<code>", "eval"), scope) if last is not None else None
    except SystemExit as error:
        return {"ok": error.code in (None, 0), "error": None if error.code in (None, 0) else f"exit({error.code})"}
    except BaseException as error:
        return {"ok": False, "error": _user_traceback(error)}
    return {"ok": True, "value": _jsonable(value)}


def main():
    request = json.loads(_channel_in.readline())
    result = _run(request)
    try:
        sys.stdout.flush()
    except OSError as error:
        result = {"ok": False, "error": f"the program's output: {error}"}
    _send({"done": result})


main()
