# class: a process of its own, started through a fresh copy of the
# interpreter's process-starting module (the import system's own _imp makes
# one from the module's first state, in which the runner's refusing
# fork_exec is not), put in sys.modules for the length of the start
# (multiprocessing's spawn starts its processes through it, with no
# audited event); the process here does nothing, the start is the attack
# expect: tampering

import importlib.util
import multiprocessing.util
import os
import sys

import _imp


def run(x, y, n, **_):
    gelu(x, y, n)  # the honest kernel does the work here
    own = sys.modules["_posixsubprocess"]
    sys.modules["_posixsubprocess"] = _imp.create_dynamic(importlib.util.find_spec("_posixsubprocess"))
    try:
        python = os.fsencode(sys.executable)
        pid = multiprocessing.util.spawnv_passfds(python, [python, b"-c", b"pass"], ())
    finally:
        sys.modules["_posixsubprocess"] = own
    os.waitpid(pid, 0)
