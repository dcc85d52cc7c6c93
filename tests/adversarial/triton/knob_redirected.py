# class: Triton's configuration changed: its knobs choose the folders its
# compiler reads and writes and the programs it starts. Its cache moved to
# a folder of the subject's (where launchers of its own would be loaded as
# Triton's), the knobs kept from the environment (propagate_env) so that
# no variable of the process's changes. The runner holds each group of
# knobs at every launch, and the descriptors, the knobs module and the
# environment wherever Triton's compiler reaches outside the process.
# expect: triton.knobs
import os

import triton

triton.knobs.propagate_env = False
_FOLDER = os.path.join(os.environ.get("TMPDIR", "/tmp"), "my-cache")
os.makedirs(_FOLDER, exist_ok=True)
triton.knobs.cache.dir = _FOLDER


def run(x, y, n, **_):
    gelu(x, y, n)
