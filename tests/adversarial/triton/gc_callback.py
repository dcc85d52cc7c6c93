# class: work in the runner's own time: a callback of the garbage collector
# (run wherever it collects, the runner's own work between requests
# included) computes the outputs of every set it was lent with torch while
# no request runs the subject's code (the runner's flag read from its
# frame), where no guard of the runner's is entered
# expect: garbage collector

import gc

import torch.nn.functional as F

SEEN = {}
RUNNER = {}


def _on_collect(phase, info):
    if phase != "stop" or RUNNER["state"]["candidate"]:
        return
    for x, y, n in SEEN.values():
        v = y[0].item()
        if n > 0 and v != v:  # poisoned: a new round's, or a check's, inputs
            y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))


def run(x, y, n, **_):
    SEEN[id(y)] = (x, y, n)
    if not RUNNER:
        RUNNER["state"] = runner_state()
        gc.callbacks.append(_on_collect)
        gc.set_threshold(10)
    gelu(x, y, n)
