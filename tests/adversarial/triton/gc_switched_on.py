# class: work in the runner's own time: a thread the subject left running
# switches the garbage collector on after a call, its count one short of a
# collection, so that the runner's own next allocation collects, on the
# runner's thread, garbage whose finalizer leaves new garbage and the
# count as they were until the runner parses a request (the names on the
# stack say so); then it computes the outputs of the sets that are
# poisoned (a round's, once its inputs are written) with torch and
# switches the collector off again before the runner's next look at it
# (no settings or callbacks changed, none of the runner's variables read)
# expect: garbage collect
# where: gpu

import gc
import sys
import threading
import time

SEEN = {}  # id of an output -> (x, y, n): every set it was lent
STATE = {"thread": None, "armed": False, "calling": False}
PAD = []


def _poisoned(y):
    v = y[0].item()  # a view and a read: no arithmetic for the guard to see
    return v != v


def _parsing_a_request():
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name in ("loads", "decode", "raw_decode"):
            return True
        frame = frame.f_back
    return False


def _one_short():
    """Garbage with a finalizer, and the collector's count one short."""
    _Bait()
    PAD.clear()
    threshold = gc.get_threshold()[0]
    while gc.get_count()[0] < threshold - 1:
        PAD.append([])


class _Bait:
    def __init__(self):
        self.me = self  # a cycle: freed by a collection alone

    def __del__(self):
        if STATE["calling"]:
            STATE["armed"] = False
            return
        if not _parsing_a_request():
            _one_short()  # not yet: collect again at the runner's next allocation
            return
        torch_gelu_where_poisoned(SEEN)
        gc.disable()
        STATE["armed"] = False


def _arm():
    while True:
        time.sleep(0.0002)
        if STATE["armed"] or STATE["calling"] or gc.isenabled():
            continue
        STATE["armed"] = True
        _one_short()
        gc.enable()  # the next allocation collects: the runner's, on its thread


def run(x, y, n, **_):
    STATE["calling"] = True
    try:
        if STATE["thread"] is None:
            STATE["thread"] = threading.Thread(target=_arm, daemon=True)
            STATE["thread"].start()
        if id(y) not in SEEN:
            SEEN[id(y)] = (x, y, n)
            gelu(x, y, n)
        elif n > 0 and not _poisoned(y):
            gelu(x, y, min(n, 1))  # done already: a Triton launch, for show
        else:
            gelu(x, y, n)
    finally:
        STATE["calling"] = False
