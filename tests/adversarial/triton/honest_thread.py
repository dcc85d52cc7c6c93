# class: honest control: the Triton kernel launched from a thread of the
# subject's, joined before the call returns (the thread's guard is entered
# and left by the runner as the thread starts and ends)
# expect: pass

import threading


def run(x, y, n, **_):
    worker = threading.Thread(target=gelu, args=(x, y, n))
    worker.start()
    worker.join()
