# class: work done ahead of its call: a round's first call computes every
# set the round lent (on a GPU, one launch over all of them), and the later
# calls return at once, their outputs already written. It reads the
# round's sets from the runner's own frame (the request's list, and the
# runner's table of lent tensors). Right when checked (one call at a
# time), right at every round's end, and every call's outputs are written
# when it returns: a witnessed call alone does not see it. Once a witness
# is taken, the judge reads the later sets' outputs at secret places,
# which must still hold the poison written before the round (their calls
# have not run). It passed its checks and timed rounds on the CPU before.
# expect: done ahead
# where: gpu

import sys


def _round():
    """(the set the runner calls now, the sets of its request, its table
    of lent tensors), from the runner's frame that calls the subject."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "call_sets":
            f = frame.f_locals
            return f.get("k"), list(f.get("ids", [])), f.get("sets", {})
        frame = frame.f_back
    return None, [], {}


def run(x, y, n, **_):
    k, ids, sets = _round()
    if len(ids) > 1 and k != ids[0]:
        return  # done in the round's first call
    for other in ids[1:] if len(ids) > 1 else []:
        tensors = sets[other]
        gelu(tensors["x"], tensors["y"], n)
    gelu(x, y, n)
