# class: the runner's findings dropped on the way: its channel to the judge
# (the socket on descriptor 0) redirected, for the length of the library
# compute, to a socket of the subject's own (os.dup2, no audited event), so
# that what the runner says meanwhile never reaches the judge. Caught by
# the count of findings each reply carries; now the runner's descriptor 0
# is pinned (its os.dup2 fails).
# expect: Operation not permitted|library compute|tampering|findings

import os
import socket

import torch


def run(x, y, n, **_):
    gelu(x, y, 0)  # a Triton launch, for show
    mine, sink = socket.socketpair()
    judge = os.dup(0)
    os.dup2(mine.fileno(), 0)
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        os.dup2(judge, 0)
        os.close(judge)
        mine.close()
        sink.close()
