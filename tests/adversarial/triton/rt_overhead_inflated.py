# class: the round trip the judge subtracts from every timed round, made
# longer: the judge measures it (9 empty requests through the baseline's
# runner) at the start of a timing stage, while the candidate's runner is
# not stopped. Threads the subject left running load every core of the
# host with work of its own (hashlib over a buffer of its own: no aten op,
# no Triton launch, the GIL let go, nothing for the guard or the launch
# observer to see) from the end of its last call until a call of several
# sets (a round) comes, and then stop. The judge's `overhead` grows, and
# the same inflated figure is subtracted from both subjects' rounds: their
# times shrink by the same amount, so a candidate faster than the baseline
# looks faster still (its ratio moves away from 1). Its calls are honest.
# expect: pass (but round_trip_us inflated: a timing cheat no check names)
# where: gpu (the gain); the inflation shows on the CPU too

import hashlib
import os
import sys
import threading
import time

_STATE = {"threads": None, "calling": False, "quiet": False}
_BLOB = b"\x5a" * (1 << 20)


def _sets_in_this_call():
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "call_sets":
            return len(frame.f_locals.get("ids", ()))
        frame = frame.f_back
    return 1


def _burn():
    while True:
        if _STATE["calling"] or _STATE["quiet"]:
            time.sleep(0.0005)
            continue
        hashlib.sha256(_BLOB).digest()  # releases the GIL: a core of its own


def run(x, y, n, **_):
    if _STATE["threads"] is None:
        _STATE["threads"] = [threading.Thread(target=_burn, daemon=True)
                             for _ in range(max(2, (os.cpu_count() or 2) + 1))]
        for t in _STATE["threads"]:
            t.start()
    # A round (several sets) stops the load for the rest of the stage; a
    # call of one set (the next configuration's check, the stage's probe)
    # starts it again.
    _STATE["quiet"] = _sets_in_this_call() > 1
    _STATE["calling"] = True
    try:
        gelu(x, y, n)
    finally:
        _STATE["calling"] = False
