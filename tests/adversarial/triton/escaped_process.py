# class: escaped process (a daemon left behind, which would die with the
# evaluation's sandbox in any case): starting a process is refused to the
# subject's code
# expect: tampering

import os
import sys


def _escape():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)",
                                      "arena-escapee-marker"])
        os._exit(0)


_escape()


def run(x, y, n, **_):
    gelu(x, y, n)
