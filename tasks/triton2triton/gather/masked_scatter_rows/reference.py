import torch


def make_inputs(params, generator, device):
    rows, dim = int(params["rows"]), int(params["dim"])
    density = float(params["density"])
    dst = torch.randn((rows, dim), generator=generator, device=device)
    src = torch.randn((rows, dim), generator=generator, device=device)
    # Each row is selected independently with probability `density`.
    mask = torch.rand(rows, generator=generator, device=device) < density
    return {"dst": dst.to(torch.float16), "mask": mask, "src": src.to(torch.float16)}


def reference(dst, mask, src, rows, dim, density, **_):
    out = dst.clone()
    count = int(mask.sum().item())
    out[mask] = src[:count]
    return out
