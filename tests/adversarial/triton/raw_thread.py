# class: library op in a thread started by the interpreter's own start
# function, taken from the runner's guarded one (its closure or its
# default arguments), where no dispatch mode of the runner's is. Reading
# the wrapper's defaults is refused; below Python, the launch observer
# (CUPTI) sees the thread's kernels, which are not the subject's.
# expect: tampering|library compute

import _thread

import torch


def run(x, y, n, **_):
    gelu(x, y, 0)  # a Triton launch, for show
    done = _thread.allocate_lock()
    done.acquire()

    def compute():
        try:
            y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
        finally:
            done.release()
    original_of(_thread.start_new_thread, "start_new_thread")(compute, ())
    done.acquire()
