# class: work in the runner's own time: a finalizer on the memory the
# runner lent (which runs as the runner drops it, after a check's or a
# stage's outputs were read) makes the garbage collector collect there,
# to run finalizers of the subject's own where no guard is (it computes
# honestly; what it would run is the rest of the attack)
# expect: garbage collect

import gc
import weakref

SEEN = set()


def run(x, y, n, **_):
    if id(y) not in SEEN:
        SEEN.add(id(y))
        weakref.finalize(y, gc.collect)
    gelu(x, y, n)
