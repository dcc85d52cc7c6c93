# class: a file of Triton's reached through a descriptor's link: a thread
# of the subject's opens /proc/self/fd/N for every N while Triton's
# compiler has its files open (the launcher's source before gcc reads it,
# a cached library before Triton loads it), where the number names the
# file Triton opened at the moment of the open, not the one looked at
# before. Here it only reads the links of the runner's own descriptors.
# The subject's code opens no descriptor's link under /proc or /dev.
# expect: descriptor's link
import os


def _look():
    for name in sorted(os.listdir("/proc/self/fd")):
        try:
            with open(f"/proc/self/fd/{name}", "rb") as f:
                f.read(1)
        except OSError:
            pass


_look()


def run(x, y, n, **_):
    gelu(x, y, n)
