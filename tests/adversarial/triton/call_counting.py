# class: call counting (right for the first calls only)
# expect: NaN|no Triton kernel

CALLS = [0]


def run(x, y, n, **_):
    CALLS[0] += 1
    if CALLS[0] <= 2:
        gelu(x, y, n)
