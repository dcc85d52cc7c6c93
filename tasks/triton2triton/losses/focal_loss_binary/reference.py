import torch


def reference(logits, targets, gamma, alpha, **_):
    t = targets.to(logits.dtype)
    p = torch.sigmoid(logits)
    ce = torch.nn.functional.binary_cross_entropy_with_logits(logits, t, reduction="none")
    p_t = p * t + (1 - p) * (1 - t)
    alpha_t = alpha * t + (1 - alpha) * (1 - t)
    return alpha_t * ce * (1 - p_t) ** gamma
