import torch

# Each row draws half of its previous ids from a pool of POOL ids, so the
# same id often appears several times.
POOL = 16


def make_inputs(params, generator, device):
    rows, vocab, n_prev = int(params["rows"]), int(params["vocab"]), int(params["n_prev"])
    x = torch.randn((rows, vocab), generator=generator, device=device) * 2.0
    pool = torch.randint(0, vocab, (rows, POOL), generator=generator, device=device)
    pick = torch.randint(0, POOL, (rows, n_prev), generator=generator, device=device)
    uniform = torch.randint(0, vocab, (rows, n_prev), generator=generator, device=device)
    rep = torch.rand((rows, n_prev), generator=generator, device=device) < 0.5
    ids = torch.where(rep, pool.gather(1, pick), uniform)
    return {"logits": x, "prev_ids": ids.to(torch.int32)}


def reference(logits, prev_ids, rows, vocab, n_prev, freq_penalty, presence_penalty, **_):
    counts = torch.zeros((rows, vocab), dtype=logits.dtype, device=logits.device)
    counts.scatter_add_(1, prev_ids.to(torch.int64),
                        torch.ones(prev_ids.shape, dtype=logits.dtype, device=logits.device))
    return logits - float(freq_penalty) * counts - float(presence_penalty) * (counts > 0).to(
        logits.dtype)
