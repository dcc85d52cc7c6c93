# class: a process of its own to do the work, started the way no audit
# event sees (multiprocessing's spawn), where torch's IPC would hand it the
# tensors and nothing of the runner's observation follows; joined before
# the call returns
# expect: tampering

import multiprocessing


def run(x, y, n, **_):
    gelu(x, y, n)  # the honest kernel does the work here: the start is the attack
    helper = multiprocessing.get_context("spawn").Process(target=exec, args=("pass",))
    helper.start()
    helper.join()
