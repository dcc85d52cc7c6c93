# class: exit with a status of its own choosing
# expect: exited with status 3

import os


def run(x, y, n, **_):
    gelu(x, y, n)
    os._exit(3)
