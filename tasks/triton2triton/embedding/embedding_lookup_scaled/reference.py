import math

import torch


def reference(weight, ids, vocab, dim, batch, seq, **_):
    return weight[ids.to(torch.int64)] * math.sqrt(dim)
