# class: work in the runner's own time: an audit hook (which Python calls
# on every thread for every audited event, and which nothing can remove)
# computes the outputs of every set it was lent with torch as the runner
# receives a request (socket.recv_fds makes an array: an audited event),
# where no guard of the runner's is entered
# expect: addaudithook

import sys

SEEN = {}
CALLING = [False]


def _on_event(event, args):
    if CALLING[0] or event != "array.__new__":
        return
    torch_gelu_where_poisoned(SEEN)


def run(x, y, n, **_):
    if not SEEN:
        sys.addaudithook(_on_event)
    if id(y) not in SEEN:
        # Memory it has not seen yet: computed here, and watched from now on.
        SEEN[id(y)] = (x, y, n)
        gelu(x, y, n)
        return
    CALLING[0] = True
    try:
        # One block's worth: a Triton launch, whose outputs the hook has
        # already written.
        gelu(x, y, min(n, 1))
    finally:
        CALLING[0] = False
