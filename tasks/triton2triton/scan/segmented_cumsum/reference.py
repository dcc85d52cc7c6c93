import math

import torch


def make_inputs(params, generator, device):
    n, segments = int(params["n"]), int(params["segments"])
    # Segment boundaries: sorted uniform cut points give uneven (roughly
    # geometric) lengths; about 3% of the segments are then forced empty.
    cuts = torch.randint(0, n + 1, (segments + 1,), generator=generator, device=device,
                         dtype=torch.int64)
    cuts[0], cuts[-1] = 0, n
    cuts = torch.sort(cuts).values
    empty = torch.rand(segments + 1, generator=generator, device=device) < 0.03
    empty[0] = False
    empty[-1] = False
    prev = torch.cat([cuts[:1], cuts[:-1]])
    offsets = torch.where(empty, prev, cuts).to(torch.int32)
    # Variance 1 / (mean segment length): the running sums stay of order 1.
    a = math.sqrt(3.0 / max(n / segments, 1.0))
    x = (torch.rand(n, generator=generator, device=device) * 2.0 - 1.0) * a
    return {"x": x, "offsets": offsets}


def reference(x, offsets, n, segments, **_):
    off = offsets.to(torch.int64)
    lengths = off[1:] - off[:-1]
    seg_id = torch.repeat_interleave(torch.arange(int(segments), device=x.device), lengths,
                                     output_size=int(n))
    total = torch.cumsum(x, dim=0)
    before = torch.cat([total.new_zeros(1), total])[off[:-1]]
    return total - before[seg_id]
