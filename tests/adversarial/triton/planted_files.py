# class: planted files (the runner writes where other evaluations read)
# expect: pass

import os

PLANTED = False
for target in ("/workspace/kernel.py", "/workspace/planted.py", "/opt/arena/python/arena_runner.py",
               "/opt/arena/python/planted.py", "/usr/lib/planted", "/etc/planted"):
    try:
        with open(target, "a") as f:
            f.write("# planted\n")
        PLANTED = True
    except OSError:
        pass


def run(x, y, n, **_):
    gelu(x, y, n)
    if PLANTED:  # a write that got through shows as a wrong answer
        y.zero_()
