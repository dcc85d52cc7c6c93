import torch


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    # Every row has its own density of nonzeros (uniform in [0, 1)); about 5%
    # of the rows are all zero and 5% have no zero at all. Nonzero values
    # cover -128..-1 and 1..127, so a test for x > 0 would be wrong.
    pick = torch.rand((rows, 1), generator=generator, device=device)
    density = torch.rand((rows, 1), generator=generator, device=device)
    density = torch.where(pick < 0.05, 0.0, torch.where(pick > 0.95, 1.0, density))
    keep = torch.rand((rows, cols), generator=generator, device=device) < density
    v = torch.randint(-128, 127, (rows, cols), generator=generator, device=device,
                      dtype=torch.int32)
    v = torch.where(v >= 0, v + 1, v)
    x = torch.where(keep, v, 0).to(torch.int8)
    return {"x": x}


def reference(x, **_):
    return (x != 0).sum(dim=1).to(torch.int32)
