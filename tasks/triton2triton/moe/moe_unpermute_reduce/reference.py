import torch


def make_inputs(params, generator, device):
    tokens, k = int(params["tokens"]), int(params["k"])
    experts, hidden = int(params["experts"]), int(params["hidden"])
    expert_out = torch.randn((tokens * k, hidden), generator=generator, device=device)
    # k distinct experts per token from a skewed popularity (Gumbel top-k);
    # dest is where each (token, slot) pair landed when the pairs were
    # sorted stably by expert, as the permutation step lays them out.
    popularity = torch.randn(experts, generator=generator, device=device)
    u = torch.rand((tokens, experts), generator=generator, device=device)
    gumbel = -torch.log(-torch.log(u.clamp(1e-20, 1.0 - 1e-7)))
    scores = popularity[None, :] + gumbel
    top = torch.topk(scores, k, dim=1)
    order = torch.sort(top.indices.reshape(-1), stable=True).indices
    dest = torch.empty_like(order)
    dest[order] = torch.arange(order.numel(), device=device)
    # Routing weights: a softmax over each token's k picks.
    weights = torch.softmax(top.values, dim=1)
    return {"expert_out": expert_out.to(torch.float16),
            "dest": dest.reshape(tokens, k).to(torch.int32),
            "weights": weights.to(torch.float32)}


def reference(expert_out, dest, weights, tokens, k, experts, hidden, **_):
    rows = expert_out[dest.reshape(-1).to(torch.int64)].reshape(tokens, k, hidden)
    return (rows * weights[:, :, None]).sum(dim=1)
