"""The runner: the only process where a subject's Python code runs.

It is started by the judge inside the sandbox (bubblewrap: its own files
read-only at /workspace, a private /tmp, no network, its own PID namespace)
and holds nothing worth stealing: no seed, no reference, no tolerance, no
comparison, no timer. It maps the memory the judge lends it, calls the
subject's entry on it when told, and answers "done" or the error. The judge
reads the outputs from its own memory and times the runner from outside, so
nothing this process says is a verdict; the one thing it may add are
findings against the code it ran (an op from a library rather than a Triton
kernel, an introspection attempt), sent at once and never taken back.

Protocol: one JSON line per request on fd 0 (a unix socket; buffers' file
descriptors ride along), one JSON line per reply on the same socket:
  {"op": "load", "entry": "kernel.py:run"}
  {"op": "bind", "first_id": K, "buffers": [desc, ...], "nfds": F,
   "sets": [{name: {"buffer": i, "offset": bytes, "dtype", "shape"}}, ...]}
                                             (sets K, K+1, ...)
  {"op": "unbind", "ids": [K, ...]}          (what one bind mapped)
  {"op": "call", "sets": [K, ...], "params": {...}}
                                             (of several sets: each call witnessed
                                             with a chance of 0.25 over their number,
                                             call_sets)
  {"op": "resume"}                           (only after a {"pause": I} line: the
                                             judge took the witness of call I)
  {"op": "capture", "sets": [K, ...], "params": {...}, "marker": M}
                                             (a CUDA graph per call, chained: set M's
                                             "marker", an int32, marks a first part's end)
  {"op": "replay", "split": J}               (the captured calls, once: the J-th of the
                                             runner's splits; between its parts a
                                             {"split": I} line, I the first part's last
                                             call, and the judge's {"op": "go"})
  {"op": "empty"}
A runner started with --await-go (before its task was known) first reads
  {"op": "go", "args": [...]}               (no reply: the arguments join its
                                             command line; only then does it make
                                             its GPU context)
Replies: {"ok": true, ...} or {"ok": false, "error": "...", "log": "..."};
findings: {"finding": "..."} lines, at any moment; {"pause": I} in a call
whose call I (0-based) is witnessed (the judge answers "resume");
{"split": I} in a replay (the judge answers "go").
  {"op": "observer"}                         (before load: what observes launches)
On a GPU, "observer"'s reply says what observes the launches ("cupti", or
why nothing does); load then brings the judge's key for the observer's
reports (one descriptor, "key_fds": 1), which the runner hands to it
unread, and the reply of every request that ran the subject's code
carries what the launch observer saw ("observed": its report, signed, and
the handles of the Triton kernels the subject launched), for the judge to
check and compare.

Public API: main() (the process above, run as a script), await_go(sock), import_file(path,
name, execute), warm_up_triton(torch) and seed_cache(seed, cache).
Importing it sends prints to stderr.
"""

import _imp
import _posixsubprocess
import _thread
import builtins
import functools
import gc
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import struct
import sys
import threading
import time
import traceback
import types
import warnings

_STARTED = time.perf_counter()  # (the runner's start-up, reported with "load")

# The launcher builder (LauncherBuilder: --launcher-builder, outside the
# sandbox, beside a runner) runs this file too. It needs Triton alone and
# imports no torch: every evaluation starts one beside each runner, and a
# runner's first launch waits for its builder.
# Its launchers' folder, or None in a runner.
_LAUNCHER_BUILDER = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--launcher-builder=")),
                         None) if __name__ == "__main__" else None

if _LAUNCHER_BUILDER is None:
    # Replies travel on the socket only; the subject's prints go to the log.
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    import torch  # noqa: E402
    from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from arena_buffers import Buffer, GraphChain, MappedBuffer, pin_descriptor, raise_open_files_limit  # noqa: E402

    # (Read-only: bind reads it past the library guard.)
    _DTYPES = types.MappingProxyType({name: getattr(torch, name) for name in (
        "float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64",
        "bool", "float8_e4m3fn", "float8_e5m2") if hasattr(torch, name)})

# Aten ops that do no arithmetic on data: allocation, views, metadata.
_FREE_OPS = frozenset({
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "view",
    "_unsafe_view", "reshape", "as_strided", "t", "transpose", "permute", "expand",
    "unsqueeze", "squeeze", "slice", "select", "split", "split_with_sizes", "unbind",
    "detach", "alias", "lift_fresh", "view_as", "unflatten", "flatten", "narrow",
    "_reshape_alias", "is_same_size", "sym_size", "sym_stride", "sym_numel",
    "sym_storage_offset", "is_contiguous", "dim", "size", "stride", "numel",
    "record_stream", "set_", "resolve_conj", "resolve_neg", "_local_scalar_dense",
})
# Inside an interpreted launch the Triton interpreter itself copies arguments.
_INTERPRETER_OPS = frozenset({"copy_", "_to_copy", "set_", "new_empty", "empty"})
# torch's own ways past a dispatch mode (the runner's library guard is
# one): popping or unsetting modes, disabling torch dispatch, excluding
# dispatch keys (the Python key is where modes run). Calls, not patches:
# refused while the subject's code runs.
_GUARD_BYPASSES = (
    "_pop_torch_dispatch_stack", "_unset_dispatch_mode", "_set_dispatch_mode", "_DisableTorchDispatch",
    "_ExcludeDispatchKeyGuard", "ExcludeDispatchKeyGuard", "_SetExcludeDispatchKeyGuard",
    "_ForceDispatchKeyGuard", "_dispatch_tls_set_dispatch_key_excluded",
    "_dispatch_tls_set_dispatch_key_included",
)
# Kernels of the subject's own in torch's dispatcher (torch.library): one
# runs below the dispatch key where modes run, and while the guard passes
# an op on to its kernel the guard is off. Refused while the subject's
# code runs: a library of aten's (whose ops the guard lets through, views
# and the ops a task allows) or of every op ("_": fallbacks), made new or
# taken from torch, and the Python dispatcher (kernels in Python at any
# key). Libraries of other namespaces are torch's own lazy registrations
# (imports it makes on the subject's behalf), or the subject's own ops,
# which the guard names as library compute.
_GUARDED_NAMESPACES = ("aten", "_")
_LIBRARY_METHODS = ("def_", "def_legacy", "def_name_t_t", "def_schema_t_t", "define", "fallback",
                    "fallback_fallthrough", "impl", "impl_t_t", "impl_with_aoti_compile",
                    "register_ad_inplace_or_view_fallback", "reset")
# Starting a process: one of the subject's own would compute unobserved
# (tensors handed to it through torch's IPC). Triton's compiler starts
# them (ptxas, the launcher's C compiler), inside a launch.
_PROCESS_EVENTS = ("os.fork", "os.forkpty", "os.posix_spawn", "os.exec", "os.spawn", "os.system",
                   "subprocess.Popen", "pty.spawn")
# Ways to rewrite the runner's or the libraries' code from inside, or to
# have the interpreter call the subject's code wherever it runs (an audit
# hook runs for every audited event, the runner's receiving a request
# among them, and cannot be removed), refused while the subject's code
# runs. (Frames stay readable: typing needs them.)
_DENIED_EVENTS = ("ctypes.", "gc.get_", "sys.settrace", "sys.setprofile", "sys.monitoring",
                  "sys.addaudithook")
# The interpreter's other hooks, which it calls wherever it runs (an
# exception no one can raise, an import the runner's own work makes):
# the runner's, as they are before the subject runs.
_SYS_HOOKS = ("excepthook", "unraisablehook", "breakpointhook", "displayhook")
# The audited events the runner's hook looks at (the others it passes over
# at once: it runs for every one, in every thread).
_FILE_EVENTS = ("open", "os.rename", "os.link", "os.symlink", "os.chdir", "os.remove", "os.rmdir", "os.mkdir",
                "os.chmod", "os.truncate")
_AUDITED_EVENTS = _PROCESS_EVENTS + _FILE_EVENTS + ("import", "object.__setattr__", "object.__delattr__",
                                                    "compile", "code.__new__", "tempfile.mkdtemp",
                                                    "tempfile.mkstemp")
_SYS_HOOK_LISTS = ("meta_path", "path_hooks")
# The interpreter's own test and subinterpreter modules: native helpers
# that start C threads (where no dispatch mode of the runner's is), run
# code in another interpreter (where no audit hook is), or read and write
# memory by address. Not for a subject's code.
_INTERPRETER_INTERNALS = ("_test", "_xx", "xx", "_interp", "_ctypes_test")

# The launch observer (launch_names.cc), beside this file; it and CUPTI are
# refused to the subject's ctypes.
_OBSERVER = "libarena_launches.so"
# What Triton's own code may run on the subject's behalf: fills (its
# autotuner clears the L2 between the configurations it times).
_TRITON_FILLS = ("fill", "zero")
# Requests that run none of the subject's code (what was seen before them
# is told with the next request that runs it).
_RUNNERS_OWN = ("bind", "replay", "empty", "observer")
# A round of eager calls has this many witnessed, on average (call_sets).
_WITNESSES_PER_ROUND = 0.25
# The splits of a captured round's chain every replay picks among (capture).
_SPLITS = 4
# The requests that take the captured calls and hand them back (main's loop).
_GRAPH_OPS = ("capture", "replay", "unbind")
# Requests whose reply says where the runner's time went ("costs").
_COSTED_OPS = ("load", "call", "capture")


def closures_held(objects, _file=__file__):
    """The functions of this file among OBJECTS that hold closure cells, by
    name and the names they close over. Given every object of the process
    (gc.get_objects(), as the runner starts), it names any such function,
    whether or not the subject's code could reach it: none may hold one.
    (A walk from what the subject can reach, the modules and the runner's
    locals, took 0.4 s of a runner's start on a CPU; this takes a fifth.)"""
    return [f"{o.__qualname__} ({', '.join(o.__code__.co_freevars)})" for o in objects
            if type(o) is types.FunctionType and o.__code__.co_filename == _file and o.__closure__]


def freeze_class(cls):
    """Makes CLS immutable, as the interpreter's own classes are: its
    attributes can no longer be set or removed, nor its instances' class
    changed (Py_TPFLAGS_IMMUTABLETYPE, in the type object's flags)."""
    import ctypes
    immutable = 1 << 8
    if cls.__flags__ & immutable:
        return
    # tp_flags follows 21 pointer-sized fields of the type object (every
    # Python since 3.8); what is there must be the flags the class reports.
    flags = ctypes.c_ulong.from_address(id(cls) + 21 * ctypes.sizeof(ctypes.c_void_p))
    if flags.value != cls.__flags__:
        raise RuntimeError(f"cannot freeze {cls.__qualname__}: its type object is not laid out as expected")
    flags.value |= immutable
    if not cls.__flags__ & immutable:
        raise RuntimeError(f"cannot freeze {cls.__qualname__}")


def freeze_classes(classes, package=""):
    """Freezes each of CLASSES and its bases (freeze_class); with PACKAGE
    (a module prefix: "triton."), the bases of that package's alone."""
    for cls in classes:
        for base in cls.__mro__:
            if base.__module__.startswith(package):
                freeze_class(base)


class LaunchObserver:
    """The kernels launched on the GPU, from CUPTI's launch callbacks
    (launch_names.cc), each with what the runner said it was doing: its
    reports, signed, go to the judge, which compares them with the Triton
    kernels the subject launched. Without a GPU, or where CUPTI cannot be
    had, it observes nothing and its description says why."""

    def __init__(self, lib, description):
        self.description = description
        self._buf = None
        self._watch = self._take = self._key = self._allowed = None
        if lib is not None:
            import ctypes
            self._buf = ctypes.create_string_buffer(1 << 20)
            self._watch, self._take, self._key, self._allowed = \
                lib.arena_launches_watch, lib.arena_launches_take, lib.arena_launches_key, \
                lib.arena_launches_allowed

    @classmethod
    def start(cls, path):
        if path is None:
            return cls(None, "none: no GPU")
        if not os.path.isfile(path):
            return cls(None, f"none: {os.path.basename(path)} is not beside the runner")
        import ctypes
        lib = ctypes.CDLL(path)
        lib.arena_launches_error.restype = ctypes.c_char_p
        if lib.arena_launches_start() != 0:
            return cls(None, "none: " + lib.arena_launches_error().decode(errors="replace"))
        lib.arena_launches_watch(cls.BETWEEN)
        return cls(lib, "cupti")

    # What the launches seen now are (launch_names.cc): the runner's own
    # (not kept), the subject's code's, or a thread's between requests.
    RUNNER, SUBJECT, BETWEEN = 0, 1, 2

    def watch(self, mode):
        if self._watch is not None:
            self._watch(mode)

    def allowed(self, on):
        """This thread runs (or no longer runs) an op the task allows: the
        kernels it launches are the op's, not the subject's."""
        if self._allowed is not None:
            self._allowed(1 if on else 0)

    def key(self, fd):
        """Hands the judge's key (in the file FD) to the observer, unread
        here; closes FD."""
        if self._key is not None:
            self._key(fd)  # it closes fd
        else:
            os.close(fd)

    def take(self, state):
        """The observer's signed report of what was launched since the last
        take, the handles of the Triton kernels the subject launched
        meanwhile, and the fills Triton asked for (as the runner saw them)."""
        handles, state["handles"] = sorted(state["handles"]), set()
        fills, state["fills"] = state["fills"], 0
        if self._take is None:
            return None
        n = self._take(self._buf, len(self._buf))
        return {"report": self._buf.raw[:n].decode(errors="replace") if n > 0 else "",
                "handles": [format(h, "x") for h in handles], "fills": fills}


_WARM_UP = """
import triton
import triton.language as tl


@triton.jit
def _arena_warm_up(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)
"""


# The most descriptors one message of the judge's brings (arena_judge sends
# a bind's in batches of this many).
_FDS_PER_MESSAGE = 64
# How long the runner polls its socket for the judge's next word within a
# timed round before it sleeps (main's spin_s).
_SPIN_S = 0.02


