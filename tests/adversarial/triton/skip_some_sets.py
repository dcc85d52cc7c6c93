# class: skips the work of a few sets of a timed round, betting that the
# one set read back inside the round is not among them (GPU only)
# expect: differ from the baseline's|NaN
# where: gpu

CALLS = [0]


def run(x, y, n, **_):
    CALLS[0] += 1
    if CALLS[0] > 40 and CALLS[0] % 64 == 0:
        _gelu[(1,)](x, y, 0, BLOCK=1024)  # a launch, for show: one call in 64 skipped
        return
    gelu(x, y, n)
