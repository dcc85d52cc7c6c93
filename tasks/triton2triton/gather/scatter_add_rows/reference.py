import torch


def reference(src, idx, rows, dim, n, **_):
    out = torch.zeros((rows, dim), dtype=src.dtype, device=src.device)
    return out.index_add_(0, idx, src)
