import torch

IGNORE_INDEX = -100


def make_inputs(params, generator, device):
    rows, vocab = int(params["rows"]), int(params["vocab"])
    logits = torch.randn((rows, vocab), generator=generator, device=device) * 4.0
    targets = torch.randint(0, vocab, (rows,), generator=generator, device=device)
    ignored = torch.rand((rows,), generator=generator, device=device) < 0.1
    targets = torch.where(ignored, torch.full_like(targets, IGNORE_INDEX), targets)
    return {"logits": logits.to(torch.float16), "targets": targets.to(torch.int64)}


def reference(logits, targets, smoothing, **_):
    # torch.nn.functional.cross_entropy(..., reduction="none",
    # label_smoothing=smoothing, ignore_index=-100), written out.
    lse = torch.logsumexp(logits, dim=1)
    valid = targets != IGNORE_INDEX
    picked = logits.gather(1, torch.where(valid, targets, 0)[:, None]).squeeze(1)
    smooth = lse - logits.mean(dim=1)
    loss = (1.0 - smoothing) * (lse - picked) + smoothing * smooth
    return torch.where(valid, loss, torch.zeros_like(loss))
