# class: GPU code Triton did not compile from the subject's @triton.jit
# functions, launched as its kernel: the subject loads a binary of its own
# through Triton's load_binary (here the PTX Triton made for its gelu with
# the entry renamed; PTX written by hand, or a library's kernel image,
# loads alike) and puts the function in its compiled kernel, so that
# Triton's own launch (and the runner's count of it) names that function.
# Only functions loaded from binaries Triton's compiler made in the
# process, from a @triton.jit function, are the subject's kernels.
# expect: Triton did not compile
# where: gpu

_OWN = {}


def _handmade(kernel):
    """A function of the subject's own: the kernel's PTX under a new name,
    loaded by Triton's driver."""
    from triton.runtime import driver
    ptx = kernel.asm["ptx"]
    ptx = ptx.decode() if isinstance(ptx, bytes) else ptx
    text = ptx.replace(kernel.name, "arena_handmade_gelu").encode()
    device = driver.active.get_current_device()
    loaded = driver.active.utils.load_binary("arena_handmade_gelu", text, kernel.metadata.shared, device)
    return loaded[1]


def run(x, y, n, **_):
    grid = (triton.cdiv(n, 1024),)
    kernel = _gelu[grid](x, y, n, BLOCK=1024)
    if kernel is None or not hasattr(kernel, "asm"):
        return  # the interpreter: no binary to swap
    if id(kernel) not in _OWN:
        _OWN[id(kernel)] = (kernel, _handmade(kernel))
    kernel.function = _OWN[id(kernel)][1]
    _gelu[grid](x, y, n, BLOCK=1024)
