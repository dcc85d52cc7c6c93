import math

import torch


def reference(q, k, v, batch, heads, q_len, k_len, head_dim, **_):
    scale = 1.0 / math.sqrt(head_dim)
    bh = batch * heads
    qf = q.reshape(bh, q_len, head_dim)
    kf = k.reshape(bh, k_len, head_dim)
    vf = v.reshape(bh, k_len, head_dim)
    out = torch.empty_like(qf)
    # Score matrices are [q_len, k_len] per head: bound the memory of one chunk.
    chunk = max(1, (1 << 27) // (q_len * k_len))
    for i in range(0, bh, chunk):
        s = torch.matmul(qf[i:i + chunk], kf[i:i + chunk].transpose(1, 2)) * scale
        out[i:i + chunk] = torch.matmul(torch.softmax(s, dim=-1), vf[i:i + chunk])
        del s
    return out.reshape(batch, heads, q_len, head_dim)
