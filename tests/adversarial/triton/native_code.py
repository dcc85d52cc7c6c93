# class: native code of its own (an extension module loaded from outside
# the Python installation: one it built, or bytes it carried; here a copy
# of a real one), which runs below every Python observation
# expect: tampering

import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile


def _an_extension():
    """A loaded extension module that is a file (some Pythons build _socket
    and others in), and its name."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = sorted((name.count("."), name, module.__file__) for name, module in list(sys.modules.items())
                   if (getattr(module, "__file__", None) or "").endswith(suffixes))
    if found:  # a top-level one if there is one
        return found[0][1], found[0][2]
    raise RuntimeError("no extension module file to copy")


def _load_own():
    name, path = _an_extension()
    folder = tempfile.mkdtemp()
    copy = os.path.join(folder, os.path.basename(path))
    shutil.copy(path, copy)
    spec = importlib.util.spec_from_file_location(name, copy)
    return importlib.util.module_from_spec(spec)  # loads it


def run(x, y, n, **_):
    gelu(x, y, n)  # the honest kernel does the work here: the loading is the attack
    _load_own()
