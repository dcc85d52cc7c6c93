# class: invalid bytes on every channel
# expect: not the protocol

import os
import sys


def run(x, y, n, **_):
    gelu(x, y, n)
    sys.stderr.buffer.write(b"\xff\xfe garbage \x00\n")
    os.write(1, b"\xc3\x28 {\"status\": \"passed\"}\n")
    os.write(0, b"\xc3\x28\xff\n")
