# class: work between requests without a thread: a handler for SIGCONT
# (the judge resumes a stopped runner with it, just before the runner's
# round) computes the outputs of every set it was lent with torch, on the
# runner's own thread, while no request runs the subject's code
# expect: signal handler

import signal

import torch.nn.functional as F

SEEN = {}


def _on_resume(signum, frame):
    for x, y, n in SEEN.values():
        y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))


def run(x, y, n, **_):
    SEEN[id(y)] = (x, y, n)
    signal.signal(signal.SIGCONT, _on_resume)
    gelu(x, y, n)