def polled(receive, args, until, clock=time.perf_counter, _dontwait=socket.MSG_DONTWAIT,
           BlockingIOError=BlockingIOError):
    """RECEIVE(*ARGS, flags)'s result (a socket's recv or socket.recv_fds):
    polled with MSG_DONTWAIT until CLOCK passes UNTIL, then waited for.
    (No closure: nothing of it is a cell the subject could rewrite.)"""
    while clock() < until:
        try:
            return receive(*args, _dontwait)
        except BlockingIOError:
            pass
    return receive(*args, 0)

# The prefix of the name that locks the native-code guard (native_guard.cc).
_NATIVE_LOCK = "arena-native-lock:"


def lock_native_code():
    """Locks the native-code guard (an rtld-audit module of this process's,
    native_guard.cc) where the judge started the runner with it: from here
    on, no library loads in the process from outside the installation and
    the launchers' folder, whoever loads it (C++ code that calls dlopen
    raises no audit event); one that does ends the process. Called as the
    subject is loaded, after the runner's own loads. True once locked;
    False where the judge asked for no guard; RuntimeError where it asked
    and the guard is not in the process."""
    if not os.environ.get("NATIVE_GUARD_ROOTS"):
        return False
    import ctypes
    try:
        ctypes.CDLL(_NATIVE_LOCK + os.environ.get("LD_AUDIT", ""))
    except OSError as e:
        raise RuntimeError(f"the native-code guard is not active in the runner ({e})") from None
    return True


