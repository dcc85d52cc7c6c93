import torch


def reference(x, bh, q_len, k_len, scale, **_):
    q_len, k_len = int(q_len), int(k_len)
    hidden = torch.ones(q_len, k_len, dtype=torch.bool, device=x.device).triu(k_len - q_len + 1)
    scores = (x * scale).masked_fill(hidden, float("-inf"))
    return torch.softmax(scores, dim=-1)
