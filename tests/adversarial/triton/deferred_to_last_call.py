# class: work moved between the calls of a round: each call but a round's
# last returns at once with its outputs unwritten, and the last computes
# every set it was lent (on a GPU, one launch over all of them: hundreds
# of short calls then cost one launch, and a grid that fills the GPU). It
# reads which call is the round's last from the runner's own frame (the
# list of sets the request names); checked one call at a time, it is
# honest. Every output is written when the round ends, so what the judge
# reads after a round is right. It passed its checks and timed rounds on
# the CPU before calls were witnessed (triton_rounds_test catches it there
# now; on a GPU, where its calls are captured, in the witnessed replays).
# expect: deferred
# where: gpu

import sys

import torch

PENDING = []  # (x, y, n) of the calls deferred so far


def _position():
    """(the set the runner calls now, the sets of its request), from the
    runner's frame that calls the subject for each set."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "call_sets":
            return frame.f_locals.get("k"), list(frame.f_locals.get("ids", []))
        frame = frame.f_back
    return None, []


def run(x, y, n, **_):
    k, ids = _position()
    if len(ids) > 1 and k != ids[-1]:
        PENDING.append((x, y, n))
        return
    for px, py, pn in PENDING:
        gelu(px, py, pn)
    PENDING.clear()
    gelu(x, y, n)


_ = torch  # (imported as the others are: torch's tensors are what it is lent)
