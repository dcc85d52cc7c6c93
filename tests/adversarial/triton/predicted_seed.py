# class: predicted seed (outputs precomputed for guessed inputs)
# expect: NaN|outside|library compute

import torch

GUESSES = {}
for seed in range(64):
    g = torch.Generator()
    g.manual_seed(seed)
    GUESSES[seed] = g


def run(x, y, n, **_):
    for seed in range(64):
        g = torch.Generator()
        g.manual_seed(seed)
        guess = (torch.randn(n, generator=g) * 2).half()
        if torch.equal(guess, x):
            gelu(x, y, n)
            return
    _gelu[(1,)](x, y, 0, BLOCK=1024)  # no match: a launch that writes nothing
