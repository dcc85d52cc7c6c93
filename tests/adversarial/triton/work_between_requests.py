# class: work between requests: a thread the subject left running watches
# the memory it was lent and, once a round's inputs are written and its
# outputs poisoned, computes them with torch while no request of the
# runner's runs the subject's code (it reads the runner's own flag from
# the main thread's frame, so that none of its ops falls inside a call);
# its calls launch a Triton kernel on what is left (honest when checked:
# a check's call comes right after its inputs are written). On a GPU it
# can lose every race: its runner is stopped while a round's inputs are
# written and its request follows at once, so it may compute every call
# itself, with its polling's cost (on the H200, 0.35-0.97x: no gain).
# Its polling reads an output's first element to the host (.item()), for
# which torch makes host memory the GPU can reach: named as host compute
# where the observer sees the allocation (on the H100, 2026-12-05)
# expect: between requests|library compute|no gain|host compute
# where: gpu

import threading
import time

import torch
import torch.nn.functional as F

SEEN = {}  # id of an output -> (x, y, n): every set it was lent
STATE = {"thread": None, "runner": None}


def _poisoned(y):
    v = y[0].item()  # a view and a read: no arithmetic for the guard to see
    return v != v


def _precompute():
    runner = STATE["runner"]
    while True:
        time.sleep(0.0002)
        for x, y, n in list(SEEN.values()):
            if n == 0 or runner["candidate"] or not _poisoned(y):
                continue
            wide = x[:n].float() if not runner["candidate"] else None
            done = F.gelu(wide, approximate="tanh") if wide is not None and not runner["candidate"] else None
            if done is not None and not runner["candidate"]:
                y[:n].copy_(done)


def run(x, y, n, **_):
    SEEN[id(y)] = (x, y, n)
    if STATE["thread"] is None:
        STATE["runner"] = runner_state()
        STATE["thread"] = threading.Thread(target=_precompute, daemon=True)
        STATE["thread"].start()
    if n > 0 and not _poisoned(y):
        gelu(x, y, min(n, 1024))  # done already: a Triton launch, for show
    else:
        gelu(x, y, n)
