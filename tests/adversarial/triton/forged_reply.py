# class: forged reply (a "done" written on the runner's socket, no work)
# expect: not the protocol|NaN|no Triton kernel

import os


def run(x, y, n, **_):
    os.write(0, b"{\"ok\": true, \"launches\": 1}\n")
