# class: work in the runner's own time: a callback of the garbage collector
# (run wherever it collects, the runner's own work between requests
# included) computes the outputs of every set it was lent with torch while
# no request runs the subject's code (the runner's flag read from its
# frame), where no guard of the runner's is entered
# expect: garbage collector

import gc

SEEN = {}
RUNNER = {}


def _on_collect(phase, info):
    if phase != "stop" or RUNNER["state"]["candidate"]:
        return
    torch_gelu_where_poisoned(SEEN)


def run(x, y, n, **_):
    SEEN[id(y)] = (x, y, n)
    if not RUNNER:
        RUNNER["state"] = runner_state()
        gc.callbacks.append(_on_collect)
        gc.set_threshold(10)
    gelu(x, y, n)
