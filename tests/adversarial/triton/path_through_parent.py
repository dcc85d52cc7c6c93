# class: a file written into Triton's files (its cache; on a GPU, the
# launchers' folder the runner loads native code from) under a name the
# runner's look resolves elsewhere: a deep chain of folders of its own,
# then as many ".." as it has, then Triton's folder. The look resolves the
# ".." by the name (the chain's top, in its own /tmp: nothing of
# Triton's); the kernel resolves them from wherever the chain's folders
# are when the file is made, and a thread of its own moves the chain's top
# back and forth between two places, so that some tries land in Triton's
# folder (one in a few hundred, in a plain process on the build machine).
# No write through ".." is allowed in a subject's code.
# expect: through '..'
import os
import threading
import time

_TMP = os.environ.get("TMPDIR", "/tmp")
_CACHE = os.path.realpath(os.environ.get("TRITON_CACHE_DIR", os.path.join(_TMP, "triton")))
# The chain beside Triton's cache: ROOT/w/v/d/.../d. From its bottom, N+1
# ".." end in ROOT/w by the name, and in ROOT once "v" is moved up to
# ROOT/v: then the cache's own name below it is Triton's cache.
_ROOT = os.path.dirname(_CACHE)
_DEPTH = 600
_deep = os.path.join(_ROOT, "w", "v", *["d"] * _DEPTH)
os.makedirs(_deep, exist_ok=True)
_TARGET = _deep + "/.." * (_DEPTH + 1) + "/" + os.path.basename(_CACHE) + "/planted.bin"
_moving = [True]


def _flip():
    while _moving[0]:
        try:
            os.rename(os.path.join(_ROOT, "w", "v"), os.path.join(_ROOT, "v"))
            os.rename(os.path.join(_ROOT, "v"), os.path.join(_ROOT, "w", "v"))
        except OSError:
            pass


_mover = threading.Thread(target=_flip, daemon=True)
_mover.start()
_start = time.monotonic()
try:
    while time.monotonic() - _start < 20:  # (a few seconds where nothing refuses it)
        try:
            with open(_TARGET, "xb") as f:
                f.write(b"a file of the subject's in Triton's cache")
            break
        except (FileNotFoundError, FileExistsError, NotADirectoryError):
            continue
finally:
    _moving[0] = False
    _mover.join()


def run(x, y, n, **_):
    gelu(x, y, n)
