import math

import torch


def reference(q, k, v, batch, seq, heads, head_dim, **_):
    scale = 1.0 / math.sqrt(head_dim)
    qf = q.permute(0, 2, 1, 3).reshape(batch * heads, seq, head_dim)
    kf = k.permute(0, 2, 1, 3).reshape(batch * heads, seq, head_dim)
    vf = v.permute(0, 2, 1, 3).reshape(batch * heads, seq, head_dim)
    out = torch.empty_like(qf)
    # Score matrices are [seq, seq] per head: bound the memory of one chunk.
    chunk = max(1, (1 << 27) // (seq * seq))
    for i in range(0, batch * heads, chunk):
        s = torch.matmul(qf[i:i + chunk], kf[i:i + chunk].transpose(1, 2)) * scale
        out[i:i + chunk] = torch.matmul(torch.softmax(s, dim=-1), vf[i:i + chunk])
        del s
    return out.reshape(batch, heads, seq, head_dim).permute(0, 2, 1, 3).contiguous()
