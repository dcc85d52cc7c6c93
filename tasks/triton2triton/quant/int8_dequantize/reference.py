import torch


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    q = torch.randint(-127, 128, (rows, cols), generator=generator, device=device,
                      dtype=torch.int8)
    # Positive per-row scales spanning two orders of magnitude.
    u = torch.rand(rows, generator=generator, device=device, dtype=torch.float32)
    scale = (1.0e-3 * torch.pow(100.0, u)).to(torch.float32)
    return {"q": q, "scale": scale}


def reference(q, scale, rows, cols, **_):
    # q is int8 (unchanged), scale arrives as float64.
    return q.to(torch.float64) * scale[:, None]
