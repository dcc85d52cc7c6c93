"""Pieces shared by the arena's Python harness workers (triton2triton,
torch2hip): the JSON-lines protocol, dtypes and tolerances, comparison with
a reference, and GPU timing helpers (L2 flush, a blocking kernel that keeps
the host's launch path out of the events).

Public API:
  serve(handlers): the request loop; make_reply(): a reply; TaskError
  DTYPES, DEFAULT_TOLERANCES: dtype names and their default (atol, rtol)
  evaluate(expr, params): a shape or parameter expression (core/expr.h)
  load_module(path, name), trial_seed(seed, trial)
  compare(name, got, ref, tol), bitwise_equal(a, b), fingerprint(t)
  median(values), calibrate_sleep(), event_once(fn, flush, block_cycles)

Importing this module first sends everything but replies to stderr: a
kernel's or a library's print can never be mistaken for a reply.
"""

import ast
import hashlib
import importlib.util
import itertools
import json
import math
import os
import sys
import time
import traceback

# Replies go to the real stdout; everything else (kernels' prints, warnings,
# C libraries) is sent to stderr.
_REPLY = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
sys.stdout = sys.stderr

import torch  # noqa: E402

DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "bool": torch.bool,
}


for _name in ("float8_e4m3fn", "float8_e5m2"):
    if hasattr(torch, _name):
        DTYPES[_name] = getattr(torch, _name)


DEFAULT_TOLERANCES = {
    "float16": (1e-2, 1e-2),
    "bfloat16": (2e-2, 2e-2),
    "float32": (1e-4, 1e-4),
    "float64": (1e-8, 1e-8),
    "float8_e4m3fn": (1.25e-1, 1.25e-1),
    "float8_e5m2": (2.5e-1, 2.5e-1),
}


class TaskError(Exception):
    """A problem with the task or candidate, reported as a failed stage."""


