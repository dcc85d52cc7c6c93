# class: hidden host thread (the output written after "done")
# expect: NaN|InterpreterError|between requests
# (In Triton's interpreter, the thread's launch can overlap the next call's:
# the interpreter then fails the candidate's call, which is caught too.)

import threading
import time


def run(x, y, n, **_):
    def later():
        time.sleep(1.0)
        gelu(x, y, n)
    threading.Thread(target=later, daemon=True).start()
    _gelu[(1,)](x, y, 0, BLOCK=1024)
