import torch


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    x = torch.randn((rows, cols), generator=generator, device=device) * 100.0
    # Every row has its own rate of non-finite values: about 40% of the rows
    # have none, the others a rate up to 1e-2, and about 2% are non-finite
    # throughout. Planted values are NaN, +inf and -inf in equal parts.
    # Large finite values (+-65504, the fp16 limit) and zeros are planted
    # too and must not be counted.
    pick = torch.rand((rows, 1), generator=generator, device=device)
    rate = torch.rand((rows, 1), generator=generator, device=device) * 1e-2
    rate = torch.where(pick < 0.4, 0.0, torch.where(pick > 0.98, 1.0, rate))
    u = torch.rand((rows, cols), generator=generator, device=device)
    kind = torch.randint(0, 3, (rows, cols), generator=generator, device=device)
    special = torch.tensor([float("nan"), float("inf"), float("-inf")], device=device)
    x = torch.where(u < rate, special[kind], x)
    big = torch.rand((rows, cols), generator=generator, device=device) < 1e-3
    sign = torch.where(kind == 0, -1.0, 1.0)
    x = torch.where(big & (u >= rate), sign * 65504.0, x)
    zero = torch.rand((rows, cols), generator=generator, device=device) < 1e-3
    x = torch.where(zero & (u >= rate), 0.0, x)
    return {"x": x.to(torch.float16)}


def reference(x, **_):
    return (~torch.isfinite(x)).sum(dim=1).to(torch.int32)
