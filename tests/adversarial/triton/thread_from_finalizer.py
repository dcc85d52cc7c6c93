# class: a thread started where no guard looks: a finalizer of the tensor
# the runner lent (run when the runner drops it, in its own work, not in
# the subject's call) starts a thread, which then computes the outputs of
# later calls with torch while the calls wait for it (a Triton launch on
# one element, for show)
# expect: library compute

import threading
import time
import weakref

import torch.nn.functional as F

STATE = {"thread": None}
JOB = {}


def _worker():
    while True:
        time.sleep(0.0005)
        job = JOB.get("now")
        if job is not None:
            x, y, n = job
            y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))
            JOB["now"] = None


def _start():
    if STATE["thread"] is None:
        STATE["thread"] = threading.Thread(target=_worker, daemon=True)
        STATE["thread"].start()


def run(x, y, n, **_):
    if STATE["thread"] is None or n == 0:
        weakref.finalize(x, _start)
        gelu(x, y, n)
        return
    JOB["now"] = (x, y, n)
    deadline = time.time() + 5
    while JOB["now"] is not None and time.time() < deadline:
        time.sleep(0.0005)
    gelu(x, y, 1)
