import torch


def make_inputs(params, generator, device):
    tokens, vocab, dim = int(params["tokens"]), int(params["vocab"]), int(params["dim"])
    grad_out = torch.randn((tokens, dim), generator=generator, device=device,
                           dtype=torch.float32)
    # Skewed ids, as in text: rank floor(vocab * u^2) is hit with probability
    # falling like 1 / sqrt(rank), so the hottest id takes about 1 / sqrt(vocab)
    # of all tokens while most ids appear rarely or never. A random
    # permutation spreads the hot ids over the table.
    u = torch.rand(tokens, generator=generator, device=device, dtype=torch.float64)
    rank = torch.clamp((u * u * vocab).to(torch.int64), max=vocab - 1)
    perm = torch.randperm(vocab, generator=generator, device=device)
    return {"grad_out": grad_out, "ids": perm[rank]}


def reference(grad_out, ids, tokens, vocab, dim, **_):
    grad_weight = torch.zeros((vocab, dim), dtype=grad_out.dtype, device=grad_out.device)
    return grad_weight.index_add_(0, ids, grad_out)
