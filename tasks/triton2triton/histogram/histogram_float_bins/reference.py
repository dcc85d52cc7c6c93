import torch


def reference(x, n, bins, lo, hi, **_):
    f32 = dict(dtype=torch.float32, device=x.device)
    lo_t = torch.tensor(float(lo), **f32)
    hi_t = torch.tensor(float(hi), **f32)
    scale = torch.tensor(int(bins) / (float(hi) - float(lo)), **f32)
    inside = (x >= lo_t) & (x < hi_t)
    # The bin index in fp32, exactly as specified: floor((x - lo) * scale).
    b = torch.floor((x - lo_t) * scale).to(torch.int64).clamp(0, int(bins) - 1)
    return torch.bincount(b[inside], minlength=int(bins)).to(torch.int32)