def import_file(path, name, execute=lambda run: run()):
    """The module in `path`, registered as `name`; `execute` runs its code
    (the subject's under the runner's guard)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    execute(lambda: spec.loader.exec_module(module))
    return module


def warm_up_triton(torch):
    """One launch of a Triton kernel of the runner's own, so that whatever
    Triton and torch load on first use is loaded before the subject runs."""
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "arena_warm_up.py")
    with open(path, "w") as f:
        f.write(_WARM_UP)
    module = import_file(path, "arena_warm_up")
    x = torch.zeros(64, device="cuda")
    module._arena_warm_up[(1,)](x, 64, BLOCK=64)
    torch.cuda.synchronize()


def _mapped_files(open=open, set=set, OSError=OSError):
    """The files the process has mapped now (/proc/self/maps), by the path
    the kernel resolved. (What it calls comes as default arguments: it
    runs while the subject's code runs, which may rebind builtins.)"""
    try:
        with open("/proc/self/maps") as f:
            return {line[line.index("/"):].strip() for line in f if "/" in line}
    except OSError:
        return set()


def seed_cache(seed, cache):
    """Copies into the folder CACHE the files of the folder SEED it lacks.

    A file CACHE already holds is left as it is: this process may have it
    mapped (Triton's launcher library, built by the warm-up, has the same
    name in every cache), and a mapped library rewritten in place kills the
    process that mapped it. Each copy lands whole, under a temporary name
    renamed into place. Links in SEED are not followed."""
    for folder, folders, files in os.walk(seed):
        if folder == seed and _LAUNCHERS in folders:
            folders.remove(_LAUNCHERS)  # (launchers an earlier version kept in a cache: never taken)
        target = os.path.normpath(os.path.join(cache, os.path.relpath(folder, seed)))
        os.makedirs(target, exist_ok=True)
        for name in files:
            source, destination = os.path.join(folder, name), os.path.join(target, name)
            if os.path.islink(source) or os.path.lexists(destination):
                continue
            shutil.copyfile(source, destination + ".seeding")
            os.replace(destination + ".seeding", destination)



# Triton's launchers. A Triton that builds a C module per kernel signature
# (its CUDA driver's CudaLauncher compiles make_launcher's source with the
# C compiler and loads it) would load native code inside a launch, where
# the runner tells Triton's work from the subject's by the frames on the
# stack: a callable of Triton's own handed in by the subject (a grid, an
# argument's method, a finalizer, a functools.partial of Triton's build
# functions) leaves none of the subject's. So no launcher is built or
# loaded in this process by Triton's code: the judge starts, beside each
# runner and outside its sandbox (no code of any subject's ever runs
# there, nor can reach it), a builder (this file, --launcher-builder),
# which makes each from the kernel's signature alone (validated, Triton's
# template, Triton's compiler command) into the machine's launchers'
# folder, which every runner sees read-only; the runner asks it over a
# socket of its own and loads what it names from there (launcher_module
# in main); no other native module and no other compiler may be loaded or
# started by the subject's process once it runs. Only builders write
# that folder: a launcher built once on a machine is not built again.
_LAUNCHER_TYPE = re.compile(r"[A-Za-z0-9_*<>\[\], .]{1,200}")
_LAUNCHER_NAME = "__triton_launcher"
_LAUNCHERS = "arena_launchers"  # where earlier versions kept launchers, in Triton's cache
# A launcher's name in the launchers' folder: the builder's toolchain's
# folder (its digest), then the digest of the launcher's source.
_LAUNCHER_FILE = re.compile(r"[0-9a-f]{16}/[0-9a-f]{64}\.so")
_ModuleSpec = importlib.machinery.ModuleSpec


def launcher_request(signature, tensordesc_meta, _pattern=_LAUNCHER_TYPE, _dumps=json.dumps, dict=dict,
                     len=len, list=list, str=str, tuple=tuple, type=type, bool=bool, int=int, float=float):
    """The request for the launcher of a kernel whose parameters' types are
    SIGNATURE's values (Triton's type names: "*fp32", "i32", "constexpr",
    tuples of them) and whose tensor descriptors TENSORDESC_META describes
    (None, or a list or tuple of dicts of plain values), as bytes; ValueError where
    either is anything else. Python's own types alone, looked at by type
    (reading them runs no code of the subject's), and type names of a
    charset that cannot leave a C token. (It runs again in the builder,
    on what the builder read: the one that counts.)"""
    if type(signature) is not dict or len(signature) > 4096 or \
            (tensordesc_meta is not None and type(tensordesc_meta) is not list and
             type(tensordesc_meta) is not tuple):
        raise ValueError("a kernel signature the arena does not build a launcher for")
    todo = [(value, 0, True) for value in signature.values()] + [(tensordesc_meta, 0, False)]
    seen = 0
    while todo:
        value, depth, kind = todo.pop()
        seen += 1
        if seen > 65536 or depth > 8:
            raise ValueError("a kernel signature the arena does not build a launcher for (too deep or large)")
        if type(value) is str:
            if not _pattern.fullmatch(value):
                raise ValueError(f"a kernel parameter's type the arena does not build a launcher for "
                                 f"({value[:80]!r})")
        elif type(value) is tuple or (not kind and type(value) is list):
            todo += [(item, depth + 1, kind) for item in value]
        elif not kind and type(value) is dict:
            for key, item in value.items():
                if type(key) is not str:
                    raise ValueError("a tensor descriptor the arena does not build a launcher for")
                todo.append((item, depth + 1, kind))
        elif kind or not (value is None or type(value) is bool or type(value) is int or type(value) is float):
            raise ValueError("a kernel signature the arena does not build a launcher for (a value of a type "
                             "other than Python's plain ones)")
    return _dumps({"signature": list(signature.values()), "tensordesc_meta": tensordesc_meta}).encode()


def _launcher_signature(values):
    """A request's signature as Triton's make_launcher takes it."""
    def kind(value):
        return tuple(kind(v) for v in value) if isinstance(value, list) else value
    return {i: kind(v) for i, v in enumerate(values)}


def _read_exactly(fd, size, _read=os.read, len=len):
    data = b""
    while len(data) < size:
        chunk = _read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


class LauncherBuilder:
    """Triton's launchers, built outside the runner's sandbox.

    serve(fd, make_launcher, build, root, toolchain) is the builder's loop
    (the process the judge starts with `--launcher-builder=ROOT`, outside
    any sandbox): it answers each request read from FD (launcher_request's
    bytes, length-prefixed) with the name, under ROOT, of the launcher
    built from it: make_launcher({}, signature, tensordesc_meta)'s source
    compiled by build(name, source_path, out_folder) (which returns the
    library's path), kept as TOOLCHAIN's digest / the source's SHA-256
    ".so", read-only, and renamed into place whole (a runner that has
    mapped an earlier copy keeps it). A source built once on the machine
    is not built again; one builder builds at most _MOST_BUILT. It ends
    when the runner's end is closed.

    connect(fd, folder) is the runner's end: build(request) asks the
    builder, from one thread at a time, and returns the launcher's path
    under FOLDER (where the runner sees ROOT); an error is a RuntimeError
    with the builder's reason."""

    _MAX_REQUEST = 1 << 20
    _MOST_BUILT = 64  # launchers one builder builds (each kernel signature's one): a runner's, at most

    def __init__(self, fd, folder):
        self.fd, self.folder = fd, folder
        self.lock = threading.Lock()

    @classmethod
    def connect(cls, fd, folder):
        return cls(fd, os.path.realpath(folder))

    @classmethod
    def serve(cls, fd, make_launcher, build, root, toolchain):
        import tempfile
        folder_name = hashlib.sha256(toolchain.encode()).hexdigest()[:16]
        folder = os.path.join(root, folder_name)
        os.makedirs(folder, exist_ok=True)
        built = 0
        while True:
            header = _read_exactly(fd, 4)
            if header is None:
                return
            size = struct.unpack("!I", header)[0]
            body = _read_exactly(fd, size) if size <= cls._MAX_REQUEST else None
            if body is None:
                return
            try:
                request = json.loads(body)
                signature = _launcher_signature(request["signature"])
                launcher_request(signature, request["tensordesc_meta"])  # (here, where nothing is a subject's)
                source = make_launcher({}, signature, request["tensordesc_meta"])
                name = f"{folder_name}/{hashlib.sha256(source.encode()).hexdigest()}.so"
                path = os.path.join(root, name)
                if not (os.path.isfile(path) and not os.path.islink(path)):
                    if built >= cls._MOST_BUILT:
                        raise RuntimeError(f"more than {cls._MOST_BUILT} launchers asked for by one runner")
                    built += 1
                    with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as scratch:
                        source_path = os.path.join(scratch, _LAUNCHER_NAME + ".c")
                        with open(source_path, "x") as f:
                            f.write(source)
                        out = os.path.join(scratch, "out")
                        os.mkdir(out)
                        library = build(_LAUNCHER_NAME, source_path, out)
                        os.chmod(library, 0o555)
                        os.replace(library, path)  # (the scratch lies in the same folder)
                reply = {"name": name}
            except Exception as e:  # noqa: BLE001 (the runner reports it)
                reply = {"error": f"{type(e).__name__}: {e}"[:2000]}
            data = json.dumps(reply).encode()
            os.write(fd, struct.pack("!I", len(data)) + data)

    def build(self, request, _write=os.write, _read=_read_exactly, _loads=json.loads, _join=os.path.join,
              _name=_LAUNCHER_FILE, _pack=struct.pack, _unpack=struct.unpack, dict=dict, len=len, str=str,
              type=type):
        """The path of the launcher REQUEST asks for (in the folder)."""
        with self.lock:
            try:
                _write(self.fd, _pack("!I", len(request)) + request)
                header = _read(self.fd, 4)
                size = _unpack("!I", header)[0] if header else 0
                body = _read(self.fd, size) if 0 < size <= self._MAX_REQUEST else None
            except OSError:
                body = None
        if body is None:
            raise RuntimeError("the arena's launcher builder ended")
        reply = _loads(body)
        name = reply.get("name") if type(reply) is dict else None
        if type(name) is not str or not _name.fullmatch(name):
            why = reply.get("error") if type(reply) is dict else None
            raise RuntimeError(f"the arena's launcher builder failed: {why or reply!r:.200}")
        return _join(self.folder, name)


def serve_launchers(root):
    """The launcher builder's process (`--launcher-builder=ROOT`, started
    by the judge outside the sandbox, its socket to the runner as fd 0)."""
    building = launcher_building()
    if building is None:
        return  # this Triton builds no launcher per signature: nothing will be asked
    nvidia, make_launcher, build = building
    import triton
    toolchain = json.dumps([triton.__version__, sys.version, list(nvidia.library_dirs()),
                            list(nvidia.include_dirs), list(nvidia.libraries), sys.executable])
    LauncherBuilder.serve(0, make_launcher, build, os.path.realpath(root), toolchain)


def launcher_building():
    """Where this Triton builds a C launcher per kernel signature (its CUDA
    driver's CudaLauncher compiles make_launcher's source): the driver's
    module, make_launcher and a build(name, source_path, scratch) with the
    driver's libraries and include folders as they are now; else None."""
    try:
        import triton.backends.nvidia.driver as nvidia
        from triton.runtime import build as triton_build
    except ImportError:
        return None
    init = getattr(getattr(nvidia, "CudaLauncher", None), "__init__", None)
    if not callable(getattr(nvidia, "make_launcher", None)) or \
            "compile_module_from_src" not in getattr(getattr(init, "__code__", None), "co_names", ()):
        return None
    import inspect
    flags = ([],) if "ccflags" in inspect.signature(triton_build._build).parameters else ()

    def build(name, source_path, scratch, _build=triton_build._build, _library_dirs=list(nvidia.library_dirs()),
              _include_dirs=list(nvidia.include_dirs), _libraries=list(nvidia.libraries), _flags=flags):
        return _build(name, source_path, scratch, _library_dirs, _include_dirs, _libraries, *_flags)
    return nvidia, nvidia.make_launcher, build


def binaries_of_triton(compiler, utils, costs=None):
    """Triton's compile (COMPILER's) and its driver's load_binary (UTILS's),
    wrapped: compile keeps the digest of each binary Triton's compiler made
    from a @triton.jit function (an ASTSource), and load_binary the handle
    of each function it loaded from one of those binaries. Returns the two
    wrappers and that set of handles: the only kernels the subject may
    launch as its own. A binary of the subject's own (PTX by hand, a
    library's kernel image) loaded through load_binary and put in a
    compiled kernel, or a compiled kernel's binary changed before it was
    loaded, gives a handle outside it."""
    made, loaded = set(), set()

    costs = {} if costs is None else costs

    def compile(src, *args, _arena_compile=(compiler.compile, compiler.ASTSource, made, hashlib.sha256, type,
                                            bytes, getattr, isinstance, costs, time.perf_counter), **kwargs):
        original, source_class, made, sha256, type, bytes, getattr, isinstance, costs, clock = _arena_compile
        start = clock()
        try:
            kernel = original(src, *args, **kwargs)
        finally:
            costs["triton_compile_s"] = costs.get("triton_compile_s", 0.0) + clock() - start
        binary = getattr(kernel, "kernel", None)
        if type(src) is source_class and isinstance(binary, bytes):
            made.add(sha256(binary).digest())
        return kernel

    def load_binary(name, binary, *args, _arena_load=(utils.load_binary, made, loaded, hashlib.sha256, bytes,
                                                      isinstance, costs, time.perf_counter), **kwargs):
        # (Digests through the buffer, which is what the loader reads; of
        # an immutable one alone: no thread can change it in between.)
        original, made, loaded, sha256, bytes, isinstance, costs, clock = _arena_load
        start = clock()
        try:
            result = original(name, binary, *args, **kwargs)
        finally:
            costs["load_binary_s"] = costs.get("load_binary_s", 0.0) + clock() - start
        if isinstance(binary, bytes) and sha256(binary).digest() in made:
            loaded.add(result[1])
        return result
    return compile, load_binary, loaded


def ptxas_programs():
    """The files of the assemblers Triton's compiler starts (ptxas), as
    resolved now: the only programs the subject's process may start."""
    import triton
    found = set()
    tools = getattr(getattr(triton, "knobs", None), "nvidia", None)
    for name in ("ptxas", "ptxas_blackwell"):
        try:
            path = getattr(getattr(tools, name, None), "path", None)
        except Exception:  # noqa: BLE001 (a tool this Triton lacks)
            path = None
        if isinstance(path, str) and path:
            found.add(os.path.realpath(path))
    return tuple(sorted(found))


def await_go(sock, limit=1 << 16):
    """The arguments of the judge's {"op": "go", "args": [...]} line, read
    from `sock` a byte at a time (the judge's next request may follow it at
    once). Exits quietly where the judge went before sending it."""
    line = b""
    while not line.endswith(b"\n"):
        byte = sock.recv(1)
        if not byte:
            raise SystemExit(0)
        line += byte
        if len(line) > limit:
            raise RuntimeError("the judge's go line is too long")
    req = json.loads(line)
    args = req.get("args") if isinstance(req, dict) and req.get("op") == "go" else None
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise RuntimeError("expected the judge's go line, got: " + line[:200].decode(errors="replace"))
    return args


def main():
    if _LAUNCHER_BUILDER is not None:
        return serve_launchers(_LAUNCHER_BUILDER)
    raise_open_files_limit()
    sock = socket.socket(fileno=0)
    # Its channel to the judge, pinned before any code of the subject's
    # exists (pin_descriptor).
    pinned = pin_descriptor(0)
    if pinned:
        raise RuntimeError("cannot pin the runner's channel to the judge: " + pinned)
    argv = list(sys.argv)
    waited = 0.0
    if "--await-go" in argv:
        # Started before its task was known: imported, with no GPU context
        # (another evaluation may be timed meanwhile), it waits for the
        # task's arguments.
        mark = time.perf_counter()
        argv += await_go(sock)
        waited = time.perf_counter() - mark
    device = "cuda" if "--device=cuda" in argv else "cpu"
    allowed_ops = frozenset()
    workspace = "/workspace"
    cache_seed = ""
    launchers, launcher_fd = "", -1
    for arg in argv:
        if arg.startswith("--launchers="):
            launchers = arg.split("=", 1)[1]
        if arg.startswith("--launcher-fd="):
            launcher_fd = int(arg.split("=", 1)[1])
        if arg.startswith("--allow-ops="):
            allowed_ops = frozenset(o for o in arg.split("=", 1)[1].split(",") if o)
        if arg.startswith("--workspace="):
            workspace = arg.split("=", 1)[1]
        if arg.startswith("--cache-seed="):
            cache_seed = arg.split("=", 1)[1]
    recv_fds = socket.recv_fds
    loads = json.loads
    poll = polled  # (main's own: the module's name could be rebound)

    # The runner's functions take what they rest on as default arguments,
    # which the subject's code may neither read nor rebind (the audit hook
    # refuses both), never from closure cells, which it can reach (through
    # a function's __closure__) and rewrite with no audited event; tables
    # are immutable (main's frame, and so its locals, stay readable).
    # Checked as the runner starts (closures_held).

    def say(obj, _send=sock.sendall, _dumps=json.dumps, _lock=threading.Lock(), _said=[0], dict=dict):
        # (Findings come from the subject's threads too.) Every reply says
        # how many findings went before it, counted where only this
        # function reaches: the judge misses none dropped on the way (the
        # socket's descriptor redirected for a while, say).
        with _lock:
            if "finding" in obj:
                _said[0] += 1
            else:
                obj = dict(obj, said=_said[0])
            _send((_dumps(obj) + "\n").encode())

    state = {"candidate": False, "launches": 0, "handles": set(), "fills": 0,
             "loaded": False}
    # Where the runner's time goes, for the report alone (the subject's
    # process could change it; nothing is judged by it): its start-up,
    # reported with "load", and the parts of a request that loads or calls
    # the subject (Triton's compile, its binaries loaded, launchers built).
    clock = time.perf_counter
    startup = {"imports_s": clock() - _STARTED - waited}
    if waited:
        startup["awaited_task_s"] = waited
    costs = {}
    main_thread = threading.get_ident()  # the runner's own: it serves the requests

    def finding(text, _say=say, _sent=set()):
        # Sent at once: code that catches the refusal cannot take it back.
        if text not in _sent:
            _sent.add(text)
            _say({"finding": text})

    # A thread the subject's code started is the subject's for its whole
    # life: observed like its code, and between requests (when the runner
    # runs none of the subject's code) any work of it is a finding. The
    # subject computes when it is called, not before: a thread that watched
    # the memory it was lent would otherwise work on a round's inputs
    # before the round's clock starts.
    # (subject_runs, below, tells which threads those are.)

    def work_between(what, _finding=finding):
        _finding(f"work between requests: {what} in a thread the subject left running, while no "
                "request ran its code")

    # Where Triton's launchers are kept (LauncherBuilder: the machine's
    # launchers' folder, read-only here); the loader below is the one way
    # native code of a launcher enters this process once the subject runs
    # (the audit hook names it by its frame and the path it loads).
    triton_cache_folder = os.path.realpath(os.environ.get("TRITON_CACHE_DIR") or
                                           os.path.join(os.path.expanduser("~"), ".triton", "cache"))
    launcher_root = os.path.realpath(launchers) if launchers else os.path.join(triton_cache_folder, _LAUNCHERS)

    def load_launcher(path, _loaded={}, _create=_imp.create_dynamic, _exec=_imp.exec_dynamic,
                      _spec=_ModuleSpec, _name=_LAUNCHER_NAME):
        """The launcher module at PATH (the builder's), loaded once."""
        module = _loaded.get(path)
        if module is None:
            module = _create(_spec(_name, None, origin=path))
            _exec(module)
            _loaded[path] = module
        return module

    def launcher_module(builder, init_code, load_launcher, costs):
        """Triton's compile_module_from_src as its CudaLauncher calls it: the
        source it made is set aside; the launcher is built apart from the
        kernel's signature (the caller's locals) and loaded."""
        def compile_module_from_src(*args, _arena_launcher=(builder, init_code, load_launcher, launcher_request,
                                                            sys._getframe, RuntimeError, costs, time.perf_counter),
                                    **kwargs):
            builder, init_code, load, request, getframe, RuntimeError, costs, clock = _arena_launcher
            caller = getframe(1)
            if caller.f_code is not init_code:
                raise RuntimeError("the arena builds Triton's launchers for kernels alone (CudaLauncher)")
            names = caller.f_locals
            start = clock()
            try:
                return load(builder.build(request(names.get("signature"), names.get("tensordesc_meta"))))
            finally:
                costs["launcher_s"] = costs.get("launcher_s", 0.0) + clock() - start
        return compile_module_from_src

    toolchain_programs = ()
    if device == "cuda":
        mark = clock()
        torch.cuda.init()
        torch.zeros(1, device="cuda")
        synchronize = torch.cuda.synchronize
        startup["cuda_init_s"] = clock() - mark
        # Everything that loads libraries through ctypes, done before the
        # subject runs (ctypes is refused to it).
        from triton.runtime import driver
        driver.active.get_current_device()
        # Triton's launchers, built apart (LauncherBuilder) where this
        # Triton builds one per kernel signature: the warm-up's among them.
        building = launcher_building()
        if building is not None:
            nvidia, _, _ = building
            if not launchers or launcher_fd < 0:
                raise RuntimeError("this Triton builds a launcher per kernel signature, and the judge "
                                   "gave the runner no launcher builder (--launchers, --launcher-fd)")
            builder = LauncherBuilder.connect(launcher_fd, launcher_root)
            nvidia.compile_module_from_src = launcher_module(builder, nvidia.CudaLauncher.__init__.__code__,
                                                          load_launcher, costs)
        toolchain_programs = ptxas_programs()
        # Kernels the subject may launch as its own: those Triton compiled
        # here from @triton.jit functions (binaries_of_triton); the modules
        # and the driver's utilities that hold the wrappers are sealed.
        import triton.compiler.compiler as triton_compiler
        utils = driver.active.utils
        original_compile, original_load = triton_compiler.compile, utils.load_binary
        compile_wrapper, load_wrapper, own_functions = binaries_of_triton(triton_compiler, utils, costs)
        # Wherever a module holds Triton's compile under that name (the
        # package, triton's top, a module that imported it by name), and
        # load_binary where the driver's utilities take it from (their
        # native module: a new instance of theirs reads it there).
        triton_sealed = [utils]
        for module in list(sys.modules.values()):
            if isinstance(module, types.ModuleType) and vars(module).get("compile") is original_compile:
                module.compile = compile_wrapper
                triton_sealed.append(module)
        utils.load_binary = load_wrapper
        native_utils = getattr(original_load, "__self__", None)
        if isinstance(native_utils, types.ModuleType) and vars(native_utils).get("load_binary") is original_load:
            native_utils.load_binary = load_wrapper
            triton_sealed.append(native_utils)
        MappedBuffer.prepare()
        chains = GraphChain()
        mark = clock()
        warm_up_triton(torch)
        startup["warm_up_s"] = clock() - mark
        mark = clock()
        observer = LaunchObserver.start(os.path.join(os.path.dirname(os.path.abspath(__file__)), _OBSERVER))
        startup["observer_s"] = clock() - mark
        startup.update({"warm_up_" + k: v for k, v in costs.items()})
        costs.clear()
    else:
        chains = None
        observer = LaunchObserver.start(None)
        own_functions, triton_sealed = None, []  # the interpreter loads no binary

        def synchronize():
            return None

    # Count launches of Triton kernels (compiled or interpreted).
    from triton.runtime import jit as triton_jit
    interpreted = os.environ.get("TRITON_INTERPRET") == "1"
    launch_classes = [triton_jit.JITFunction]
    try:
        from triton.runtime.interpreter import InterpretedFunction
        launch_classes.append(InterpretedFunction)
    except ImportError:
        pass
    # Triton's hooks: callables Triton calls inside a launch (before it,
    # as it compiles, builds a launcher, loads or launches the kernel). One
    # may be any callable, Python's own among them (subprocess.Popen, set
    # as a kernel's pre-run hook, started a process there with no frame of
    # the subject's on the stack, as if Triton's compiler had asked): none
    # may be set by the subject's code. Where they are in this Triton (its
    # knobs, or an older one's class attributes), and what they hold as the
    # runner starts.
    import triton
    hook_sites = []
    knobs = getattr(triton, "knobs", None)
    for group, names in (("runtime", ("launch_enter_hook", "launch_exit_hook", "kernel_load_start_hook",
                                      "kernel_load_end_hook", "kernel_unload_hook", "jit_cache_hook",
                                      "jit_post_compile_hook", "add_stages_inspection_hook")),
                         ("build", ("impl",))):
        owner = getattr(knobs, group, None)
        hook_sites += [(f"triton.knobs.{group}.{name}", knobs, group, name) for name in names
                       if owner is not None and hasattr(owner, name)]
    try:
        from triton.compiler.compiler import CompiledKernel
    except ImportError:
        CompiledKernel = None
    for owner, names in ((CompiledKernel, ("launch_enter_hook", "launch_exit_hook")),
                         (triton_jit.JITFunction, ("cache_hook", "compiled_hook"))):
        hook_sites += [(f"{owner.__name__}.{name}", owner, None, name) for name in names
                       if owner is not None and name in vars(owner)]
    hook_sites = tuple(hook_sites)
    # What each hook holds as the runner starts, held by identity at every
    # launch: the object, a chain's list and its callables, and where it is
    # read from. The classes read through are frozen, as the runner's are,
    # so that reading a hook runs no code of the subject's and a hook is
    # what it was as long as it is the same object: a chain's class
    # (HookChain: its call), the knobs' groups' classes and their bases (a
    # property there could tell the runner's look from Triton's by the
    # frames: hooks_by_caller), an older Triton's classes.
    hooks_at_start = []
    for label, owner, group, name in hook_sites:
        where = getattr(owner, group) if group else owner
        freeze_classes([type(where) if group else where], "triton.")
        value = getattr(where, name, None)
        calls = getattr(value, "calls", None)
        chain = type(calls) is list and type(value).__module__.startswith("triton.")
        if chain:
            freeze_class(type(value))
        # Nothing but a chain or nothing at all, in the Triton this was
        # written for: anything else is held by its class, call and code too.
        other = value is not None and not chain
        hooks_at_start.append((label, owner, group, where, name, value, calls if chain else None,
                               tuple(calls) if chain else (), type(value) if other else None,
                               vars(type(value)).get("__call__") if other else None,
                               getattr(value, "__code__", None) if other else None))
    hooks_at_start = tuple(hooks_at_start)
    # Triton's knobs, grouped (knobs.cache, knobs.build, knobs.nvidia...):
    # a knob chooses the folders Triton's compiler reads and writes (its
    # cache, the kernels it overrides), the programs it starts (ptxas, the
    # C compiler) and what it hands them. Each group's values set on it
    # are counted at every launch (knob_values); the values, the
    # descriptors that read the others from the environment (their names
    # and defaults), the knobs module's own names and the environment are
    # held where Triton's compiler reaches outside the process
    # (configuration_changed, below). The classes are frozen: a group's
    # descriptors stay the runner's.
    knob_base = getattr(knobs, "base_knobs", None)
    env_base = getattr(knobs, "env_base", None)
    knob_groups = []
    for name, group in (vars(knobs).items() if isinstance(knob_base, type) else ()):
        if not isinstance(group, knob_base):
            continue
        descriptors = tuple(d for d in vars(type(group)).values()
                            if isinstance(env_base, type) and isinstance(d, env_base))
        freeze_classes([type(group)] + [type(d) for d in descriptors], "triton.")
        knob_groups.append((f"triton.knobs.{name}", name, group, tuple(vars(group).items()),
                            tuple((d, tuple(vars(d).items())) for d in descriptors)))
    knob_groups = tuple(knob_groups)
    # At every launch, each group's own dictionary of values set, by its
    # size alone (a knob set adds to it; everything else about the knobs
    # where Triton's compiler reaches outside the process: a group's
    # dictionary replaced, a value replaced by another, the descriptors).
    knob_values = tuple((label, vars(group), len(values)) for label, _, group, values, _ in knob_groups)

    def hook_set(kernel, _hooks=hooks_at_start, _values=knob_values, _knobs=knobs, _module=types.ModuleType,
                 _len=list.__len__, getattr=getattr, len=len, list=list, next=next, range=range, type=type,
                 vars=vars):
        """The first of Triton's hooks or knobs the subject set ("" if
        none): one of the kernel's pre-run hooks (an empty list, nothing
        else: a list of its own that says it is empty is not), one of
        Triton's own hooks (by identity alone: the same object, read from
        the same place, a chain the same list of the same callables,
        anything else the same class, call and code), or a knob (a group
        holding more or fewer values set than it did)."""
        for label, values, size in _values:
            if len(values) != size:
                return next((f"{label}.{key}" for key in list(values)), label) if size == 0 else label
        hooks = getattr(kernel, "pre_run_hooks", None)
        if hooks is not None and (type(hooks) is not list or _len(hooks) != 0):
            return f"a pre-run hook of kernel {getattr(getattr(kernel, 'fn', None), '__name__', '?')}"
        if type(_knobs) is not _module:
            return "triton.knobs"
        for label, owner, group, where, name, value, calls, callables, kind, call, code in _hooks:
            if group and getattr(owner, group) is not where:
                return label
            now = getattr(where, name, None)
            if now is not value:
                return label
            if calls is not None:
                if getattr(now, "calls", None) is not calls or _len(calls) != len(callables):
                    return label
                for i in range(len(callables)):
                    if calls[i] is not callables[i]:
                        return label
            elif kind is not None and (type(now) is not kind or vars(kind).get("__call__") is not call or
                                       getattr(now, "__code__", None) is not code):
                return label
        return ""

    for cls in launch_classes:
        original = cls.run

        def counted(self, *args, _arena_launch=(original, state, main_thread, threading.get_ident, work_between,
                                                hook_set, finding, own_functions, getattr, int, isinstance,
                                                RuntimeError),
                    **kwargs):
            (original, state, main_thread, ident, work_between, hook_set, finding, own_functions, getattr, int,
             isinstance, RuntimeError) = _arena_launch
            hooked = hook_set(self)
            if hooked:
                finding(f"tampering: {hooked} was set: Triton's hooks and knobs are the arena's (a hook is "
                        "called inside a launch, where only Triton's own code may run; a knob chooses what "
                        "Triton's compiler reads, writes and starts)")
                raise RuntimeError(f"the arena does not allow {hooked}")
            # A warm-up compiles without launching: inside Triton, not a launch.
            if not kwargs.get("warmup"):
                name = getattr(getattr(self, "fn", None), "__name__", "?")
                if not state["candidate"] and ident() != main_thread:
                    work_between(f"Triton kernel {name} launched")
                state["launches"] += 1
            kernel = original(self, *args, **kwargs)
            # The launched kernel's handle (the function CUPTI sees
            # launched), which names do not tell apart from a library's.
            function = getattr(kernel, "function", None)
            if not kwargs.get("warmup") and isinstance(function, int) and function:
                if own_functions is not None and function not in own_functions:
                    finding("tampering: launching GPU code that Triton did not compile from the subject's "
                            "@triton.jit functions (a binary Triton did not compile, loaded by hand) is not "
                            "allowed in a subject's code")
                    raise RuntimeError("the arena does not allow launching a binary Triton did not compile")
                state["handles"].add(function)
            return kernel
        cls.run = counted
    counted_code = counted.__code__  # the launches' frames (one code for every class)
    # The kernels' classes, their bases included (a descriptor named
    # pre_run_hooks on one of them wins over a kernel's own attribute, and
    # hook_set reads it: hooks_by_caller), frozen now that run is counted.
    freeze_classes(launch_classes)


    # Where Triton's compiler runs: the Python installation's own modules
    # are neither the subject nor Triton (site-packages excepted).
    import importlib.machinery
    import sysconfig
    stdlib = sysconfig.get_paths()["stdlib"]
    # The installation: its prefixes (wherever they are: a checkout under
    # /tmp keeps its virtual environment there, read-only to the subject)
    # and the folders on the import path before the subject's that it
    # cannot write to (user site-packages, say; not its private /tmp).
    installed = [os.path.join(os.path.realpath(p), "") for p in
                 {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix} |
                 {p for p in sys.path if p and os.path.isabs(p) and os.path.isdir(p) and
                  not os.access(p, os.W_OK)}]
    own = os.path.join(os.path.realpath(workspace), "")
    installed = [p for p in installed if p != own]

    def roots(folder):
        """FOLDER's path as written and as resolved, each ending in a slash."""
        return os.path.join(os.path.abspath(folder), ""), os.path.join(os.path.realpath(folder), "")

    # Who runs now, told by what the subject's code cannot rewrite, for the
    # refusals below. The runner's flag (state["candidate"]) is
    # reachable through the runner's frame and writable there:
    # it may add to what is the subject's, never take from it. The facts:
    # every thread but the runner's is the subject's (the runner starts
    # none); on the runner's thread, the subject's code runs above a frame
    # of subject_call (the one place the runner calls it from), and
    # wherever a frame of code neither the runner's nor the installation's
    # is on the stack (its files, code it compiled from a string, a
    # finalizer of its). These functions take what they use as default
    # arguments, which the subject cannot rebind (refused below), not from
    # closure cells, which it can; and string methods, not functions of
    # modules it could patch.
    # (The installation's folders are read-only to the subject; none that
    # holds a folder it can write to counts: its workspace, its /tmp.)
    writable = (own, os.path.join(os.path.realpath(os.environ.get("TMPDIR", "/tmp")), ""), "/tmp/")
    trusted_roots = tuple(sorted({
        root for folder in installed + [stdlib, os.path.dirname(os.path.abspath(__file__))]
        for root in roots(folder) if not any(w.startswith(root) for w in writable)}))

    @functools.lru_cache(maxsize=None)
    def trusted_file(name, _trusted=trusted_roots):
        """Code from the file NAME is the runner's or the installation's."""
        if name.startswith("<frozen "):
            return True
        return name.startswith(_trusted) and "/../" not in name and "/./" not in name

    def subject_call(thunk):
        """The one place the runner calls the subject's code from: every
        frame above this one is the subject's."""
        return thunk()

    def first_frame(frame, marker, _trusted=trusted_file):
        """From FRAME down the stack, the first frame of MARKER's code or of
        code that is neither the runner's nor the installation's; None."""
        while frame is not None and frame.f_code is not marker and _trusted(frame.f_code.co_filename):
            frame = frame.f_back
        return frame

    def runs_subject_code(_main=main_thread, _ident=threading.get_ident, _getframe=sys._getframe,
                          _marker=subject_call.__code__, _first=first_frame):
        """Whether the subject's code runs on this thread now, by the facts."""
        return _ident() != _main or _first(_getframe(1), _marker) is not None

    def calling_subject(_getframe=sys._getframe, _marker=subject_call.__code__, _first=first_frame,
                        _every=lambda name: True):
        """Whether a request runs the subject's code on this thread now: a
        frame of subject_call below, however far."""
        return _first(_getframe(1), _marker, _every) is not None

    def subject_runs(_runs=runs_subject_code, _state=state):
        """Whether the subject's code runs on this thread now: the flags
        say so (they can only add), or the facts do."""
        return _state["candidate"] or _runs()

    def in_triton_launch(_getframe=sys._getframe, _launch=counted_code, _first=first_frame):
        """Whether this runs inside a Triton launch, in Triton's (or torch's,
        or Python's) own code: a launch's frame below, and none of the
        subject's code above it (the interpreter runs a kernel's body as
        Python there; the subject's hooks run there too)."""
        frame = _first(_getframe(1), _launch)
        return frame is not None and frame.f_code is _launch

    def asked_by_triton(through_torch=False, files=None, _getframe=sys._getframe,
                        _triton=roots(os.path.dirname(os.path.dirname(triton_jit.__file__))),
                        _torch=roots(os.path.dirname(torch.__file__)),
                        _stdlib=roots(stdlib),
                        _runner=(__file__, os.path.abspath(__file__), os.path.realpath(__file__))):
        """The nearest caller that is not the Python library's (nor, with
        through_torch, torch's) is in Triton's package (with FILES, one of
        those files of it)."""
        frame = _getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            # The runner's own frames (this hook), frozen import machinery,
            # and the Python library are passed over.
            if not (name.startswith("<") or name in _runner or
                    (name.startswith(_stdlib) and "-packages/" not in name) or
                    (through_torch and name.startswith(_torch))):
                if files is not None:
                    return name in files
                return name.startswith(_triton) and "/../" not in name
            frame = frame.f_back
        return False

    def triton_compiling(_in_launch=in_triton_launch, _asked=asked_by_triton):
        """Inside a Triton launch, asked by Triton's own code."""
        return _in_launch() and _asked()

    # The files of Triton's package that start processes (its compiler's
    # tools, the launcher's C compiler, ldconfig), as installed. A process
    # started inside a launch must be asked for by one of them: Triton's
    # other files call callables of the subject's choosing there (jit.py a
    # kernel's pre-run hooks and its grid), and a callable of Python's own
    # leaves no frame of the subject's on the stack.
    def starting_files(package):
        found = set()
        for folder, _, names in os.walk(package):
            for name in names:
                path = os.path.join(folder, name)
                if not name.endswith(".py"):
                    continue
                try:
                    with open(path, encoding="utf-8", errors="replace") as source:
                        if "subprocess" not in source.read():
                            continue
                except OSError:
                    continue
                found.update({path, os.path.abspath(path), os.path.realpath(path)})
        return frozenset(found)
    triton_starting = starting_files(os.path.dirname(os.path.dirname(triton_jit.__file__)))

    # The environment of the processes Triton's compiler starts, and of
    # Triton's own reads of it: the process's as the subject is loaded
    # (load fills it), whatever the subject's code changes later. PATH
    # chose the assembler gcc runs, LD_PRELOAD a library loaded into
    # ptxas; a variable of Triton's, what its compiler does. Libraries set
    # variables of their own as they go (numpy's OPENBLAS_MAIN_FREE as it
    # is imported, torch's TORCHINDUCTOR_CACHE_DIR), so that a change is no
    # finding: a process the toolchain starts gets this environment
    # (pinned_environment), and Triton's variables are held to it
    # (configuration_changed). os.environ's class and its bases are frozen.
    toolchain_environment = []  # [b"K=V" list, {K: V} of bytes], once loaded
    freeze_classes([type(os.environ)])

    def pinned_environment(original, index, form, _env=toolchain_environment, _runs=subject_runs, len=len):
        """ORIGINAL, its argument at INDEX (fork_exec's env_list, posix_spawn's
        env) the pinned environment in FORM (0: b"K=V" list, 1: mapping),
        where the subject's code runs (only the toolchain's starts get past
        the refusals there)."""
        def start(*args, _arena_pinned=(original, index, form, _env, _runs, len), **kwargs):
            original, index, form, env, runs, len = _arena_pinned
            if env and runs() and len(args) > index:
                args = args[:index] + (env[form],) + args[index + 1:]
            return original(*args, **kwargs)
        return start

    knobs_names = tuple(vars(knobs).items()) if isinstance(knobs, types.ModuleType) else ()

    knob_variables = tuple(sorted({os.fsencode(d.key) for _, _, _, _, descriptors in knob_groups
                                   for d, _ in descriptors if isinstance(getattr(d, "key", None), str)}))

    def changed_name(now, held, len=len):
        """In the dictionary NOW, the first name of HELD ((name, value)
        pairs) whose value is another object ("" where names were added or
        removed), or None where all hold."""
        if len(now) != len(held):
            return ""
        for name, value in held:
            if now.get(name) is not value:
                return name
        return None

    def configuration_changed(_knobs=knobs, _names=knobs_names, _groups=knob_groups, _env=toolchain_environment,
                              _variables=knob_variables, _os=os, _environ=os.environ, _getenv=os.getenv,
                              _attributes=tuple(vars(os.environ).items()), _module=types.ModuleType,
                              _changed=changed_name, bytes=bytes, type=type, vars=vars):
        """What of Triton's configuration the subject changed ("" if
        nothing): the knobs module's names (its getenv, its groups), a
        group's values or its descriptors' names and defaults, the
        environment. By identity and Python's own types alone."""
        if _knobs is not None:
            if type(_knobs) is not _module:
                return "triton.knobs"
            name = _changed(vars(_knobs), _names)
            if name is not None:
                return f"triton.knobs.{name}".rstrip(".")
        for label, _, group, values, descriptors in _groups:
            name = _changed(vars(group), values)
            if name is not None:
                return f"{label}.{name}".rstrip(".")
            for descriptor, attributes in descriptors:
                if _changed(vars(descriptor), attributes) is not None:
                    return f"{label} (a knob's name or default)"
        # Triton's variables, as Triton reads them (os.getenv, os.environ,
        # its mapping), against the environment the subject was loaded with.
        now = vars(_environ)
        if vars(_os).get("environ") is not _environ or vars(_os).get("getenv") is not _getenv or \
                _changed(now, _attributes) is not None:
            return "os.environ"
        if _env:
            data = now["_data"]
            for key in _variables:
                value = data.get(key)
                if (value is not None and type(value) is not bytes) or value != _env[1].get(key):
                    return f"the environment ({key.decode(errors='replace')})"
        return ""

    def toolchain_started(program, _in_launch=in_triton_launch, _asked=asked_by_triton,
                          _files=triton_starting, _which=shutil.which, _realpath=os.path.realpath,
                          _fsdecode=os.fsdecode, _programs=toolchain_programs,
                          bool=bool, bytes=bytes, isinstance=isinstance, str=str):
        """A process started by Triton's compiler: inside a launch, asked by
        a file of Triton's that starts processes, and PROGRAM one of the
        assemblers Triton's compiler runs (ptxas_programs), as resolved
        before the subject ran. (The frames alone would not do: a callable
        of Python's or Triton's own that the subject hands Triton, a grid
        or a finalizer, runs inside a launch with none of the subject's.
        Triton's launchers are built apart: LauncherBuilder.)"""
        if not (_in_launch() and _asked(files=_files)):
            return False
        try:
            path = _fsdecode(program) if isinstance(program, (str, bytes)) else ""
        except (TypeError, ValueError):
            return False
        if path and "/" not in path:
            path = _which(path) or ""
        return bool(path) and _realpath(path) in _programs

    def toolchain_forked(args, _started=toolchain_started, len=len):
        """_posixsubprocess.fork_exec's ARGS start Triton's assembler: every
        program it may execute is one (toolchain_started)."""
        programs = args[1] if len(args) > 1 else None
        if not programs:
            return False
        for program in programs:
            if not _started(program):
                return False
        return True

    # The guard tells ops by the objects torch hands it, resolved here
    # (every overload of each op), not by the names they carry: an op's
    # schema is an attribute of its Python object, which the subject's code
    # can replace with a free op's. Only aten's ops are free or allowed (an
    # op of another namespace named like one is not); an allowed op allows
    # its in-place form.
    def overloads(names, _ops=torch.ops):
        """Every overload of the ops NAMES (aten's, or "namespace::op")."""
        found = []
        for name in names:
            namespace, _, op = name.rpartition("::")
            packet = getattr(getattr(_ops, namespace or "aten", None), op, None)
            for overload in getattr(packet, "overloads", lambda: [])():
                try:
                    found.append(getattr(packet, overload))
                except (AttributeError, RuntimeError):
                    pass
        return tuple(found)
    known_ops = (overloads(_FREE_OPS), overloads(set(allowed_ops) | {o + "_" for o in allowed_ops}),
                 overloads(_INTERPRETER_OPS), overloads(f + s for f in _TRITON_FILLS for s in ("", "_")))
    free_ops, allowed_ids, interpreter_ops, fill_ops = (frozenset(id(op) for op in ops) for ops in known_ops)

    def guard_dispatch(self, func, types, args=(), kwargs=None, *,
                       _arena_guard=(state, main_thread, threading.get_ident, finding, work_between,
                                     allowed_ids, interpreted, in_triton_launch, asked_by_triton,
                                     observer, free_ops, interpreter_ops, fill_ops, runs_subject_code,
                                     calling_subject, getattr, id, sorted, str)):
        # (The builtins too: the builtins module is every module's, its
        # names rebound with no audited event.)
        (state, main_thread, ident, finding, work_between, allowed_ids, interpreted, in_triton_launch,
         asked_by_triton, observer, free_ops, interpreter_ops, fill_ops, subject_code, calling,
         getattr, id, sorted, str) = _arena_guard
        # A tensor subclass's own dispatch runs after the guard has
        # passed the op on, where the guard is off: its ops unseen.
        # The guard is on the runner's thread from its first request to
        # its last. With the flag down there, an op is the runner's own
        # where none of the subject's code is on the stack; where some
        # is, either the flag was switched off from inside a call (it is
        # reachable through the runner's frame), or the runner's own
        # work called the subject's code (a hook the subject put in a
        # library the runner uses between requests: the JSON decoder
        # that parses its requests, say), and the op is the subject's
        # all the same.
        candidate = state["candidate"]
        if not candidate and ident() == main_thread:
            if not subject_code():
                return func(*args, **(kwargs or {}))
            if calling():
                finding("tampering: the runner's flag that a request runs the subject's code was "
                        "switched off while one did")
            else:
                finding("tampering: the subject's code ran in the runner's own time, called by its own "
                        "work between requests (a hook in a library the runner uses)")
            candidate = True
        if types:
            finding("library compute: a tensor subclass's own dispatch ("
                    f"{', '.join(sorted(t.__name__ for t in types))}) runs below the guard")
        op = id(func)
        free = op in free_ops
        if not free:
            name = str(getattr(getattr(func, "_schema", None), "name", func))  # (for the finding alone)
        if not candidate and not free:
            work_between(f"{name} ran")
        elif not free and op not in allowed_ids and not (
                interpreted and op in interpreter_ops and in_triton_launch()):
            if op in fill_ops and asked_by_triton(through_torch=True):
                # Triton's autotuner clears the L2 (and resets
                # arguments) with fills: constants, no compute.
                state["fills"] += 1
            else:
                finding(f"library compute: {name} ran outside a Triton kernel")
        elif not free:
            # An op the task allows: the kernels it launches are the
            # op's (the launch observer says so).
            observer.allowed(True)
            try:
                return func(*args, **(kwargs or {}))
            finally:
                observer.allowed(False)
        return func(*args, **(kwargs or {}))
    class LibraryGuard(TorchDispatchMode):
        pass
    # torch's dispatcher asks the guard for its dispatch method as an
    # attribute, where one in the guard's own dictionary (set by the
    # subject's code with no audited event) would come before the class's:
    # a property, which an instance's dictionary does not shadow, hands out
    # the guard's own; setting it is refused. (The class is frozen below:
    # its property stays.) The method is the function itself: one written
    # in the class's body, torch would wrap (to keep its compiler out of
    # it) in a function that calls whatever it finds cached on the one it
    # wraps, an attribute that any code reaching it sets with no audited
    # event; that wrapper also imports torch's compiler (seconds) at the
    # first op, and costs every op a call through it.
    def refuse_dispatch(self, *_, _finding=finding):
        _finding("tampering: setting the library guard's dispatch method is not allowed in a subject's code")
        raise RuntimeError("the arena does not allow setting the library guard's dispatch method")
    type.__setattr__(LibraryGuard, "__torch_dispatch__", property(
        lambda self, _dispatch=guard_dispatch, _bind=types.MethodType: _bind(_dispatch, self),
        refuse_dispatch, refuse_dispatch))

    def host_escape(what, original, _made=(subject_runs, in_triton_launch, finding)):
        def wrapper(*args, _arena_escape=(original, what) + _made, **kwargs):
            original, what, runs, in_triton_launch, finding = _arena_escape
            if runs() and not in_triton_launch():
                finding(f"host compute: {what} hands the data to the host")
            return original(*args, **kwargs)
        return wrapper

    def set_in_type(cls, name, value, _referents=gc.get_referents, _setattr=setattr):
        """`cls.name = value`, where `cls` may be a built-in type whose
        attributes cannot be set (torch._C's): its dictionary written and
        its method cache told."""
        if not cls.__flags__ & (1 << 8):  # not immutable
            _setattr(cls, name, value)
            return
        import ctypes
        _referents(cls.__dict__)[0][name] = value
        ctypes.pythonapi.PyType_Modified(ctypes.py_object(cls))
    # The methods that move a tensor's data between the lent memory and the
    # host through no op the guard sees, in the class that defines each:
    # replaced in torch.Tensor alone, one of torch._C.TensorBase's would
    # still be called through the base (`torch._C.TensorBase.numpy(y)`).
    # (apply_, map_ and map2_ call a Python function on every element, in
    # place: the host computes the outputs.) A storage's own methods read
    # and write its bytes as a file's (`_write_file`, `_set_from_file`),
    # hand it to another process or map it by address: a subject's code
    # takes no storage of a tensor (Triton's interpreter does, inside a
    # launch), and those methods are named wherever a storage came from.
    escapes = ((torch._C.TensorBase, ("numpy", "tolist", "apply_", "map_", "map2_", "untyped_storage")),
               (torch.Tensor, ("__array__", "__dlpack__")),
               (torch._C.StorageBase, ("_write_file", "_set_from_file", "_swap_data_ptr_", "_set_cdata",
                                       "_resize_with_addr_", "_byteswap", "_get_shared_fd", "_share_fd_cpu_",
                                       "_share_filename_cpu_", "_share_cuda_")),
               (torch.UntypedStorage, ("_share_fd_cpu_", "_share_filename_cpu_")))
    for cls, names in escapes:
        tensor = cls in (torch.Tensor, torch._C.TensorBase)
        for name in names:
            if name in vars(cls):
                what = f"Tensor.{name}()" if tensor else f"a storage's {name}()"
                set_in_type(cls, name, host_escape(what, vars(cls)[name]))
    # ... and torch._C's functions that do the same (a tensor to DLPack,
    # whose consumers write to it; a storage made over any address; a
    # storage saved to or loaded from a file by GPUDirect): replaced below,
    # with the ways past the guard, in torch._C and wherever a module took
    # its own name for one (by id: the original, and what replaces it).
    replaced = {}
    for name in ("_to_dlpack", "_to_dlpack_versioned", "_construct_storage_from_data_pointer",
                 "_gds_save_storage", "_gds_load_storage"):
        original = getattr(torch._C, name, None)
        if original is not None:
            replaced[id(original)] = (original, host_escape(f"torch._C.{name}()", original))
    what = None

    extension_suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)

    def native_of_its_own(args, caller, _suffixes=extension_suffixes, _installed=tuple(installed),
                          _realpath=os.path.realpath, _loader=load_launcher.__code__, _root=launcher_root + "/",
                          len=len, str=str):
        """An extension module loaded from outside the Python installation
        (one the subject built) by other code than the runner's launcher
        loader, called from CALLER's frame: the loader's (load_launcher,
        loading that path, in the builder's folder), or not."""
        path = str(args[1]) if len(args) > 1 and args[1] else ""
        if not path.endswith(_suffixes):
            return False
        real = _realpath(path)
        if real.startswith(_installed):
            return False
        return not (caller.f_code is _loader and caller.f_locals.get("path") == path and real.startswith(_root))

    def own_memory(path, _fsdecode=os.fsdecode, _realpath=os.path.realpath, _basename=os.path.basename,
                   _sep=os.sep):
        """Whether `path` names the process's memory: a memory file
        (/proc/PID/mem, a thread's, or a link to one; relative to a folder
        opened before, its name alone tells), or a file it has mapped
        (/proc/PID/map_files/..., the lent memory's memfd)."""
        name = _fsdecode(path)
        real = _realpath(name)
        return _basename(name) == "mem" or "map_files" in name.split(_sep) or \
            real.startswith("/memfd:") or (real.startswith("/proc/") and _basename(real) == "mem")

    guard = LibraryGuard()

    # Each of torch's ways past the guard, in torch._C and wherever a module
    # took its own name for it (torch.utils._python_dispatch's helpers call
    # them through their module's names): called by the subject's code, a
    # finding, and refused. Before the subject is imported and before the
    # seal below (torch._C is sealed: putting an original back is found).
    #
    # The originals are held as default arguments, which the subject's code
    # may not read (the audit hook refuses it), not in closure cells, which
    # it may: an original in its hands would be the way past.
    def leave_thread_guard(here):
        """Where a thread of the subject's leaves its guard, its last act."""
        here.__exit__(None, None, None)

    def thread_body(function, args, kwargs, *, _arena_body=(LibraryGuard, leave_thread_guard)):
        """A thread the subject's code started: inside a guard of its own,
        from its first line to its last."""
        guard_class, leave_thread_guard = _arena_body
        here = guard_class()
        here.__enter__()
        try:
            return function(*args, **kwargs)
        finally:
            leave_thread_guard(here)

    def leaving_thread_guard(_getframe=sys._getframe, _leave=leave_thread_guard.__code__,
                             _body=thread_body.__code__, _first=first_frame):
        """Whether this is a thread's leaving its guard, as thread_body
        does it (not the subject's code calling leave_thread_guard)."""
        frame = _first(_getframe(1), _leave)
        return frame is not None and frame.f_code is _leave and frame.f_back is not None and \
            frame.f_back.f_code is _body

    def refusing(original, what, finding_text, allowed=lambda args: False, *,
                 _made=(subject_runs, leaving_thread_guard, finding)):
        """`original`, refused to the subject's code (a finding, then an
        error) unless the runner itself or `allowed(args)` asks."""
        def refused(*args, _arena_refusal=(original, what, finding_text, allowed) + _made, **kwargs):
            original, what, finding_text, allowed, runs, leaving, finding = _arena_refusal
            if runs() and not leaving() and not allowed(args):
                finding(f"tampering: {finding_text}")
                raise RuntimeError(f"the arena does not allow {what}")
            return original(*args, **kwargs)
        return refused

    def refuse_bypass(name, original, _refusing=refusing):
        return _refusing(original, name, f"{name} switches the arena's observation off")

    # Each library's namespace, by its dispatcher module: those made before
    # the subject ran, and those made since.
    library_namespaces = {id(lib.m): (lib.m, lib.ns) for lib in gc.get_objects()
                          if isinstance(lib, torch.library.Library) and getattr(lib, "m", None) is not None}

    def refuse_registration(name, original, namespace, _refusing=refusing):
        """`original`, refused where `namespace(args)` is guarded."""
        refused = _refusing(original, name, f"{name} registers a kernel of its own below the arena's "
                           "observation (torch.library)")

        def registering(*args, _arena_registration=(original, refused, namespace, _GUARDED_NAMESPACES), **kwargs):
            original, refused, namespace, guarded = _arena_registration
            if namespace(args, kwargs) in guarded:
                return refused(*args, **kwargs)
            return original(*args, **kwargs)
        return registering

    def new_namespace(args, kwargs, len=len, str=str):
        """The namespace torch._C._dispatch_library(kind, ns, ...) is asked for."""
        return str(args[1]) if len(args) > 1 else kwargs.get("ns")

    def module_namespace(args, kwargs, _namespaces=library_namespaces, id=id):
        """The namespace of the library whose method is called; one not
        known is aten's."""
        return _namespaces.get(id(args[0]), (None, "aten"))[1] if args else "aten"

    def new_library(*args, _arena_library=(torch._C._dispatch_library, library_namespaces, new_namespace, id),
                    **kwargs):
        original, namespaces, new_namespace, id = _arena_library
        module = original(*args, **kwargs)
        namespaces[id(module)] = (module, new_namespace(args, kwargs))  # held: no new one takes its id
        return module
    del library_namespaces  # (reachable only through the two above: main's frame is readable)
    for name in _GUARD_BYPASSES:
        original = getattr(torch._C, name, None)
        if original is not None:
            replaced[id(original)] = (original, refuse_bypass("torch._C." + name, original))
    # AOTInductor's runners load the library a path names by dlopen, from
    # C++: no audited event, native code of the subject's in its process.
    aoti = getattr(torch._C, "_aoti", None)
    for name in [n for n in dir(aoti) if not n.startswith("_")] if aoti is not None else []:
        original = getattr(aoti, name)
        if callable(original):
            replaced[id(original)] = (original, refusing(
                original, f"torch._C._aoti.{name}", f"torch._C._aoti.{name} (AOTInductor) loads a library "
                "by dlopen, below every observation of the runner's"))
    original = torch._C._dispatch_library
    replaced[id(original)] = (original, refuse_registration("torch._C._dispatch_library", new_library,
                                                            new_namespace))
    original = getattr(torch._C, "_EnablePythonDispatcher", None)
    if original is not None:
        replaced[id(original)] = (original, refuse_registration(
            "torch._C._EnablePythonDispatcher", original, lambda args, kwargs: "_"))
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for key, value in list(namespace.items()):
            hit = replaced.get(id(value))
            if hit is not None and value is hit[0]:
                namespace[key] = hit[1]
    hit = value = None
    del replaced, original  # no original left among the runner's locals (its frame is readable)
    # An operator called at a dispatch key of the caller's choosing skips
    # the keys above it, the guard's among them: an overload's `_op_dk`
    # (in every overload made so far, and in those torch makes later from
    # `_get_operation_overload`) and a dispatcher handle's
    # `redispatch_boxed`.
    from torch._ops import OpOverload
    for overload in gc.get_objects():
        if isinstance(overload, OpOverload) and "_op_dk" in vars(overload):
            vars(overload)["_op_dk"] = refuse_bypass("OpOverload._op_dk", vars(overload)["_op_dk"])
    def get_operation_overload(*args, _arena_original=(torch._C._get_operation_overload, refuse_bypass),
                               **kwargs):
        original, refuse_bypass = _arena_original
        found = original(*args, **kwargs)
        if found is None:
            return found
        op, op_dk, tags = found
        return op, refuse_bypass("OpOverload._op_dk", op_dk), tags
    torch._C._get_operation_overload = get_operation_overload
    handle_class = torch._C._DispatchOperatorHandle
    handle_class.redispatch_boxed = refuse_bypass("_DispatchOperatorHandle.redispatch_boxed",
                                                  handle_class.redispatch_boxed)
    library_class = torch._C._DispatchModule
    for name in _LIBRARY_METHODS:
        if hasattr(library_class, name):
            setattr(library_class, name, refuse_registration(f"_DispatchModule.{name}",
                                                             getattr(library_class, name), module_namespace))

    # Dispatch modes are per thread: a thread started while the subject's
    # code runs (its own, or one a library starts for it) runs inside a
    # guard of its own, from its first line to its last.
    def guarded_thread(start, _made=(subject_runs, state, thread_body, dict, tuple)):
        def start_guarded(function, args, kwargs=None, *, _arena_start=(start,) + _made):
            start, runs, state, thread_body, dict, tuple = _arena_start
            # Once the subject's code is loaded, every new thread is its:
            # the runner starts none of its own then, and subject code can
            # run where no request runs it (a finalizer, when the runner
            # drops a tensor it lent).
            if not runs() and not state["loaded"]:
                return start(function, args, *([kwargs] if kwargs is not None else []))
            return start(thread_body, (function, tuple(args), dict(kwargs or {})))
        return start_guarded
    # multiprocessing's spawn and forkserver start processes through
    # _posixsubprocess.fork_exec, which raises no audit event: refused to
    # the subject's code as the audited ways are.
    _posixsubprocess.fork_exec = refusing(
        pinned_environment(_posixsubprocess.fork_exec, 5, 0), "starting a process",
        "starting a process (fork_exec) is not allowed in a subject's code", allowed=toolchain_forked)
    # (subprocess took its own name for it as it was imported: Popen's
    # starts, audited, get the pinned environment there.)
    import subprocess
    if getattr(subprocess, "_fork_exec", None) is not None:
        subprocess._fork_exec = _posixsubprocess.fork_exec
    import posix
    for name in ("posix_spawn", "posix_spawnp"):
        if hasattr(posix, name):
            spawn = pinned_environment(getattr(posix, name), 2, 1)
            setattr(posix, name, spawn)
            setattr(os, name, spawn)
    # A native module made again from its first state (the import system's
    # _imp makes one of a module already loaded, under its own name or a
    # package's) holds the originals of what the runner replaced in it
    # (_posixsubprocess's fork_exec, _thread's thread start): refused to
    # the subject's code, as are the interpreter's internal modules.
    loaded_builtins = frozenset(sys.builtin_module_names) & frozenset(sys.modules)
    loaded_files = frozenset(os.path.realpath(m.__file__) for m in list(sys.modules.values())
                             if isinstance(getattr(m, "__file__", None), str) and
                             m.__file__.endswith(extension_suffixes))

    interpreters_own = tuple({roots(sysconfig.get_paths()[key])[1] for key in ("stdlib", "platstdlib")})
    # (Triton's launchers are loaded by the runner alone, each file once:
    # load_launcher.)
    triton_cache = os.path.join(triton_cache_folder, "")

    def making_native(original, _made=(subject_runs, loaded_builtins, loaded_files, _INTERPRETER_INTERNALS,
                                       interpreters_own, finding, os.path.realpath, getattr, isinstance, str)):
        def make(spec, *args, _arena_making=(original,) + _made, **kwargs):
            (original, runs, builtins, files, internals, own, finding, realpath, getattr,
             isinstance, str) = _arena_making
            name = str(getattr(spec, "name", "")).rpartition(".")[2]
            origin = getattr(spec, "origin", None)
            real = realpath(origin) if isinstance(origin, str) and origin != "built-in" else None
            again = name in builtins if origin == "built-in" else real in files
            internal = name.startswith(internals) and (origin == "built-in" or (real or "").startswith(own))
            if runs() and (again or internal):
                what = "making a loaded native module again" if again else "loading the interpreter's internal module"
                finding(f"tampering: {what} ({name}) is not allowed in a subject's code")
                raise RuntimeError(f"the arena does not allow {what} ({name})")
            return original(spec, *args, **kwargs)
        return make
    for name in ("create_builtin", "create_dynamic"):
        setattr(_imp, name, making_native(getattr(_imp, name)))
    start_thread = guarded_thread(_thread.start_new_thread)
    for owner, name in ((_thread, "start_new_thread"), (_thread, "start_new"),
                        (threading, "_start_new_thread")):
        if getattr(owner, name, None) is not None:
            setattr(owner, name, start_thread)
    # Held, so that their ids are never reused by new objects.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # isinstance() wakes deprecated lazy attributes
        existing_objects = tuple(o for o in gc.get_objects() if isinstance(o, (type, types.FunctionType)))
    existing = frozenset(id(o) for o in existing_objects)
    sets = {}
    mapped = {}  # first set id -> (number of sets, buffers)
    fn_box = [None]
    pending_fds = []
    buffer = b""
    # Triton's files: its cache (kernels, and the launcher modules Triton
    # loads from it as native code) and what its compiler writes as it
    # compiles (the launcher's C source and library, ptxas's input and
    # output: temporary files and folders, recorded as Triton makes them).
    # The subject's code may not open, rename or link any of them: a
    # launcher of its own under a cached one's name would be native code of
    # the subject's that Triton loads; a source rewritten before gcc reads
    # it, the same. Paths are resolved where the subject's code cannot make
    # a name mean another file between the look and the use: it makes no
    # symbolic link, keeps its working folder, opens no relative path with
    # os.open (which may be relative to a folder's descriptor, which the
    # event does not tell) and renames or links none
    # relative to a folder's descriptor (a folder's descriptor reaches past
    # the look), and opens no descriptor's link under /proc or /dev (a
    # number that names another file once Triton's compiler opens one).
    triton_made = []  # Triton's temporary files and folders, as it makes them (held by the two below alone)

    def reaching_triton_files(event, args, roots=None, _cache=triton_cache, _made=triton_made,
                              _realpath=os.path.realpath, _normpath=os.path.normpath, _abspath=os.path.abspath,
                              _fsdecode=os.fsdecode, _at={"os.remove": 1, "os.rmdir": 1, "os.mkdir": 2,
                                                         "os.chmod": 2},
                              _writing=os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND,
                              bytes=bytes, int=int, len=len, str=str, type=type):
        """Why EVENT, by the subject's code, reaches Triton's files (or,
        with ROOTS, files under those folders) or could name another file
        than the one it names ("" if neither)."""
        if roots is None:
            if event == "os.symlink":
                return "making a symbolic link"
            if event == "os.chdir":
                return "changing the working folder"
            roots = [_cache.rstrip("/")] + _made
        if event in ("os.rename", "os.link", "os.symlink"):
            for fd in args[2:4]:
                if fd is not None and fd != -1:
                    return f"{event} relative to a folder's descriptor"
            paths = args[:2]
        else:
            paths = args[:1]
            if args and type(args[0]) is int:
                return ""  # a descriptor it holds
            at = _at.get(event, 0)
            if at and len(args) > at and args[at] is not None and args[at] != -1:
                return f"{event} relative to a folder's descriptor"
        # A name through ".." is resolved by the kernel from wherever the
        # folder before it is at that moment: a folder moved between the
        # look and the use puts it elsewhere. Refused where the event
        # writes (reading through one reaches nothing).
        writes = event != "os.chdir"
        if event == "open":
            mode = args[1] if len(args) > 1 else None
            flags = args[2] if len(args) > 2 else 0
            writes = (type(mode) is str and ("w" in mode or "a" in mode or "x" in mode or "+" in mode)) or \
                (mode is None and type(flags) is int and flags & _writing != 0)
        for path in paths:
            if type(path) is not str and type(path) is not bytes:
                continue  # (Python hands these events the path it will use, as str or bytes)
            name = _fsdecode(path)
            if writes and ".." in name.split("/"):
                return f"{event} of a path through '..' ({name})"
            if event == "open" and len(args) > 1 and args[1] is None and not name.startswith("/"):
                return "os.open of a relative path"
            plain = _normpath(_abspath(name))
            parts = plain.split("/")
            if plain.startswith(("/dev/fd", "/dev/std")) or \
                    (len(parts) > 2 and parts[1] == "proc" and ("fd" in parts or "fdinfo" in parts or
                                                             "cwd" in parts or "root" in parts)):
                return f"opening a descriptor's link ({name})"
            real = _realpath(name)
            for root in roots:
                if real == root or real.startswith(root + "/"):
                    return f"reaching Triton's own files ({name})"
        return ""

    def audit(event, args, _runs=subject_runs, _trusted=trusted_file, _own_file=__file__,
              _getframe=sys._getframe, _denied=_DENIED_EVENTS, _events=_AUDITED_EVENTS,
              _process=_PROCESS_EVENTS, _compiling=triton_compiling, _native=native_of_its_own,
              _toolchain=toolchain_started, _changed=configuration_changed,
              _reaching=reaching_triton_files, _launchers=(launcher_root,), _files=_FILE_EVENTS,
              _made=triton_made, _outward=("open", "import") + _PROCESS_EVENTS,
              _compiler_events=_FILE_EVENTS + ("tempfile.mkdtemp", "tempfile.mkstemp", "import") + _PROCESS_EVENTS,
              _memory=own_memory, _mapped=_mapped_files, _observer_lib=_OBSERVER, _existing=existing,
              _installation=trusted_roots, finding=finding, _basename=os.path.basename,
              _realpath=os.path.realpath, bool=bool, bytes=bytes, getattr=getattr, id=id, int=int,
              isinstance=isinstance, len=len, map=map, str=str, type=type):
        # (What it rests on comes as default arguments: the runner's module
        # globals and closure cells are the subject's to rewrite.)
        if event == "object.__getattr__":
            if len(args) < 2 or args[1] not in ("__defaults__", "__kwdefaults__"):
                return
        elif not (event.startswith(_denied) or event in _events):
            return
        if not _runs():
            return
        compiling = event in _compiler_events and _compiling()
        if event in ("tempfile.mkdtemp", "tempfile.mkstemp"):
            if compiling and args and type(args[0]) is str:
                _made.append(_realpath(args[0]))
            return
        if compiling and event in _outward:
            # Triton's compiler reaching outside the process (a file, a
            # module, a process): with the configuration the runner started.
            changed = _changed()
            if changed:
                finding(f"tampering: Triton's configuration was changed ({changed}): its compiler reads, "
                        "writes and starts what the arena set, not the subject's code")
                raise RuntimeError("the arena does not allow changing Triton's configuration")
        if event in _files:
            # (Triton's compiler reaches its cache and its temporary files;
            # never the launchers, which are built apart.)
            reached = _reaching(event, args, _launchers if compiling else None)
            if reached:
                finding(f"tampering: {reached} is not allowed in a subject's code")
                raise RuntimeError(f"the arena does not allow {reached}")
        if event == "object.__getattr__":
            # The runner's functions hold the originals they stand for (and
            # what tells who runs) as default arguments: not the subject's
            # to read.
            code = getattr(args[0], "__code__", None)
            if getattr(code, "co_filename", None) == _own_file:
                finding(f"tampering: reading the runner's own {args[1]} is not allowed in a subject's code")
                raise RuntimeError("the arena does not allow reading the runner's defaults")
            return
        refused = event.startswith(_denied)
        if event in ("compile", "code.__new__") and len(args) > 1 and isinstance(args[1], str) and \
                _trusted(args[1]) and not _trusted(_getframe(1).f_code.co_filename):
            # Code of its own under a file name of the runner's or the
            # installation's would pass for theirs on the stack. (torch
            # makes code under its own files' names.)
            finding(f"tampering: code made under the name of a file of the installation's ({args[1]}) "
                    "is not allowed in a subject's code")
            raise RuntimeError("the arena does not allow code made under another file's name")
        if event in _process:
            # The program a start names: Popen's executable or first
            # argument; os.exec's and os.posix_spawn's path; os.system's
            # shell is never Triton's.
            program = ""
            if event == "subprocess.Popen" and len(args) > 1:
                program = args[0] if args[0] else (args[1] if isinstance(args[1], (str, bytes)) else
                                                   (args[1][0] if args[1] else ""))
            elif event in ("os.exec", "os.posix_spawn") and args:
                program = args[0]
            # An environment of its own: Triton's compiler passes none (its
            # processes get the pinned one: pinned_environment).
            own_environment = event == "subprocess.Popen" and len(args) > 3 and args[3] is not None
            refused = event == "os.system" or own_environment or not _toolchain(program)
        if event == "import" and _native(args, _getframe(1)):
            finding(f"tampering: loading native code of its own ({_basename(str(args[1]))}) "
                    "is not allowed in a subject's code")
            raise RuntimeError("the arena does not allow native code of the subject's own")
        if event in ("ctypes.dlopen", "ctypes.dlsym"):
            # Finding a library the process has already loaded changes
            # nothing; loading a new one (cuBLAS by hand, say) is refused.
            # A name with a folder is the file it resolves to, which must be
            # mapped and the installation's: a library of the subject's own
            # under a loaded one's file name (its /tmp/libm.so.6) is new, and
            # so is one it mapped itself (mmap) before opening it.
            name = args[0] if event == "ctypes.dlopen" else getattr(args[0], "_name", "")
            name = str(name) if name else ""
            base = _basename(name)
            mapped = _mapped()
            if "/" in name:
                real = _realpath(name)
                known = real in mapped and real.startswith(_installation)
            else:
                known = bool(name) and name in map(_basename, mapped)
            refused = not known or base == _observer_lib or base.startswith("libcupti")
        if event == "open" and args and not isinstance(args[0], int) and _memory(args[0]):
            # The process's memory as a file: read and written through no
            # op (the outputs computed on the host, under the interpreter),
            # and the runner's own memory (its flags, the launch observer's)
            # rewritten byte by byte.
            finding(f"tampering: opening the process's memory ({args[0]!s}) is not allowed in a "
                    "subject's code")
            raise RuntimeError("the arena does not allow opening the process's memory")
        if event in ("object.__setattr__", "object.__delattr__") and args:
            # Classes and functions of the runner and the libraries, as
            # they were before the subject ran: theirs to read, not to patch.
            # (Classes that libraries create while the subject runs are new.)
            # The runner's functions, whenever made: their defaults are
            # what they rest on.
            refused = id(args[0]) in _existing or \
                getattr(getattr(args[0], "__code__", None), "co_filename", None) == _own_file
        if refused:
            detail = event
            if event == "ctypes.dlopen" and args:
                detail = f"ctypes.dlopen({_basename(str(args[0]))})"
            if event == "object.__setattr__" and len(args) > 1:
                owner = getattr(args[0], "__qualname__", type(args[0]).__name__)
                detail = f"setting {owner}.{args[1]}"
            if event in _process:
                detail = f"starting a process ({event})"
            finding(f"tampering: {detail} is not allowed in a subject's code")
            raise RuntimeError(f"the arena does not allow {detail}")
    sys.addaudithook(audit)
    del triton_made  # not in main's frame, where the subject's code could empty it

    # Setting an attribute of a class or module raises no audit event: the
    # namespaces the guard, the launch count, graph capture and timing rest
    # on are compared, by identity, after every stretch of the subject's
    # code. (Not torch's top module: torch rebinds some of its names lazily.)
    import torch.utils._python_dispatch as python_dispatch
    sealed = [torch.Tensor, torch._C, torch._C.TensorBase, torch._C._TensorMeta, torch._C._DispatchOperatorHandle,
              torch._C._DispatchModule,
              _thread, threading, _posixsubprocess, _imp, builtins, sys.modules[__name__],
              torch.cuda.Event, torch.cuda.Stream, torch.cuda.CUDAGraph, torch.cuda.graphs,
              python_dispatch, TorchDispatchMode, LibraryGuard, MappedBuffer, Buffer,
              LaunchObserver, observer] + launch_classes + triton_sealed
    seal = tuple((obj, types.MappingProxyType(dict(vars(obj)))) for obj in sealed)
    # ... and the classes among them frozen, as the interpreter freezes its
    # own: a method replaced and put back within one of the subject's calls
    # (the guard's dispatch method, say) falls between two of the seal's
    # looks, and a frozen class's attributes, its bases and its instances'
    # __class__ cannot be set. (Its memory is out of the subject's reach:
    # ctypes and the process's memory file are refused to it.)
    for cls in sealed:
        if isinstance(cls, type):
            freeze_class(cls)
    # Python's signal handlers run on the runner's own thread, between
    # requests too (a SIGCONT handler would run as the judge resumes the
    # runner, before its round): code of the subject's outside any call.
    # Those the process has before the subject runs are the only ones.
    import _signal
    get_handler, set_handler = _signal.getsignal, _signal.signal
    handled = types.MappingProxyType({s: get_handler(s) for s in _signal.valid_signals()
                                      if s not in (_signal.SIGKILL, _signal.SIGSTOP)})

    # The garbage collector runs the subject's finalizers and callbacks
    # wherever it collects: it collects on its own only while the subject's
    # code runs (where they are observed like it), not in the runner's own
    # work between requests (a finalizer made to run as the runner wakes
    # before a round would launch library kernels no guard or watch sees).
    # When it runs (its settings) and what it calls back are the runner's.
    gc.disable()
    collector = (gc.get_threshold(), tuple(gc.callbacks), gc.callbacks)
    # Whatever switches it on (a thread of the subject's can, between two of
    # the runner's looks), a collection is counted where nothing can take
    # it back: a collection since the runner's last count, outside the
    # subject's calls, ran finalizers in the runner's own time.
    counted = [gc.get_stats()]

    def collected_in_runners_time(_counted=counted, _stats=gc.get_stats, _finding=finding):
        if _stats() != _counted[0]:
            _counted[0] = _stats()
            _finding("work in the runner's own time: the garbage collector collected while no request "
                    "ran the subject's code (it runs the subject's finalizers where no guard is)")
    sys_hooks = types.MappingProxyType({name: getattr(sys, name) for name in _SYS_HOOKS})
    sys_hook_lists = types.MappingProxyType({name: (getattr(sys, name), tuple(getattr(sys, name)))
                                             for name in _SYS_HOOK_LISTS})

    def check_seal(_arena_seal=(collector, sys_hooks, sys_hook_lists, handled, get_handler, set_handler, seal,
                                finding, gc.get_threshold, gc.set_threshold, sys, types.ModuleType, signal.Signals,
                                (any, bool, delattr, getattr, isinstance, len, setattr, type, vars, zip))):
        (collector, sys_hooks, sys_hook_lists, handled, get_handler, set_handler, seal, finding,
         get_threshold, set_threshold, sys, module_type, signals, builtin) = _arena_seal
        any, bool, delattr, getattr, isinstance, len, setattr, type, vars, zip = builtin
        # (Whether it is on is checked as a call begins: run_subject has
        # switched it off again before this.)
        threshold, callbacks, callback_list = collector
        if get_threshold() != threshold or len(callback_list) != len(callbacks) or \
                any(a is not b for a, b in zip(callback_list, callbacks)):
            finding("tampering: the garbage collector's settings or callbacks were changed (they would "
                    "run the subject's code in the runner's own time)")
            set_threshold(*threshold)
            callback_list[:] = callbacks
        for name, before in sys_hooks.items():
            if getattr(sys, name, None) is not before:
                finding(f"tampering: sys.{name} was replaced (the interpreter would call the subject's "
                        "code in the runner's own time)")
                setattr(sys, name, before)
        for name, (hooks, before) in sys_hook_lists.items():
            now = getattr(sys, name)
            if now is not hooks or len(now) != len(before) or any(a is not b for a, b in zip(now, before)):
                finding(f"tampering: sys.{name} was changed (the interpreter would call the subject's "
                        "code in the runner's own time)")
                hooks[:] = before
                setattr(sys, name, hooks)
        for number, before in handled.items():
            if get_handler(number) is not before:
                try:
                    name = signals(number).name
                except ValueError:
                    name = ""
                finding(f"tampering: a signal handler was installed for signal {number} {name} (it would "
                        "run the subject's code between requests)")
                set_handler(number, before)
        for obj, before in seal:
            now = vars(obj)
            owner = getattr(obj, "__name__", type(obj).__name__)
            for key, value in before.items():
                current = now.get(key, seal)
                if type(value) is bool and type(current) is bool:
                    # A flag, not a way of observing: torch's modes set the
                    # dispatch module's own while one is entered (a guard in
                    # a thread the subject started may still be).
                    continue
                if current is not value:
                    finding(f"tampering: {owner}.{key} was replaced or removed")
                    try:
                        setattr(obj, key, value)  # put back for the next call
                    except (AttributeError, TypeError):
                        pass
            if not isinstance(obj, module_type) and len(now) != len(before):
                # A new name on a class shadows what its bases define, and
                # one on an instance (the launch observer) its class's.
                # (Modules: torch adds names of its own lazily.)
                for key in [k for k in now if k not in before]:
                    finding(f"tampering: {owner}.{key} was added")
                    try:
                        delattr(obj, key)
                    except (AttributeError, TypeError):
                        pass

    def run_subject(thunk, marks_calls=False, _arena_run=(state, observer, subject_call, check_seal,
                                                          collected_in_runners_time, counted, finding,
                                                          gc.isenabled, gc.enable, gc.disable, gc.get_stats,
                                                          LaunchObserver.SUBJECT, LaunchObserver.RUNNER)):
        """Runs THUNK as the subject's code: the subject's own, or (with
        MARKS_CALLS) the runner's, which calls the subject's through
        subject_call itself."""
        (state, observer, subject_call, check_seal, collected_in_runners_time, counted, finding,
         collecting, enable, disable, stats, subject_mode, runner_mode) = _arena_run
        if collecting():
            finding("tampering: the garbage collector was switched on outside the subject's calls (it "
                    "would run the subject's finalizers in the runner's own time)")
        collected_in_runners_time()
        # (The guard is on this thread already, from the first request on:
        # the subject's code runs inside it, and so does the runner's own
        # work, where the guard tells the subject's code apart by the facts.)
        try:
            state["candidate"] = True
            observer.watch(subject_mode)
            enable()
            try:
                return thunk() if marks_calls else subject_call(thunk)
            finally:
                disable()
                counted[0] = stats()  # no Python call between: the subject's collections
                observer.watch(runner_mode)
                state["candidate"] = False
        finally:
            check_seal()

    # On a GPU, the runner polls its socket where the judge's next word
    # comes within a timed round (the "go" between a replay's two parts,
    # and the timed request after the wake's empty round trip), for up to
    # SPIN_S, before it sleeps: a sleeping thread's wake-up, which on some
    # machines costs one runner process about 100 us more than the other
    # (round-parts-h100-2026-12-07), stays out of the round.
    spin_s = _SPIN_S if device == "cuda" else 0.0

    def await_word(word, _recv=sock.recv, _loads=loads, _spin_s=spin_s, _clock=clock, _polled=poll,
                   bytes=bytes, RuntimeError=RuntimeError):
        """Waits for the judge's {"op": WORD} (it took a witness, or may)."""
        data = b""
        until = _clock() + _spin_s
        while not data.endswith(b"\n"):
            chunk = _polled(_recv, (4096,), until, _clock)
            if not chunk:
                raise RuntimeError("the judge went away while it took a witness")
            data += bytes(chunk)
        if _loads(data) != {"op": word}:
            raise RuntimeError(f"not the protocol: the judge's {word} expected")

    def runners_own(thunk, _arena_own=(state, observer, LaunchObserver.SUBJECT, LaunchObserver.RUNNER)):
        """THUNK, the runner's own work, run between two of the subject's
        calls within one request (no code of the subject's on the stack):
        the flag down and the launch observer on the runner's work, then
        both as they were."""
        state, observer, subject_mode, runner_mode = _arena_own
        was = state["candidate"]
        state["candidate"] = False
        observer.watch(runner_mode)
        try:
            return thunk()
        finally:
            if was:
                observer.watch(subject_mode)
            state["candidate"] = was

    def pause_for_witness(i, _arena_pause=(runners_own, synchronize, say, await_word)):
        """The GPU waited for, and the judge told that call I is done: it
        copies that set's outputs into its own memory, where nothing the
        subject does later reaches them, then says to resume."""
        runners_own, synchronize, say, await_word = _arena_pause

        def pause(_i=i, _synchronize=synchronize, _say=say, _await_word=await_word):
            _synchronize()
            _say({"pause": _i})
            _await_word("resume")
        runners_own(pause)

    def call_sets(ids, params, chance=0.0, capture=False,
                  _arena_sets=(fn_box, sets, subject_call, pause_for_witness, runners_own, os.urandom,
                               int.from_bytes, functools.partial, enumerate, int,
                               torch.cuda.CUDAGraph if device == "cuda" else None,
                               torch.cuda.CUDAGraph.capture_begin if device == "cuda" else None,
                               torch.cuda.CUDAGraph.capture_end if device == "cuda" else None,
                               torch.cuda.graph_pool_handle if device == "cuda" else None)):
        """The subject called on each set of IDS, in order. With CHANCE, each
        call is witnessed with that chance, drawn once it has returned: the
        runner waits for the GPU and pauses while the judge copies the set's
        outputs into its own memory (a call's work is done when it returns;
        work left for a later call of the round, which would batch the
        round's calls, is seen there). The subject cannot know which call is
        witnessed before it returns, nor reach what the judge copied. With
        CAPTURE, each call is captured as a CUDA graph of its own (all of
        them in one memory pool, replayed in order), and the graphs are
        returned in the order of the calls: a tuple, which the subject's
        code cannot reorder (nor, calling their classes' own methods, make
        a graph answer for another)."""
        (fn_box, sets, subject_call, pause_for_witness, runners_own, urandom, from_bytes, partial, enumerate,
         int, CUDAGraph, capture_begin, capture_end, graph_pool_handle) = _arena_sets
        fn = fn_box[0]
        bar = int(chance * 4294967296.0)
        pool = graph_pool_handle() if capture else None
        captured = ()
        for i, k in enumerate(ids):
            if not capture:
                subject_call(partial(fn, **sets[k], **params))
            else:
                # (torch's capture fills its generators' state: the runner's
                # own work, as it is between requests.)
                piece = CUDAGraph(keep_graph=True)
                runners_own(partial(capture_begin, piece, pool=pool))
                try:
                    subject_call(partial(fn, **sets[k], **params))
                finally:
                    runners_own(partial(capture_end, piece))
                captured += (piece,)
            if bar > 0 and from_bytes(urandom(4), "little") < bar:
                pause_for_witness(i)
        return captured

    def load(req, _arena_load=(cache_seed, observer, pending_fds, run_subject, state, workspace, fn_box,
                               toolchain_environment)):
        cache_seed, observer, pending_fds, run_subject, state, workspace, fn_box, environment = _arena_load
        if not environment:
            # The environment the toolchain gets from now on.
            data = dict(vars(os.environ)["_data"])
            environment += [[key + b"=" + value for key, value in data.items()], data]
        if cache_seed and os.path.isdir(cache_seed):
            # The kernels the baseline compiled (a live view of its cache,
            # read-only: its compile stage came first), into this runner's
            # own cache, which lives in its private /tmp: it writes nothing
            # to the host's disk, and kernels it left as they were are not
            # compiled again.
            seed_cache(cache_seed, os.environ["TRITON_CACHE_DIR"])
        if int(req.get("key_fds", 0)) > 0:
            if not pending_fds:
                raise RuntimeError("the observer's key is missing")
            observer.key(pending_fds.pop(0))
        file_name, _, func = req["entry"].partition(":")
        path = os.path.join(workspace, file_name)
        if not os.path.isfile(path):
            raise RuntimeError(f"{file_name} is missing")
        sys.path.insert(0, workspace)
        state["native_guard"] = lock_native_code()
        state["loaded"] = True
        module = import_file(path, "subject_" + file_name[:-3].replace("/", "_"), run_subject)
        fn = getattr(module, func, None)
        if not callable(fn):
            raise RuntimeError(f"{file_name} defines no function '{func}'")
        fn_box[0] = fn
        return {}

    del toolchain_environment  # (load's, the toolchain's and the check's alone)

    def bind(req, _arena_bind=(device, mapped, pending_fds, sets, torch._C._DisableTorchDispatch)):
        device, mapped, pending_fds, sets, no_dispatch = _arena_bind
        need = int(req.get("nfds", 0))
        if len(pending_fds) < need:
            raise RuntimeError("buffer descriptors missing")
        fds = [pending_fds.pop(0) for _ in range(need)]
        buffers = []
        for desc in req["buffers"]:
            # A memory file comes as one descriptor; device memory as one
            # for each of its pieces.
            count = MappedBuffer.descriptors(desc)
            if count > len(fds):
                raise RuntimeError("buffer descriptors missing")
            take, fds[:count] = fds[:count], []
            buffers.append(MappedBuffer.open(desc, take, device))
        # The sets' views, thousands of them, made past the library guard
        # (a dispatch mode: about 0.1 ms an op through it): the runner's
        # own work on its own thread (the mode stays on for every other
        # thread, and on this one after), which calls nothing the subject's
        # code can replace (Buffer and torch.Tensor are frozen and sealed,
        # _DTYPES read-only, the buffers made here).
        with no_dispatch():
            for i, spec_set in enumerate(req["sets"]):
                tensors = {}
                for name, spec in spec_set.items():
                    buf = buffers[int(spec["buffer"])]
                    tensors[name] = buf.view(_DTYPES[spec["dtype"]], spec["shape"],
                                             int(spec.get("offset", 0)))
                sets[int(req["first_id"]) + i] = tensors
        mapped[int(req["first_id"])] = (len(req["sets"]), buffers)
        return {}

    # The captured calls and their chains (capture) are kept where the
    # subject's code cannot rewrite them: a local of the main loop's (this
    # function's, not a cell), handed to the requests that use them
    # (_GRAPH_OPS) and taken back from them. Were they in a list, its code
    # could put chains of its own making there (the runner's GraphChain is
    # within its reach), run in witnessed rounds and timed ones alike but
    # not in the order the calls were made.
    def drop_graph(graphs, _chains=chains):
        """The captured calls and their chains let go of (the chains first:
        they run in the calls' memory pool)."""
        for _, first, rest in (graphs[1] if graphs else ()):
            _chains.destroy(first)
            _chains.destroy(rest)

    def unbind(req, graphs, _arena_unbind=(drop_graph, mapped, run_subject, sets)):
        drop_graph, mapped, run_subject, sets = _arena_unbind
        drop_graph(graphs)
        dropped, freed = [], []
        for first in req["ids"]:
            count, buffers = mapped.pop(int(first), (0, []))
            for k in range(int(first), int(first) + count):
                dropped.append(sets.pop(k, None))
            freed.extend(buffers)
        # The lent tensors die here: a finalizer the subject put on one runs
        # now, observed as its code is.
        run_subject(dropped.clear)
        for buf in freed:
            buf.free()
        return {}, None

    def call(req, _arena_call=(call_sets, finding, fn_box, run_subject, state, synchronize, _WITNESSES_PER_ROUND,
                               len)):
        call_sets, finding, fn_box, run_subject, state, synchronize, witnesses_per_round, len = _arena_call
        if fn_box[0] is None:
            raise RuntimeError("nothing loaded")
        before = state["launches"]
        # Calls of several sets are witnessed (call_sets): nothing in the
        # request says whether, which a thread of the subject's could
        # rewrite before it is read.
        ids = req["sets"]
        chance = witnesses_per_round / len(ids) if len(ids) > 1 else 0.0
        run_subject(functools.partial(call_sets, ids, req["params"], chance), marks_calls=True)
        synchronize()
        launches = state["launches"] - before
        if launches == 0:
            finding("no Triton kernel was launched: the outputs came from elsewhere")
        return {"launches": launches}

    def capture(req, graphs, _arena_capture=(call_sets, counted, device, finding, run_subject, state,
                                             synchronize, chains, drop_graph, sets, os.urandom, int.from_bytes,
                                             int, len, tuple, RuntimeError, _SPLITS,
                                             torch._C._CUDAGraph.raw_cuda_graph if device == "cuda" else None,
                                             costs, clock)):
        (call_sets, counted, device, finding, run_subject, state, synchronize, chains, drop_graph, sets,
         urandom, from_bytes, int, len, tuple, RuntimeError, _SPLITS, raw_graph, costs, clock) = _arena_capture
        drop_graph(graphs)
        if device != "cuda":
            raise RuntimeError("graph capture needs a GPU")
        ids, params = req["sets"], req["params"]
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            run_subject(functools.partial(call_sets, ids[:2], params), marks_calls=True)
        torch.cuda.current_stream().wait_stream(stream)
        synchronize()
        before = state["launches"]
        # The subject's garbage collected first, observed as its code is,
        # so that nothing of it is left for a collection in the runner's
        # own time to finalize.
        mark = clock()
        run_subject(gc.collect)
        costs["collect_s"] = clock() - mark
        mark = clock()
        # One graph per call, chained below (arena_buffers.GraphChain).
        # Captured on a stream of the runner's own (not the default stream).
        with torch.cuda.stream(stream):
            counted[0] = gc.get_stats()
            pieces = run_subject(functools.partial(call_sets, ids, params, 0.0, True), marks_calls=True)
        synchronize()
        costs["captured_s"] = clock() - mark
        if state["launches"] == before:
            finding("no Triton kernel was launched: the outputs came from elsewhere")
        if len(pieces) != len(ids):
            raise RuntimeError("a call of the capture was not captured")
        # Every round replays one of _SPLITS splits of the chain, drawn here
        # once the calls are captured: the calls up to a secret one (their
        # end marked in the judge's memory), then the rest once the judge
        # says "go" (replay). Built now, from the calls as captured: every
        # round, witnessed or timed, runs the same chains.
        handles = [raw_graph(p) for p in pieces]
        marker = sets[int(req["marker"])]["marker"].data_ptr()
        splits = []
        try:
            if len(handles) == 1:
                splits.append((0, chains.chain(handles, marker), 0))
            # (The first part at least a tenth of the calls: its GPU time
            # then covers the round trip to the judge, and a timed round
            # runs without a gap.)
            least = len(handles) // 10
            for _ in range(_SPLITS if len(handles) > 1 else 0):
                at = least + from_bytes(urandom(4), "little") % (len(handles) - 1 - least)
                splits.append((at, chains.chain(handles[:at + 1], marker), 0))
                splits[-1] = (at, splits[-1][1], chains.chain(handles[at + 1:]))
        except BaseException:
            drop_graph((pieces, splits))
            raise
        return {}, (pieces, tuple(splits))

    def replay(req, graphs, _arena_replay=(chains, synchronize, say, await_word, torch.cuda.current_stream,
                                           clock, int, len, RuntimeError)):
        """The captured calls, once: the first part of the split the request
        names, a word to the judge (which may witness the first part's
        outputs, and says "go"), then the rest. Its costs (the runner's
        clock: the first part's launch, the wait for "go", the rest's launch
        and the wait for the GPU) are for the report alone."""
        chains, synchronize, say, await_word, current_stream, clock, int, len, RuntimeError = _arena_replay
        if not graphs:
            raise RuntimeError("nothing captured")
        splits = graphs[1]
        at, first, rest = splits[int(req.get("split", 0)) % len(splits)]
        began = clock()
        chains.launch(first, current_stream().cuda_stream)
        said = waited = clock()
        if rest:
            say({"split": at})
            await_word("go")
            waited = clock()
            chains.launch(rest, current_stream().cuda_stream)
        synchronize()
        ended = clock()
        return {"costs": {"first_launch_s": said - began, "go_wait_s": waited - said,
                          "rest_s": ended - waited}}, graphs

    def empty(req, _synchronize=synchronize):
        _synchronize()
        return {}

    def observer_op(req, _observer=observer):
        return {"observer": _observer.description}

    handlers = types.MappingProxyType({"load": load, "bind": bind, "unbind": unbind, "call": call,
                                       "capture": capture, "replay": replay, "empty": empty,
                                       "observer": observer_op})
    held = closures_held(gc.get_objects())
    if held:
        raise RuntimeError("the runner's functions hold closure cells (the subject's to rewrite): " +
                           "; ".join(held))
    # The guard on the runner's thread for good: pushed here, by the runner,
    # and never popped (popping it is refused to the subject's code).
    guard.__enter__()
    # Everything the runner made so far lives as long as it does: out of
    # the collector's reach, its collections (the subject's, and the one
    # before each capture) walk the subject's objects alone.
    gc.freeze()
    startup["ready_s"] = clock() - _STARTED - waited
    captured_graphs = None  # (see drop_graph)
    polled_until = 0.0  # after an empty round trip (a wake), the next request is polled for
    while True:
        while b"\n" not in buffer:
            data, fds, _, _ = poll(recv_fds, (sock, 1 << 20, _FDS_PER_MESSAGE), polled_until, clock)
            pending_fds.extend(fds)
            if not data:
                return
            buffer += data
        line, buffer = buffer.split(b"\n", 1)
        req = loads(line)
        if req.get("op") == "quit":
            return
        op = req.get("op")
        # Watched: the subject's code (run_subject) and the time between
        # requests (a thread the subject left running, whose every launch is
        # a finding); not the runner's own work (torch's graph capture fills
        # its generator's state, say).
        observer.watch(LaunchObserver.RUNNER)
        costs.clear()
        began = clock()
        try:
            if op in _GRAPH_OPS:
                graphs, captured_graphs = captured_graphs, None
                reply, captured_graphs = handlers[op](req, graphs)
            else:
                reply = handlers[op](req)
            reply["ok"] = True
        except BaseException as e:  # noqa: BLE001: the subject's failure, reported
            if op == "replay":
                captured_graphs = graphs  # (a replay that failed keeps them)
            state["candidate"] = False
            first = str(e).splitlines()[0] if str(e) else ""
            reply = {"ok": False, "error": f"{type(e).__name__}: {first}",
                     "log": traceback.format_exc()[-8000:]}
        collected_in_runners_time()
        handled_at = clock()
        seen = observer.take(state) if op not in _RUNNERS_OWN else None
        if seen is not None:
            reply["observed"] = seen
        if op in _COSTED_OPS:
            costs.update(request_s=handled_at - began, observer_take_s=clock() - handled_at)
            reply["costs"] = dict(costs, **startup) if op == "load" else dict(costs)
        observer.watch(LaunchObserver.BETWEEN)
        say(reply)
        polled_until = clock() + spin_s if op == "empty" else 0.0


if __name__ == "__main__":
    main()
