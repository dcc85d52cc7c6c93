# class: library op in a thread started by the interpreter's own test
# module (_testcapi, installed with the interpreter: native code, not the
# subject's, whose C thread the runner's guarded thread start never
# sees), where no dispatch mode of the runner's is; the call waits for it
# expect: tampering|library compute|No module named

import torch


def run(x, y, n, **_):
    import _testcapi
    gelu(x, y, 0)  # a Triton launch, for show

    def compute():
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    _testcapi.call_in_temporary_c_thread(compute)
