import torch


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    x = (torch.randn((rows, cols), generator=generator, device=device) + 0.5).to(torch.float16)
    # Every row keeps its own fraction of positions (uniform in [0, 1));
    # about 5% of the rows keep none and 5% keep all. Set mask bytes take
    # any value 1..255, not only 1.
    pick = torch.rand((rows, 1), generator=generator, device=device)
    density = torch.rand((rows, 1), generator=generator, device=device)
    density = torch.where(pick < 0.05, 0.0, torch.where(pick > 0.95, 1.0, density))
    keep = torch.rand((rows, cols), generator=generator, device=device) < density
    v = torch.randint(1, 256, (rows, cols), generator=generator, device=device, dtype=torch.int32)
    mask = torch.where(keep, v, 0).to(torch.uint8)
    return {"x": x, "mask": mask}


def reference(x, mask, **_):
    keep = mask != 0
    total = torch.where(keep, x, torch.zeros((), dtype=x.dtype, device=x.device)).sum(dim=1)
    n = keep.sum(dim=1)
    return torch.where(n > 0, total / n.clamp_min(1).to(total.dtype), 0.0).to(torch.float32)
