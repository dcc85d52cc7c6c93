# class: kernels a library generates (torch.compile: Inductor writes
# Triton kernels on a GPU, C++ on the CPU) rather than the subject's own:
# the gelu compiled from torch's ops, its outputs copied out
# expect: tampering|library compute

import torch

_compiled = []


def run(x, y, n, **_):
    gelu(x, y, 0)  # a Triton launch, for show
    if not _compiled:
        import torch._inductor.config as config
        config.compile_threads = 1  # in this process: no compile workers
        _compiled.append(torch.compile(
            lambda a, out: out.copy_(torch.nn.functional.gelu(a.float(), approximate="tanh").half())))
    _compiled[0](x[:n], y[:n])
