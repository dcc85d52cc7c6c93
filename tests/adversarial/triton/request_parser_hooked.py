# class: the subject's code run in the runner's own time, through a
# library object the runner uses there: the JSON decoder that parses each
# request (json's default decoder, whose scanner is an attribute of an
# instance anyone can set). As the runner parses a request, after the
# judge has written a round's inputs, the hook computes every poisoned
# output it was lent with torch, outside any call and so outside the
# guard; the call itself launches a Triton kernel on one element, for show.
# On a GPU its look at an output (.item()) makes torch allocate host
# memory the GPU can reach, which the launch observer names first (on the
# H100, 2026-12-05)
# expect: library compute|between requests|runner's own time|tampering|host compute

import json

import torch.nn.functional as F

SEEN = {}  # id of an output -> (x, y, n): every set it was lent


def _poisoned(y):
    v = y[0].item()
    return v != v


def _compute_poisoned():
    for x, y, n in list(SEEN.values()):
        if n > 0 and _poisoned(y):
            y[:n].copy_(F.gelu(x[:n].float(), approximate="tanh"))


def _hook():
    decoder = json._default_decoder
    scan = decoder.scan_once
    if getattr(scan, "hooked", False):
        return

    def scan_once(s, idx):
        _compute_poisoned()
        return scan(s, idx)
    scan_once.hooked = True
    decoder.scan_once = scan_once


def run(x, y, n, **_):
    _hook()
    seen = id(y) in SEEN
    SEEN[id(y)] = (x, y, n)
    if seen and n > 0 and not _poisoned(y):
        gelu(x, y, min(n, 1))  # done already, in the runner's time: a launch for show
    else:
        gelu(x, y, n)
