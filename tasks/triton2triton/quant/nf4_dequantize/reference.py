import torch

QUANT_BLOCK = 64


def _nf4_table(device):
    # The 16 NormalFloat levels: quantiles of a standard normal, 8 on the
    # positive side and 7 on the negative side plus an exact zero, scaled so
    # that the extremes are -1 and 1.
    edge = 0.9677083
    pos = torch.special.ndtri(torch.linspace(edge, 0.5, 9, dtype=torch.float64)[:-1])
    neg = -torch.special.ndtri(torch.linspace(edge, 0.5, 8, dtype=torch.float64)[:-1])
    levels = torch.cat([neg, torch.zeros(1, dtype=torch.float64), pos]).sort().values
    levels = levels / levels.abs().max()
    return levels.to(device=device, dtype=torch.float32)


def make_inputs(params, generator, device):
    rows, cols = int(params["rows"]), int(params["cols"])
    blocks = (rows * cols + QUANT_BLOCK - 1) // QUANT_BLOCK
    packed = torch.randint(0, 256, (rows, cols // 2), generator=generator, device=device)
    absmax = torch.rand((blocks,), generator=generator, device=device) * 0.19 + 0.01
    return {"packed": packed.to(torch.uint8), "absmax": absmax, "code": _nf4_table(device)}


def reference(packed, absmax, code, rows, cols, **_):
    # packed is uint8 (unchanged); absmax and code arrive as float64.
    p = packed.to(torch.int64)
    idx = torch.stack(((p >> 4) & 0xF, p & 0xF), dim=-1).reshape(-1)
    values = code[idx]
    scale = absmax.repeat_interleave(QUANT_BLOCK)[: rows * cols]
    return (values * scale).reshape(rows, cols)
