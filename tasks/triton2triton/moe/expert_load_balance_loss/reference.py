import torch


def make_inputs(params, generator, device):
    tokens, experts, k = int(params["tokens"]), int(params["experts"]), int(params["k"])
    # Router probabilities of a somewhat unbalanced router: a per-expert bias
    # makes some experts popular.
    bias = torch.randn((1, experts), generator=generator, device=device)
    logits = torch.randn((tokens, experts), generator=generator, device=device) * 1.5 + bias
    probs = torch.softmax(logits, dim=1)
    ids = torch.topk(probs, k, dim=1).indices
    return {"probs": probs.to(torch.float32), "topk_ids": ids.to(torch.int32)}


def reference(probs, topk_ids, tokens, experts, k, **_):
    counts = torch.bincount(topk_ids.reshape(-1).to(torch.int64), minlength=experts)
    frac = counts.to(probs.dtype) / (tokens * k)
    mean_p = probs.mean(dim=0)
    return (experts * (frac * mean_p).sum()).reshape(1)
