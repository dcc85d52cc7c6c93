# class: work between requests with its own kernels: a thread the subject
# left running launches the subject's own Triton kernel after each call
# has returned (on a GPU, what it launches runs on while its runner is
# stopped: a head start on work the next call then skips, or load on the
# GPU for whoever is timed next); no library compute for the guard to see
# expect: between requests

import threading
import time

LAST = {}


def _after_the_call(x, y, n):
    time.sleep(0.002)  # past the runner's reply
    gelu(x, y, n)


def run(x, y, n, **_):
    gelu(x, y, n)
    if not LAST:
        LAST["x"] = x
        threading.Thread(target=_after_the_call, args=(x, y, n), daemon=True).start()
