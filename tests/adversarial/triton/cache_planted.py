# class: native code of its own, loaded by Triton: a file planted in
# Triton's cache (its private /tmp holds it, writable) under the name of
# the launcher module Triton builds for a kernel's signature (the name is
# the hash of the launcher's C source, which Triton's own code gives), so
# that Triton, compiling its kernel, finds the launcher cached and loads
# the subject's library instead of building one (here the file holds no
# library: the class is the write). The subject's code may not open,
# rename or link Triton's files: its cache and what its compiler writes.
# expect: Triton's own files
import os

_CACHE = os.environ.get("TRITON_CACHE_DIR", "/tmp/triton")
_KEY = "0" * 64  # the hash of a launcher's source and Triton's options
os.makedirs(os.path.join(_CACHE, _KEY), exist_ok=True)
with open(os.path.join(_CACHE, _KEY, "__triton_launcher.cpython-311-x86_64-linux-gnu.so"), "wb") as f:
    f.write(b"\x7fELF (a library of the subject's)")


def run(x, y, n, **_):
    gelu(x, y, n)
