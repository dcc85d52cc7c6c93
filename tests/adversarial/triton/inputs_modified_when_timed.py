# class: inputs corrupted while timed (fast path after a few calls; GPU only)
# expect: modified|outputs are wrong
# where: gpu

CALLS = [0]


def run(x, y, n, **_):
    CALLS[0] += 1
    gelu(x, y, n)
    if CALLS[0] > 8:
        _gelu[(1,)](x, x, 1, BLOCK=1024)
