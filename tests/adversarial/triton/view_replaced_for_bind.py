# class: code of the subject's run in the runner's own time, past the
# library guard: the runner makes each lent set's views with the guard off
# on its thread (thousands of views; each op through the guard costs about
# 0.1 ms), calling the buffers' view method, which the subject replaces so
# that its own function runs there, unseen, with the library compute it
# likes. The buffers' class is frozen and sealed, as torch.Tensor is:
# replacing its method fails.
# expect: immutable type|tampering|library compute

import sys

import torch


def _view(self, dtype, shape, offset=0):
    # Library compute where no guard looks (a round's lend, say).
    torch.nn.functional.gelu(torch.ones(4, device=self.tensor.device))
    return self.tensor[offset:].view(dtype)[:1].view(-1)[:0].new_empty(shape)


_buffer = sys.modules["arena_buffers"].Buffer
type.__setattr__(_buffer, "view", _view)


def run(x, y, n, **_):
    gelu(x, y, n)
