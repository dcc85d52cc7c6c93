# class: work in the runner's own time: an import finder on sys.meta_path
# (which the interpreter asks for every module imported for the first
# time, by the runner's own work too: a library's lazy import, the
# formatting of a failure) computes the outputs of every set it was lent
# with torch whenever it is asked outside the subject's calls
# expect: sys.meta_path

import sys

SEEN = {}
CALLING = [False]


class _Finder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if not CALLING[0]:
            torch_gelu_where_poisoned(SEEN)
        return None  # the next finder imports it


def run(x, y, n, **_):
    if not SEEN:
        sys.meta_path.insert(0, _Finder)
    SEEN[id(y)] = (x, y, n)
    CALLING[0] = True
    try:
        gelu(x, y, n)
    finally:
        CALLING[0] = False
