# class: honest control (Triton's autotuner picks the block size: it times
# the kernel's configurations itself, clearing the L2 between runs)
# expect: pass
# where: gpu

_gelu_tuned = triton.autotune(configs=[triton.Config({"BLOCK": 512}), triton.Config({"BLOCK": 2048})],
                              key=["n"])(_gelu)


def run(x, y, n, **_):
    _gelu_tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