_BINARY = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a ** b,
}
_FUNCTIONS = {"min": min, "max": max, "sqrt": math.sqrt, "log2": math.log2,
              "ceil_div": lambda a, b: -(-a // b)}


def evaluate(expr, params):
    """Evaluates a shape or parameter expression in the core's grammar
    (core/expr.h): numbers, parameter names, + - * / // % **, unary minus,
    min, max, ceil_div, sqrt, log2. Nothing else: the text of a task file
    is never run as code."""
    if isinstance(expr, bool):
        raise TaskError(f"expression {expr!r}: expected a number")
    if isinstance(expr, (int, float)):
        return expr
    text = str(expr)
    if len(text) > 1000:
        raise TaskError("expression longer than 1000 characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        raise TaskError(f"expression {text!r}: {e.msg}") from None

    def value(node):
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            v = params.get(node.id)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TaskError(f"expression {text!r}: no numeric parameter '{node.id}'")
            return v
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = value(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = value(node.left), value(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > 64:
                raise TaskError(f"expression {text!r}: exponent too large")
            return _BINARY[type(node.op)](left, right)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in _FUNCTIONS and not node.keywords:
            return _FUNCTIONS[node.func.id](*[value(a) for a in node.args])
        raise TaskError(f"expression {text!r}: only numbers, parameters, arithmetic and "
                        "min/max/ceil_div/sqrt/log2 are allowed")
    try:
        return value(tree)
    except (ZeroDivisionError, OverflowError, ValueError, TypeError) as e:
        raise TaskError(f"expression {text!r}: {e}") from None


def load_module(path, unique_name):
    spec = importlib.util.spec_from_file_location(unique_name, path)
    if spec is None:
        raise TaskError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique_name] = module
    spec.loader.exec_module(module)
    return module


def trial_seed(seed, trial):
    digest = hashlib.sha256(f"{seed}:{trial}".encode()).digest()
    return int.from_bytes(digest[:6], "little")


def calibrate_sleep():
    """GPU cycles per microsecond of torch.cuda._sleep (0 if unavailable)."""
    if not hasattr(torch.cuda, "_sleep"):
        return 0.0
    cycles = 10_000_000
    torch.cuda._sleep(cycles)  # warm-up
    times = []
    for _ in range(3):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.cuda._sleep(cycles)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return cycles / median(times)


def event_once(fn, flush, block_cycles=0):
    flush.add_(1.0)  # evicts the L2 outside the timed region
    if block_cycles > 0:
        torch.cuda._sleep(block_cycles)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3


def median(values):
    v = sorted(values)
    n = len(v)
    return 0.5 * (v[(n - 1) // 2] + v[n // 2])


def bitwise_equal(a, b):
    """Whether a and b hold the same bytes (NaN payloads and the sign of
    zero included; any dtype, float8 too)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.numel() == 0:
        return True
    return bool(torch.equal(a.detach().contiguous().reshape(-1).view(torch.uint8),
                            b.detach().contiguous().reshape(-1).view(torch.uint8)))


def fingerprint(t):
    """A short digest of a tensor's bytes, telling trials' outputs apart.

    On a GPU the bytes are folded into two position-weighted 64-bit sums on
    the device (wrapping arithmetic), so that gigabyte outputs are not copied
    to the host and hashed there; on a CPU they are hashed whole. Digests are
    only compared within one machine's run.
    """
    t = t.detach().contiguous()
    if t.device.type == "cpu":
        return hashlib.sha256(t.view(torch.uint8).numpy().tobytes()).hexdigest()[:16]
    raw = t.reshape(-1).view(torch.uint8)
    pad = (-raw.numel()) % 8
    if pad:
        raw = torch.cat([raw, raw.new_zeros(pad)])
    words = raw.view(torch.int64)
    mix = torch.arange(words.numel(), device=words.device, dtype=torch.int64)
    mix.mul_(-7046029254386353131).add_(1442695040888963407)  # odd 64-bit constants
    first = int((words * (mix | 1)).sum())
    second = int((words ^ mix).mul_(3).sum())
    return hashlib.sha256(f"{raw.numel()}:{first}:{second}".encode()).hexdigest()[:16]


def compare(name, got, ref, tol):
    atol, rtol = tol
    if not isinstance(ref, torch.Tensor):
        raise TaskError(f"reference value for '{name}' is not a tensor")
    if tuple(got.shape) != tuple(ref.shape):
        return False, f"'{name}' has shape {tuple(got.shape)}, the reference {tuple(ref.shape)}", (0, 0)
    g = got.detach().to(torch.float64)
    r = ref.detach().to(torch.float64).to(g.device)
    ref_finite = torch.isfinite(r)
    got_finite = torch.isfinite(g)
    bad_nonfinite = ref_finite & ~got_finite
    if bool(bad_nonfinite.any()):
        count = int(bad_nonfinite.sum())
        kind = "NaN (unwritten?)" if bool(torch.isnan(g[bad_nonfinite]).any()) else "Inf"
        return False, f"'{name}': {count} element(s) are {kind} where the reference is finite", (
            float("inf"), float("inf"))
    # Where the reference itself is NaN/Inf, the output must match it.
    nonfinite = ~ref_finite
    if bool(nonfinite.any()):
        same = (torch.isnan(r) & torch.isnan(g)) | (r == g)
        if not bool(same[nonfinite].all()):
            return False, f"'{name}': non-finite reference values not reproduced", (0, 0)
    diff = (g - r).abs()[ref_finite]
    rf = r[ref_finite]
    max_abs = float(diff.max()) if diff.numel() else 0.0
    rel = diff / rf.abs().clamp_min(1e-12)
    max_rel = float(rel.max()) if rel.numel() else 0.0
    bad = diff > atol + rtol * rf.abs()
    if bool(bad.any()):
        idx = int(bad.nonzero()[0][0])
        return False, (f"'{name}': {int(bad.sum())} of {rf.numel()} element(s) outside "
                       f"atol={atol} rtol={rtol}; e.g. got {float(g[ref_finite][idx]):.6g}, "
                       f"expected {float(rf[idx]):.6g}"), (max_abs, max_rel)
    return True, "", (max_abs, max_rel)


def make_reply(status, detail, log="", seconds=0.0, metrics=None, extra=None):
    out = {"status": status, "detail": detail, "log": log, "seconds": seconds,
           "metrics": metrics or {}}
    if extra:
        out.update(extra)
    return out


def _finite(value):
    """JSON has no NaN or Infinity: such numbers travel as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def serve(handlers, read=()):
    """Answers one JSON request per line on stdin until EOF or {"op": "quit"};
    `read`: lines already read from stdin, answered first."""
    for line in itertools.chain(read, sys.stdin):
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as e:
            _REPLY.write(json.dumps(_finite(make_reply("error", f"bad request: {e}"))) + "\n")
            continue
        op = req.get("op")
        if op == "quit":
            break
        start = time.perf_counter()
        try:
            reply = handlers[op](req) if op in handlers else make_reply("error", f"unknown op {op}")
        except TaskError as e:
            reply = make_reply("failed", str(e))
        except Exception as e:  # noqa: BLE001: a candidate's exception is its failure
            first = str(e).splitlines()[0] if str(e) else ""
            reply = make_reply("failed", f"{type(e).__name__}: {first}", log=traceback.format_exc())
        reply.setdefault("seconds", 0.0)
        if not reply["seconds"]:
            reply["seconds"] = time.perf_counter() - start
        _REPLY.write(json.dumps(_finite(reply)) + "\n")
