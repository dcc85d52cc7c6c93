# class: the launch observer's own switch, reached through the runner's
# frame and called (a ctypes function: no audited event), set to "the
# runner's own work" while torch computes the outputs, and back; the
# runner's flag down meanwhile, so that its guard takes the ops for the
# runner's. The observer keeps every launch with when it came, and the
# runner launches no such kernel in its own work; the guard knows where
# it runs.
# expect: tampering|library compute

import torch


def run(x, y, n, **_):
    gelu(x, y, n)  # a Triton launch, for show
    observer = runner_local("observer")
    state = runner_local("state")
    switch = getattr(observer, "_watch", None)
    state["candidate"] = False
    if switch is not None:
        switch(0)
    try:
        y.copy_(torch.nn.functional.gelu(x.float(), approximate="tanh").half())
    finally:
        if switch is not None:
            switch(1)
        state["candidate"] = True
