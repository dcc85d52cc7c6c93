# class: host compute: the lent memory's own file, opened again through
# /proc/self/map_files (the mapping's entry), written with the outputs
# computed on the host (inputs read from the storage's bytes) with no op
# for the guard to see; the call launches a Triton kernel on one element,
# for show
# (On a GPU the lent memory is the device's, with no mapping of the
# process's to open: there it opens the entry of the mapping that holds
# its own code's memory, refused the same way.)
# expect: process's memory

import math
import os
import struct


def run(x, y, n, **_):
    if x.device.type != "cpu":
        gelu(x, y, n)
        with open("/proc/self/maps") as f:
            first = f.readline().split()[0]
        os.close(os.open("/proc/self/map_files/" + first, os.O_RDONLY))
        return
    addr = y.data_ptr()
    with open("/proc/self/maps") as f:
        for line in f:
            lo, hi = (int(v, 16) for v in line.split()[0].split("-"))
            if lo <= addr < hi:
                path = "/proc/self/map_files/" + line.split()[0]
                break
    vals = struct.unpack(f"<{n}e", bytes(x.untyped_storage().tolist())[x.storage_offset() * 2:][:2 * n])
    out = [0.5 * b * (1.0 + math.tanh(0.7978845608 * (b + 0.044715 * b ** 3))) for b in vals]
    fd = os.open(path, os.O_RDWR)
    os.pwrite(fd, struct.pack(f"<{n}e", *out), addr - lo)
    os.close(fd)
    gelu(x, y, min(n, 1))
