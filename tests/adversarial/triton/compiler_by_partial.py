# class: native code of its own, built and loaded by Triton's own build
# functions called inside a launch with no frame of the subject's on the
# stack: the grid is a chain of Python's own callables (next over a map)
# that calls triton.runtime.build.compile_module_from_src on a C source of
# the subject's, so that the C compiler starts, and the library loads, as
# if Triton's compiler had asked (the same holds for an argument's method,
# a finalizer, a heuristic). No process but Triton's assembler may start
# in the subject's process, and no native module but the launchers the
# runner builds apart may load there, whoever asks.
# expect: tampering
import functools

from triton.runtime import build

_SOURCE = r"""
#include <Python.h>
static struct PyModuleDef own = {PyModuleDef_HEAD_INIT, "arena_own_native", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_arena_own_native(void) { return PyModule_Create(&own); }
"""


def _native_then(blocks):
    """A grid: builds and loads the library (through next over a map: no
    frame of this file's), then the real grid."""
    built = map(build.compile_module_from_src, [_SOURCE], ["arena_own_native"])
    return functools.partial(next, built)  # next(built, meta): meta is the default


def run(x, y, n, **_):
    grid = _native_then(triton.cdiv(n, 1024))
    try:
        _gelu[grid](x, y, n, BLOCK=1024)
    except TypeError:
        pass  # (the grid was the module, not a size)
    gelu(x, y, n)
