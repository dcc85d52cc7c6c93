# class: process_via_hook's helper process, its pre-run hook shown to the
# runner alone as absent: a property named pre_run_hooks put on a base
# class of Triton's kernels (KernelInterface: a data descriptor there wins
# over the kernel's own attribute) answers the runner's look (its frame is
# the runner's) with Python's own empty list, and Triton's (inside the
# launch) with a list that holds the hook. Whatever the runner reads
# through a class the subject can change, the subject answers. Before the
# classes of Triton's kernels, their bases included (typing.Generic too),
# were frozen as the runner starts, the runner's look saw no hook on the
# CPU, and the process was refused by the next rule alone (a process
# started inside a launch must be asked for by a file of Triton's that
# starts processes: the interpreter's does not).
# expect: immutable type|pre-run hook|starting a process

import mmap
import os
import struct
import subprocess
import sys
import time

import torch
import triton
import triton.language as tl

_HELPER = r"""
import mmap, os, struct, sys, time
import torch
import torch.nn.functional as F
fd = os.open(f"/proc/{sys.argv[1]}/fd/{sys.argv[2]}", os.O_RDWR)
size = int(sys.argv[3])
m = mmap.mmap(fd, size)
raw = torch.frombuffer(m, dtype=torch.uint8)
done = 0
while True:
    seq, n = struct.unpack_from("<qq", m, 0)
    if seq == done:
        time.sleep(0.0001)
        continue
    x = raw[64:64 + 2 * n].view(torch.float16)
    y = raw[64 + 2 * n:64 + 4 * n].view(torch.float16)
    y.copy_(F.gelu(x.float(), approximate="tanh").half())
    done = seq
    struct.pack_into("<q", m, 16, done)
"""

_S = {"m": None, "raw": None, "seq": 0, "cap": 0}


def _hooks_by_caller(kernel, hooks):
    """The pre-run hooks, as the reader is: the runner's look, or Triton's."""
    from triton.runtime.jit import KernelInterface

    def read(self):
        if self is not kernel:
            return self.__dict__.get("pre_run_hooks", [])
        return [] if sys._getframe(1).f_code.co_name == "hook_set" else hooks

    KernelInterface.pre_run_hooks = property(read, lambda self, value: self.__dict__.update(pre_run_hooks=value))


@triton.jit
def _spawn(argv):
    pass


@triton.jit
def _copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


def _start(cap):
    size = 64 + 4 * cap
    fd = os.memfd_create("helper")
    os.ftruncate(fd, size)
    _S["m"] = mmap.mmap(fd, size)
    _S["raw"] = torch.frombuffer(_S["m"], dtype=torch.float16)  # (no view of another dtype: torch
    # dispatches its detach as a subclass's)
    _S["cap"], _S["fd"] = cap, fd
    _hooks_by_caller(_spawn, [subprocess.Popen])
    try:
        _spawn[(1,)]([sys.executable, "-c", _HELPER, str(os.getpid()), str(fd), str(size)])
    except Exception:  # noqa: BLE001  (the list is no kernel argument: the hook has run)
        pass


def run(x, y, n, **_):
    if n == 0:
        return
    if _S["m"] is None:
        _start(max(n, 1 << 20))
    raw = _S["raw"]
    sx = raw[32:32 + n]
    sy = raw[32 + n:32 + 2 * n]
    grid = (triton.cdiv(n, 1024),)
    _copy[grid](x, sx, n, BLOCK=1024)
    _S["seq"] += 1
    struct.pack_into("<qq", _S["m"], 0, _S["seq"], n)
    deadline = time.monotonic() + 60
    while struct.unpack_from("<q", _S["m"], 16)[0] != _S["seq"]:
        if time.monotonic() > deadline:
            raise RuntimeError("helper gone")
        time.sleep(0.0001)
    _copy[grid](sy, y, n, BLOCK=1024)
