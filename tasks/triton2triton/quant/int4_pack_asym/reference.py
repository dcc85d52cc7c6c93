import torch


def _f32(t):
    # Rounds float64 values to fp32 (and back): applied to the float64
    # result of one +, -, / of fp32 operands, this is exactly that
    # operation's IEEE fp32 result.
    return t.to(torch.float32).to(torch.float64)


def reference(w, rows, cols, group_size, **_):
    # w arrives as float64 (exact copies of the fp16 inputs).
    g = w.reshape(rows, cols // group_size, group_size)
    lo = g.amin(dim=2)
    hi = g.amax(dim=2)
    scales = _f32(_f32(hi - lo) / 15.0).to(torch.float16)
    scales = torch.where(scales == 0, torch.ones_like(scales), scales)
    s = scales.to(torch.float64)
    zeros = torch.round(_f32(-lo / s)).clamp(0, 15)
    q = (torch.round(_f32(g / s[:, :, None])) + zeros[:, :, None]).clamp(0, 15)
    q = q.to(torch.int64).reshape(rows, cols)
    packed = (q[:, 0::2] | (q[:, 1::2] << 4)).to(torch.uint8)
    return packed, scales, zeros.to(torch.float16)
