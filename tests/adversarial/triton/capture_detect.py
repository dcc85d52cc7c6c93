# class: behaves differently under CUDA graph capture (GPU only)
# expect: outputs are wrong|library compute|NaN
# where: gpu

import torch


def run(x, y, n, **_):
    if torch.cuda.is_current_stream_capturing():
        _gelu[(1,)](x, y, 0, BLOCK=1024)  # captured: does nothing
        return
    gelu(x, y, n)
