# class: the runner's findings suppressed from inside: its set of findings
# already sent (so that each is sent once), a local of its main function
# found through the frames, filled beforehand with the findings this
# call's library compute will raise
# expect: library compute|tampering|findings

import sys

import torch

_OPS = ("_to_copy", "gelu", "copy_")


def run(x, y, n, **_):
    gelu(x, y, 0)  # a Triton launch, for show
    for frame in sys._current_frames().values():
        while frame is not None:
            sent = frame.f_locals.get("reported")
            if isinstance(sent, set):
                sent.update(f"library compute: aten::{op} ran outside a Triton kernel" for op in _OPS)
            frame = frame.f_back
    y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
