import torch


def make_inputs(params, generator, device):
    b, rows, m, d = (int(params[k]) for k in ("b", "rows", "m", "d"))
    dst = torch.randn(b, rows, d, generator=generator, device=device).to(torch.float16)
    src = torch.randn(b, m, d, generator=generator, device=device).to(torch.float16)
    # m distinct destination rows per batch, in random order.
    keys = torch.rand(b, rows, generator=generator, device=device)
    idx = torch.argsort(keys, dim=1)[:, :m].contiguous()
    return {"dst": dst, "idx": idx, "src": src}


def reference(dst, idx, src, b, rows, m, d, **_):
    out = dst.clone()
    batch = torch.arange(int(b), device=dst.device).unsqueeze(1).expand(-1, int(m))
    out[batch, idx] = src
    return out
