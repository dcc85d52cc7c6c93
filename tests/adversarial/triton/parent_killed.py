# class: parent killed (its parent and every process it can reach,
# signalled): none is outside its own sandbox, so the evaluation goes on
# expect: pass

import os
import signal


def run(x, y, n, **_):
    gelu(x, y, n)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(os.getppid(), sig)
        except OSError:
            pass
    for pid in (1, -1):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
