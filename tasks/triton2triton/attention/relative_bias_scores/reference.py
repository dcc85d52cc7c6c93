import torch


def reference(scores, bias_table, batch, heads, q_len, k_len, max_dist, **_):
    i = torch.arange(q_len, device=scores.device)[:, None]
    j = torch.arange(k_len, device=scores.device)[None, :]
    idx = torch.clamp(j - i + max_dist, 0, 2 * max_dist)
    bias = bias_table[:, idx]  # [heads, q_len, k_len]
    s = scores.reshape(batch, heads, q_len, k_len) + bias[None]
    return s.reshape(batch * heads, q_len, k_len)
