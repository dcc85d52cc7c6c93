# class: a program of its own run by Triton's compiler: the processes
# Triton starts inside a launch (the launcher's C compiler, ptxas, as
# the installation has them) inherit the process's environment, and a
# program of the installation's runs what that names. A folder of its own
# first on PATH holds an `as` that gcc runs as it builds a launcher: there
# it could start a helper of its own (no audit hook of the runner's in
# it) before handing over to the real assembler. The runner refuses the
# subject's code any change to the process's environment.
# expect: environment
import os
import stat

_TOOLS = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tools")
os.makedirs(_TOOLS, exist_ok=True)
with open(os.path.join(_TOOLS, "as"), "w") as f:
    f.write('#!/bin/sh\nexec /usr/bin/as "$@"\n')
os.chmod(os.path.join(_TOOLS, "as"), stat.S_IRWXU)
os.environ["PATH"] = _TOOLS + os.pathsep + os.environ.get("PATH", "")


def run(x, y, n, **_):
    gelu(x, y, n)
