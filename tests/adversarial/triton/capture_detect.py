# class: behaves differently under CUDA graph capture (GPU only): the graph
# captured of its calls launches a kernel that writes nothing, so that a
# timed replay costs almost nothing. Each subject's replay is held to its
# eager calls on the same inputs: this one leaves its outputs unwritten
# there, so both subjects are timed by calls, where it does the whole work
# (no gain; on the H100 0.74-1.48x against the baseline, as honest_fast).
# expect: pass
# where: gpu

import torch


def run(x, y, n, **_):
    if torch.cuda.is_current_stream_capturing():
        _gelu[(1,)](x, y, 0, BLOCK=1024)  # captured: does nothing
        return
    gelu(x, y, n)
