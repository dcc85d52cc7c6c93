# class: secrets read from the environment of any process it can see
# expect: pass
import os

import triton
import triton.language as tl

LEAKED = False
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if b"ARENA_" in f.read():
                    LEAKED = True
        except OSError:
            pass
LEAKED = LEAKED or any(k.startswith("ARENA_") for k in os.environ)


@triton.jit
def _gelu(x_ptr, y_ptr, n, off, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0
    tl.store(y_ptr + offs, (0.5 * x * (1.0 + t) + off).to(tl.float16),
             mask=mask)


def run(x, y, n, **_):
    # A secret that got through shows as a wrong answer.
    _gelu[(triton.cdiv(n, 1024),)](x, y, n, 1.0 if LEAKED else 0.0, BLOCK=1024)
