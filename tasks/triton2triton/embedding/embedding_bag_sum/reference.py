import torch
import torch.nn.functional as F


def make_inputs(params, generator, device):
    vocab, dim = int(params["vocab"]), int(params["dim"])
    bags, nnz = int(params["bags"]), int(params["nnz"])
    weight = torch.randn((vocab, dim), generator=generator, device=device,
                         dtype=torch.float32)
    indices = torch.randint(0, vocab, (nnz,), generator=generator, device=device,
                            dtype=torch.int64)
    # Bag boundaries: sorted uniform cut points give variable (roughly
    # geometric) bag sizes; about 3% of the bags are then forced empty.
    cuts = torch.randint(0, nnz + 1, (bags + 1,), generator=generator, device=device,
                         dtype=torch.int64)
    cuts[:1].fill_(0)  # fills, not copies from the host: capturable
    cuts[-1:].fill_(nnz)
    cuts = torch.sort(cuts).values
    empty = torch.rand(bags + 1, generator=generator, device=device) < 0.03
    empty[:1].fill_(False)
    empty[-1:].fill_(False)
    prev = torch.cat([cuts[:1], cuts[:-1]])
    offsets = torch.where(empty, prev, cuts)
    return {"weight": weight, "indices": indices, "offsets": offsets}


def reference(weight, indices, offsets, vocab, dim, bags, nnz, **_):
    # weight arrives as float64; empty bags sum to zero.
    return F.embedding_bag(indices, weight, offsets, mode="sum", include_last_offset=True)
