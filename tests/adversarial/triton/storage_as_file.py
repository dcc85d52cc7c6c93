# class: host compute through the lent memory's storage as a file: the
# storage written out to a file-like object (`_write_file`), the gelu
# computed in Python floats, and the whole storage read back in from one
# (`_set_from_file`), its inputs unchanged: no op of a tensor's runs; a
# Triton kernel launched on one element, for show
# expect: host compute

import io
import math
import struct


def run(x, y, n, **_):
    xs, ys = x.untyped_storage(), y.untyped_storage()
    out = io.BytesIO()
    ys._write_file(out, False, False, 1)
    whole = bytearray(out.getvalue())
    if xs.data_ptr() == ys.data_ptr():
        xb = whole
    else:
        xio = io.BytesIO()
        xs._write_file(xio, False, False, 1)
        xb = xio.getvalue()
    xo, yo = x.storage_offset() * 2, y.storage_offset() * 2
    for i in range(n):
        (v,) = struct.unpack_from("<e", xb, xo + 2 * i)
        g = 0.5 * v * (1.0 + math.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))
        struct.pack_into("<e", whole, yo + 2 * i, g)
    ys._set_from_file(io.BytesIO(struct.pack("<q", len(whole)) + bytes(whole)), None, False, 1)
    gelu(x, y, min(n, 1))
