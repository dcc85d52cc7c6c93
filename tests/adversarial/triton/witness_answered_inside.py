# class: witnessed calls defeated by the runner's own channel: each call
# but a round's last returns with its work undone (the last does every
# set of the round in one launch over the lent slab: deferred_to_last_call,
# batched), and between two calls of a round the runner's socket to the
# judge (descriptor 0) points at a socketpair of the subject's own (os.dup2,
# no audited event). A witness drawn for such a call is the runner's
# {"pause": I} line: it reaches a thread of the subject's, which answers
# {"op": "resume"} itself, so the judge never takes that witness. The
# runner counts the findings it sends (`said`), not its pauses: nothing is
# missed. Until one witness of a timed round has reached the judge (its
# "never paused" rule), the thread passes every pause on both ways and the
# calls are honest; from then on every call but a round's last defers.
# Descriptor 0 is the judge's again at the start of every call and after a
# round's last call, where the runner's replies and requests pass. It
# passed its checks and timed rounds on the CPU before the runner pinned
# its descriptor 0 (a filter of its own refuses replacing it: dup2 fails).
# The gain: a round's calls batched into one launch (on a GPU); timed on
# the CPU in triton_rounds_test.
# expect: Operation not permitted
# where: gpu

import os
import socket
import sys
import threading

import triton

_P = {"real": None, "mine": None, "theirs": None, "thread": None,
      "forwarded_in_rounds": 0, "swallowed": 0, "requests": {}, "request": 0}


def _where():
    """(index of this call in its request, the request's set ids, the
    runner's table of lent sets), from the runner's call_sets frame."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "call_sets":
            f = frame.f_locals
            return f.get("i", 0), list(f.get("ids", [])), f.get("sets", {})
        frame = frame.f_back
    return 0, [], {}


def _line(sock):
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(4096)
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _proxy():
    theirs = _P["theirs"]
    judge = socket.socket(fileno=os.dup(_P["real"]))
    while True:
        line = _line(theirs)  # what the runner said while redirected: a pause
        if _P["forwarded_in_rounds"] == 0 or b'"pause"' not in line:
            judge.sendall(line)
            if b'"pause"' in line:
                theirs.sendall(_line(judge))  # the judge's resume, passed on
                if _P["request"] >= 3:
                    _P["forwarded_in_rounds"] += 1
        else:
            _P["swallowed"] += 1
            print(f"witness_answered_inside: swallowed {line.strip()!r} ({_P['swallowed']} so far)",
                  file=sys.stderr, flush=True)
            theirs.sendall(b'{"op": "resume"}\n')


def _redirect():
    if _P["thread"] is None:
        _P["real"] = os.dup(0)
        _P["mine"], _P["theirs"] = socket.socketpair()
        _P["thread"] = threading.Thread(target=_proxy, daemon=True)
        _P["thread"].start()
    os.dup2(_P["mine"].fileno(), 0)


def _restore():
    if _P["real"] is not None:
        os.dup2(_P["real"], 0)


def run(x, y, n, **_):
    _restore()
    i, ids, sets = _where()
    if len(ids) <= 1:
        gelu(x, y, n)
        return
    if i == 0:
        key = tuple(ids)
        _P["requests"][key] = _P["requests"].get(key, 0) + 1
        _P["request"] = _P["requests"][key]  # 1, 2: the judge's sizing calls; 3 on: rounds
    cheating = _P["forwarded_in_rounds"] > 0
    last = i == len(ids) - 1
    if not cheating:
        gelu(x, y, n)
    elif last:
        # Every set of the round in one launch: the sets lie in one slab per
        # name, a fixed stride apart (as_strided is a free view).
        first = sets[ids[0]]
        stride = (first["x"].storage_offset(), sets[ids[1]]["x"].storage_offset())
        step = stride[1] - stride[0]
        total = step * (len(ids) - 1) + n
        xs = first["x"].as_strided((total,), (1,))
        ys = first["y"].as_strided((total,), (1,))
        gelu(xs, ys, total)
    if not last:
        _redirect()
    _ = triton
