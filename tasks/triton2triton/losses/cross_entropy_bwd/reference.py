import torch

IGNORE_INDEX = -100


def make_inputs(params, generator, device):
    rows, vocab = int(params["rows"]), int(params["vocab"])
    logits = torch.randn((rows, vocab), generator=generator, device=device) * 4.0
    targets = torch.randint(0, vocab, (rows,), generator=generator, device=device)
    ignored = torch.rand((rows,), generator=generator, device=device) < 0.1
    targets = torch.where(ignored, torch.full_like(targets, IGNORE_INDEX), targets)
    dloss = torch.rand((rows,), generator=generator, device=device) * 0.9 + 0.1
    return {"logits": logits.to(torch.bfloat16), "targets": targets.to(torch.int64),
            "dloss": dloss.to(torch.float32)}


def reference(logits, targets, dloss, **_):
    grad = torch.softmax(logits, dim=1)
    valid = targets != IGNORE_INDEX
    rows = torch.arange(logits.shape[0], device=logits.device)[valid]
    grad[rows, targets[valid]] -= 1.0
    scale = torch.where(valid, dloss, torch.zeros_like(dloss))
    return grad * scale[:, None]
