"""Unit tests of the Python harness's pieces that need no GPU: the
expression evaluator never runs task text as code; a runner client blames
the subject for a process that dies, hangs or breaks the protocol; a
runner's cache is seeded without rewriting a file it may have mapped."""

import functools
import gc
import json
import ctypes
import os
import signal
import sys
import tempfile
import time
import types
import unittest

import arena_judge
from arena_harness import TaskError, bitwise_equal, evaluate
from arena_judge import RunnerClient, SubjectFailure, launch_findings, parse_report

# A stand-in runner's start: its socket, and a function that reads the
# judge's next line.
_LINES = ("import json, socket\ns = socket.socket(fileno=0)\n"
          "def line():\n"
          "    data = b''\n"
          "    while not data.endswith(b'\\n'):\n"
          "        data += s.recv(100)\n"
          "    return json.loads(data)\n")


class EvaluateTest(unittest.TestCase):
    def test_the_cores_grammar(self):
        self.assertEqual(evaluate("ceil_div(n, 128) * 4", {"n": 1000}), 32)
        self.assertEqual(evaluate("2 ** 3 + -n // 3", {"n": 10}), 4)
        self.assertEqual(evaluate("max(n, 7) % 5", {"n": 3}), 2)
        self.assertEqual(evaluate(5, {}), 5)

    def test_task_text_is_never_code(self):
        for text in ['__import__("os").system("touch /tmp/pwned")', "(1).__class__",
                     "n if n else 2", 'open("/etc/passwd")', "[n]", "lambda: 1", "n.real",
                     "9 ** 999999", "missing + 1", "True", "1 / 0"]:
            with self.assertRaises(TaskError, msg=text):
                evaluate(text, {"n": 3})


class BitwiseEqualTest(unittest.TestCase):
    def test_bytes_decide_for_every_dtype(self):
        import torch
        x = torch.tensor([1.0, float("nan"), 0.0])
        self.assertTrue(bitwise_equal(x, x.clone()))
        y = x.clone()
        y[2] = -0.0  # equal as numbers, not as bytes: an input was written
        self.assertFalse(bitwise_equal(x, y))
        for dtype in (torch.float8_e4m3fn, torch.bfloat16, torch.int8, torch.bool):
            t = torch.ones(5).to(dtype)
            u = t.clone()
            self.assertTrue(bitwise_equal(t, u), dtype)
            u.view(torch.uint8)[0] ^= 2
            self.assertFalse(bitwise_equal(t, u), dtype)
        self.assertTrue(bitwise_equal(torch.zeros(0, 3), torch.zeros(0, 3)))
        self.assertFalse(bitwise_equal(torch.zeros(2), torch.zeros(2, 1)))


class LentMemoryTest(unittest.TestCase):
    """CPU buffers: sealed memory files, shared through descriptors."""

    def test_shared_and_sealed_at_its_size(self):
        import torch
        from arena_buffers import BufferPool, MappedBuffer
        pool = BufferPool("cpu")
        buf = pool.allocate(1000)
        desc, fds = pool.describe(buf)
        self.assertEqual(desc, {"kind": "memfd", "nbytes": 1024})  # rounded up
        fd = os.dup(fds[0])
        view = MappedBuffer.open(desc, fds, "cpu")
        view.tensor[:4] = torch.tensor([1, 2, 3, 4], dtype=torch.uint8)
        self.assertEqual(buf.tensor[:4].tolist(), [1, 2, 3, 4])  # the judge sees it
        buf.tensor[10] = 7
        self.assertEqual(int(view.tensor[10]), 7)
        # What the runner holds cannot shrink the judge's mapping (its
        # reads would fault) nor grow the memory.
        for size in (0, 512, 1 << 30):
            with self.assertRaises(PermissionError, msg=size):
                os.ftruncate(fd, size)
        import fcntl
        with self.assertRaises(PermissionError):
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, 0)  # the seals cannot be taken off or added
        with self.assertRaises(PermissionError):
            os.posix_fallocate(fd, 0, 1 << 20)
        self.assertEqual(os.fstat(fd).st_size, 1024)
        os.close(fd)
        with self.assertRaises(ValueError):
            MappedBuffer.open({"kind": "file", "path": "/etc/passwd", "nbytes": 8}, [], "cpu")
        buf.free()


class PinnedDescriptorTest(unittest.TestCase):
    """A runner's channel to the judge, kept for good (pin_descriptor): in a
    child process, since a filter stays for the process that sets it."""

    def test_the_pinned_descriptor_cannot_be_closed_nor_replaced(self):
        import subprocess
        child = r"""
import os, socket, sys
from arena_buffers import pin_descriptor
mine, theirs = socket.socketpair()
other = os.pipe()
fd = mine.fileno()
assert pin_descriptor(fd) == ""
for what, attempt in (("dup2", lambda: os.dup2(other[0], fd)),
                      ("dup3", lambda: os.dup2(other[0], fd, inheritable=False)),
                      ("close", lambda: os.close(fd))):
    try:
        attempt()
        sys.exit(what + " was allowed")
    except PermissionError:
        pass
os.closerange(fd, fd + 1)  # close_range refused; the fallback's close too, unseen
theirs.sendall(b"x")
assert mine.recv(1) == b"x", "not the socket it was"
os.dup2(other[0], other[1])  # other descriptors as ever
os.close(other[1])
print("pinned")
"""
        done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        self.assertEqual(done.stdout.strip(), "pinned")


class RunnerOwnStateTest(unittest.TestCase):
    """What keeps the runner's own functions and classes out of reach of
    the code they observe."""

    def test_a_function_that_holds_a_cell_is_named(self):
        import arena_runner
        namespace = {}
        # Made under the runner's file name, as its own functions are.
        exec(compile("def outer(x):\n    def inner(y=x):\n        return y\n"
                     "    def held():\n        return x\n    return inner, held\n",
                     arena_runner.__file__, "exec"), namespace)
        inner, held = namespace["outer"](1)
        self.assertEqual(arena_runner.closures_held([inner]), [])
        self.assertEqual(arena_runner.closures_held([inner, {"a": 1}, held]), ["outer.<locals>.held (x)"])
        # Functions of other files are not the runner's.
        self.assertEqual(arena_runner.closures_held([lambda: namespace]), [])
        # Every object of this process: the one made above, alone.
        self.assertEqual(arena_runner.closures_held(gc.get_objects()), ["outer.<locals>.held (x)"])
        del held
        self.assertEqual(arena_runner.closures_held(gc.get_objects()), [])

    def test_what_runs_beside_the_subjects_code_loads_no_global(self):
        """A global or builtin a function of the runner loads is looked up
        as it runs: the subject's code can rebind it for one call and put
        it back between two of the seal's looks. So every function of the
        runner's takes what it uses as default arguments, except those
        named here, which run in the runner's own time alone (as it starts,
        or between two stretches of the subject's code, after the seal's
        look). An exception class may be loaded anywhere: raising or
        catching another one only fails."""
        import arena_runner
        import builtins
        import dis
        runners_own_time = {
            # module level: as the runner starts or loads the subject
            "<module>", "main", "await_go", "closures_held", "freeze_class", "freeze_classes", "LaunchObserver",
            "LaunchObserver.start", "LaunchObserver.key", "LaunchObserver.take", "import_file",
            "warm_up_triton", "seed_cache", "lock_native_code", "launcher_building", "ptxas_programs", "binaries_of_triton",
            # the launcher builder: its runner's end is made as the runner
            # starts; it serves in a process of its own, outside the sandbox
            "LauncherBuilder", "LauncherBuilder.__init__", "LauncherBuilder.connect", "LauncherBuilder.serve",
            "serve_launchers", "_launcher_signature", "_launcher_signature.kind", "main.launcher_module",
            # main's: made as it starts (factories, tables, the guard's class
            # body), or requests it handles around the subject's stretches
            "main.roots", "main.overloads", "main.LibraryGuard", "main.host_escape",
            "main.refuse_registration", "main.check_seal", "main.load", "main.bind", "main.unbind",
            "main.call", "main.capture", "main.starting_files"}
        exceptions = {name for name, value in vars(builtins).items()
                      if isinstance(value, type) and issubclass(value, BaseException)}
        with open(arena_runner.__file__) as f:
            top = compile(f.read(), arena_runner.__file__, "exec")
        loaded = {}

        def walk(code, path):
            for const in code.co_consts:
                if isinstance(const, types.CodeType):
                    name = const.co_name
                    inner = f"{path}.{name}" if path else name
                    # Comprehensions directly in a function that runs in the
                    # runner's own time run there too.
                    comprehension = name.startswith("<") and name != "<lambda>"
                    if not (comprehension and (path or "<module>") in runners_own_time):
                        globals_loaded = {i.argval for i in dis.get_instructions(const)
                                          if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")} - exceptions
                        if globals_loaded and inner not in runners_own_time:
                            loaded[inner] = sorted(globals_loaded)
                    walk(const, path if comprehension else inner)
        walk(top, "")
        self.assertEqual(loaded, {})

    def test_a_frozen_class_cannot_be_set(self):
        import arena_runner

        class Guard:
            def dispatch(self):
                return "guard"

        class Other:
            pass
        arena_runner.freeze_class(Guard)
        arena_runner.freeze_class(Guard)  # twice: nothing changes
        with self.assertRaises(TypeError):
            Guard.dispatch = lambda self: "through"
        with self.assertRaises(TypeError):
            type.__setattr__(Guard, "dispatch", lambda self: "through")
        with self.assertRaises(TypeError):
            Guard().__class__ = Other
        self.assertEqual(Guard().dispatch(), "guard")
        Other.x = 1  # others stay as they were


class LauncherBuilderTest(unittest.TestCase):
    """Triton's launchers, built by a process outside the runner's sandbox
    from a kernel's signature alone, kept for the machine
    (arena_runner.LauncherBuilder). A stand-in template here (a Python
    extension that says which process wrote its source and for which
    signature) and the real C compiler."""

    _TEMPLATE = """
#include <Python.h>
static PyObject *launch(PyObject *self, PyObject *args) {
  return Py_BuildValue("(is)", %(pid)d, "%(signature)s");
}
static PyMethodDef methods[] = {{"launch", launch, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "__triton_launcher", NULL, -1, methods};
PyMODINIT_FUNC PyInit___triton_launcher(void) { return PyModule_Create(&module); }
"""

    @staticmethod
    def make_launcher(constants, signature, tensordesc_meta):
        if "fails" in repr(signature):
            raise KeyError("fails")
        # (The same source from every builder: the signature alone.)
        return LauncherBuilderTest._TEMPLATE % {"pid": os.getppid(),
                                                "signature": repr(list(signature.values())).replace('"', "'")}

    @staticmethod
    def build(name, source_path, scratch):
        import shutil
        import subprocess
        import sysconfig
        library = os.path.join(scratch, name + sysconfig.get_config_var("EXT_SUFFIX"))
        compiler = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
        subprocess.check_call([compiler, source_path, "-shared", "-fPIC", "-o", library,
                               "-I" + sysconfig.get_paths()["include"]])
        return library

    def builder(self, root, toolchain="toolchain A", most=None):
        """(the runner's end, the builder's pid): a builder forked to serve
        over a socket, as the judge starts one."""
        import socket

        import arena_runner
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                # (As the judge starts one: nothing of the test's but its socket.)
                os.closerange(3, theirs.fileno())
                os.closerange(theirs.fileno() + 1, 1 << 16)
                if most is not None:
                    arena_runner.LauncherBuilder._MOST_BUILT = most
                arena_runner.LauncherBuilder.serve(theirs.fileno(), self.make_launcher, self.build, root, toolchain)
                code = 0
            finally:
                os._exit(code)
        theirs.close()
        self.addCleanup(ours.close)
        return arena_runner.LauncherBuilder.connect(ours.fileno(), root), pid, ours

    def test_a_launcher_is_built_apart_once_for_the_machine_and_loads(self):
        import _imp
        import importlib.machinery

        import arena_runner
        with tempfile.TemporaryDirectory() as root:
            builder, pid, end = self.builder(root)
            signature = {0: "*fp32", 1: "i32", 2: ("i64", "*bf16"), 3: "constexpr"}
            path = builder.build(arena_runner.launcher_request(signature, None))
            self.assertRegex(os.path.relpath(path, os.path.realpath(root)), r"^[0-9a-f]{16}/[0-9a-f]{64}\.so$")
            self.assertEqual(os.stat(path).st_mode & 0o777, 0o555)
            module = _imp.create_dynamic(importlib.machinery.ModuleSpec("__triton_launcher", None, origin=path))
            made_by, said = module.launch()
            self.assertEqual(made_by, os.getpid())  # (the builder's parent: its source was made there)
            self.assertEqual(said, "['*fp32', 'i32', ('i64', '*bf16'), 'constexpr']")
            # The same signature: the same file, not built again, by this
            # builder or by the next one on the machine.
            before = os.stat(path)
            self.assertEqual(builder.build(arena_runner.launcher_request(signature, None)), path)
            second, second_pid, second_end = self.builder(root)
            self.assertEqual(second.build(arena_runner.launcher_request(signature, None)), path)
            self.assertEqual((os.stat(path).st_ino, os.stat(path).st_mtime_ns), (before.st_ino, before.st_mtime_ns))
            # Nothing but the launchers is left in the folder.
            self.assertEqual(os.listdir(os.path.dirname(path)), [os.path.basename(path)])
            # Another toolchain (Triton, Python, compiler's folders): another folder.
            third, third_pid, third_end = self.builder(root, toolchain="toolchain B")
            other = third.build(arena_runner.launcher_request(signature, None))
            self.assertNotEqual(os.path.dirname(other), os.path.dirname(path))
            self.assertEqual(os.path.basename(other), os.path.basename(path))
            # The builder's errors come back as errors; it serves on.
            with self.assertRaisesRegex(RuntimeError, "KeyError: 'fails'"):
                builder.build(arena_runner.launcher_request({0: "fails"}, None))
            another = builder.build(arena_runner.launcher_request({0: "*fp16"}, [{"block": [64, 64]}]))
            self.assertNotEqual(another, path)
            for e, p in ((end, pid), (second_end, second_pid), (third_end, third_pid)):
                e.close()  # the runner's end closed: the builder ends
                self.assertEqual(os.waitpid(p, 0)[1], 0)

    def test_the_builders_process_imports_no_torch(self):
        # (Every evaluation starts one beside each runner: torch's import
        # would hold up each runner's first launch by seconds.)
        import subprocess

        import arena_runner
        with tempfile.TemporaryDirectory() as root:
            done = subprocess.run([sys.executable, "-X", "importtime", arena_runner.__file__,
                                   "--launcher-builder=" + root], stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
        self.assertIn("triton", imported)
        self.assertNotIn("torch", imported)

    def test_a_builder_builds_a_bounded_number(self):
        import arena_runner
        with tempfile.TemporaryDirectory() as root:
            builder, pid, end = self.builder(root, most=2)
            first = builder.build(arena_runner.launcher_request({0: "i32"}, None))
            builder.build(arena_runner.launcher_request({0: "i64"}, None))
            with self.assertRaisesRegex(RuntimeError, "more than 2 launchers"):
                builder.build(arena_runner.launcher_request({0: "i8"}, None))
            # What is built already is still handed out.
            self.assertEqual(builder.build(arena_runner.launcher_request({0: "i32"}, None)), first)
            end.close()
            self.assertEqual(os.waitpid(pid, 0)[1], 0)

    def test_the_runner_takes_no_name_outside_the_folder(self):
        import socket
        import struct
        import threading

        import arena_runner
        for name in ("../../etc/x.so", "/tmp/x.so", "0123456789abcdef/x.so", "a" * 16 + "/" + "b" * 64 + ".py",
                     7, None):
            ours, theirs = socket.socketpair()

            def answer(_sock=theirs, _name=name):
                size = struct.unpack("!I", _sock.recv(4))[0]
                while size > 0:
                    size -= len(_sock.recv(size))
                data = json.dumps({"name": _name}).encode()
                _sock.sendall(struct.pack("!I", len(data)) + data)
            t = threading.Thread(target=answer)
            t.start()
            builder = arena_runner.LauncherBuilder.connect(ours.fileno(), "/opt/launchers")
            with self.assertRaisesRegex(RuntimeError, "launcher builder failed", msg=repr(name)):
                builder.build(arena_runner.launcher_request({0: "i32"}, None))
            t.join()
            ours.close()
            theirs.close()

    def test_only_plain_signatures_are_asked_for(self):
        import arena_runner

        class Name(str):
            pass

        class Values(dict):
            pass
        for signature, meta in (({0: "i32; system(x)"}, None), ({0: Name("i32")}, None),
                                (Values({0: "i32"}), None), ({0: ["i32"]}, None), ({0: 3}, None),
                                ({0: "i32"}, [{"block": object()}]), ({0: "i32"}, [{1: 2}]),
                                ({0: "i32"}, {"block": 1}), ({0: "x" * 201}, None)):
            with self.assertRaises(ValueError, msg=repr((signature, meta))):
                arena_runner.launcher_request(signature, meta)
        self.assertEqual(arena_runner.launcher_request({3: ("*fp32", "i1"), 4: "tensordesc<fp16[64, 64]>"},
                                                       [{"swizzle": 128, "fp4_padded": False}]),
                         b'{"signature": [["*fp32", "i1"], "tensordesc<fp16[64, 64]>"], '
                         b'"tensordesc_meta": [{"swizzle": 128, "fp4_padded": false}]}')


class BinariesOfTritonTest(unittest.TestCase):
    """The kernels a subject may launch as its own: functions loaded from
    binaries Triton's compile made from an ASTSource (Triton's own classes
    stand in here: the GPU runs the real ones)."""

    def test_only_what_the_compiler_made_from_a_jit_function_counts(self):
        import arena_runner

        class ASTSource:
            pass

        class IRSource:
            pass

        class Kernel:
            def __init__(self, binary):
                self.kernel = binary

        made = {"ast": b"cubin of a jit function", "ir": b"cubin of hand-written IR"}
        compiler = types.SimpleNamespace(
            ASTSource=ASTSource,
            compile=lambda src, **_: Kernel(made["ast"] if isinstance(src, ASTSource) else made["ir"]))
        handles = iter(range(100, 200))
        utils = types.SimpleNamespace(load_binary=lambda name, binary, shared, device: (1, next(handles), 0, 0, 1024))
        compile, load_binary, own = arena_runner.binaries_of_triton(compiler, utils)

        ast_kernel = compile(ASTSource(), target=None)
        ir_kernel = compile(IRSource())
        self.assertIsInstance(ast_kernel, Kernel)
        first = load_binary("k", ast_kernel.kernel, 0, 0)[1]
        self.assertEqual(own, {first})
        # Compiled from IR text, not a jit function: not the subject's.
        self.assertNotIn(load_binary("ir", ir_kernel.kernel, 0, 0)[1], own)
        # A binary of its own, or the compiler's bytes changed by one.
        self.assertNotIn(load_binary("own", b"PTX by hand", 0, 0)[1], own)
        self.assertNotIn(load_binary("k", ast_kernel.kernel[:-1] + b"!", 0, 0)[1], own)
        # A mutable buffer of the same bytes (a thread could change it
        # between the digest and the load) is not taken.
        self.assertNotIn(load_binary("k", bytearray(ast_kernel.kernel), 0, 0)[1], own)
        # The same binary loaded again (another process's cache, say) counts.
        again = load_binary("k", bytes(ast_kernel.kernel), 0, 0)[1]
        self.assertEqual(own, {first, again})


class SeedCacheTest(unittest.TestCase):
    def test_launchers_are_not_seeded(self):
        import arena_runner
        with tempfile.TemporaryDirectory() as seed, tempfile.TemporaryDirectory() as cache:
            os.makedirs(os.path.join(seed, "arena_launchers"))
            with open(os.path.join(seed, "arena_launchers", "k.so"), "wb") as f:
                f.write(b"L")
            os.makedirs(os.path.join(seed, "h1", "arena_launchers"))
            with open(os.path.join(seed, "h1", "arena_launchers", "kernel.cubin"), "wb") as f:
                f.write(b"K")
            arena_runner.seed_cache(seed, cache)
            self.assertFalse(os.path.lexists(os.path.join(cache, "arena_launchers")))
            self.assertTrue(os.path.isfile(os.path.join(cache, "h1", "arena_launchers", "kernel.cubin")))

    def test_a_file_the_runner_holds_is_never_rewritten(self):
        import mmap

        import arena_runner
        with tempfile.TemporaryDirectory() as seed, tempfile.TemporaryDirectory() as cache:
            for folder in ("h1", "h2"):
                os.makedirs(os.path.join(seed, folder))
            os.makedirs(os.path.join(cache, "h1"))
            with open(os.path.join(seed, "h1", "launcher.so"), "wb") as f:
                f.write(b"B" * 4096)
            with open(os.path.join(seed, "h2", "kernel.cubin"), "wb") as f:
                f.write(b"K")
            os.symlink("/etc/hostname", os.path.join(seed, "h2", "elsewhere"))
            held = os.path.join(cache, "h1", "launcher.so")
            with open(held, "wb") as f:
                f.write(b"A" * 4096)
            inode = os.stat(held).st_ino
            with open(held, "rb") as f, mmap.mmap(f.fileno(), 4096, prot=mmap.PROT_READ) as mapped:
                arena_runner.seed_cache(seed, cache)
                # Rewritten in place, the mapping would show the seed's bytes
                # (or fault, had the copy been shorter): the library the
                # runner loaded would change under it.
                self.assertEqual(mapped[:], b"A" * 4096)
            self.assertEqual(os.stat(held).st_ino, inode)
            with open(os.path.join(cache, "h2", "kernel.cubin"), "rb") as f:
                self.assertEqual(f.read(), b"K")
            self.assertFalse(os.path.lexists(os.path.join(cache, "h2", "elsewhere")))
            self.assertEqual(sorted(os.listdir(os.path.join(cache, "h2"))), ["kernel.cubin"])


class ObservedLaunchesTest(unittest.TestCase):
    """The launch observer's signed reports (launch_names.cc), as the judge
    reads them: what CUPTI saw launched, when, against the Triton kernels
    the subject launched (by the handles CUPTI sees launched)."""

    KEY = bytes(range(16))

    def report(self, launches=(), seq=1, off=0, more=0, key=KEY):
        text = f"arena-launches 1\nseq {seq}\noff {off}\n"
        text += "".join(f"launch {w} {h} {f:x} {n}\n" for w, h, f, n in launches)
        text += f"more {more}\n"
        return text + "mac " + format(arena_judge.siphash24(key, text.encode()), "016x") + "\n"

    def findings(self, launches, handles=(), fills=0, allows_ops=False, **more):
        parsed = parse_report(self.report(launches, **more), self.KEY)
        self.assertIsNotNone(parsed)
        return launch_findings(parsed, set(handles), fills, allows_ops)

    def test_siphash_is_the_reference_and_the_observers(self):
        message = bytes(range(64))
        self.assertEqual(arena_judge.siphash24(self.KEY, message[:0]), 0x726fdb47dd0e0e31)
        self.assertEqual(arena_judge.siphash24(self.KEY, message[:15]), 0xa129ca6149be45e5)
        self.assertEqual(arena_judge.siphash24(self.KEY, message[:8]), 0x93f5f5799a932462)
        self.assertEqual(arena_judge.siphash24(self.KEY, message[:63]), 0x958a324ceb064572)
        # signed_report_test's text, as signed there in C++.
        signed = ("arena-launches 1\nseq 3\noff 0\nlaunch S d 7f00aa _gelu\nmore 0\n"
                  "mac 9b437f206103d51e\n")
        self.assertEqual(parse_report(signed, self.KEY),
                         {"seq": 3, "off": 0, "more": 0, "launches": [("S", "d", 0x7f00aa, "_gelu")]})

    def test_a_report_not_signed_by_the_observer_is_none(self):
        genuine = self.report([("S", "d", 0xabc, "_gelu")])
        self.assertIsNotNone(parse_report(genuine, self.KEY))
        self.assertIsNone(parse_report(self.report([("S", "d", 0xabc, "_gelu")], key=bytes(16)), self.KEY))
        self.assertIsNone(parse_report(genuine.replace("abc", "abd"), self.KEY))
        self.assertIsNone(parse_report(genuine.replace("launch S d abc _gelu\n", ""), self.KEY))
        self.assertIsNone(parse_report(genuine[:-1], self.KEY))
        self.assertIsNone(parse_report("mac none\n", self.KEY))
        self.assertIsNone(parse_report(None, self.KEY))

    def test_the_subjects_own_kernels_are_no_finding(self):
        self.assertEqual(self.findings([]), [])
        self.assertEqual(self.findings([("S", "d", 0xa, "k1"), ("S", "d", 0xb, "k2")], handles=[0xa, 0xb]), [])

    def test_a_kernel_is_told_by_its_handle_not_its_name(self):
        # A library kernel launched under the name of a Triton kernel of the
        # subject's (whose names it chooses), or launched by the runtime.
        aten = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BinaryFunctorIfffNS0_10MulFunctorIfEEEE"
        found = self.findings([("S", "d", 0xa, "k"), ("S", "d", 0xf00, "k")], handles=[0xa])
        self.assertEqual(len(found), 1)
        self.assertIn("library compute: kernel k ran on the GPU", found[0])
        self.assertIn("not one of the subject's Triton kernels", self.findings([("S", "r", 0, aten)], [0xa])[0])
        self.assertTrue(self.findings([("S", "r", 0, "k")], handles=[0xa]))
        self.assertIn("CUDA graph", self.findings([("S", "g", 0, "<graph>")])[0])

    def test_torchs_fills_where_triton_asked(self):
        fill = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIiEESt5arrayIPcLm1EEEEviT0_T1_"
        demangled = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, "
                     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<int>, at::detail::Array<char*, 1>)")
        self.assertEqual(self.findings([("S", "r", 0, fill), ("S", "r", 0, demangled)], fills=1), [])
        self.assertTrue(self.findings([("S", "r", 0, fill)], fills=0))
        copy = "_ZN2at6native27unrolled_elementwise_kernelIZZZNS0_23direct_copy_kernel_cuda"
        self.assertTrue(self.findings([("S", "r", 0, copy)], fills=2))

    def test_a_launch_in_the_runners_time_is_only_a_replay_or_a_fill(self):
        # Graph replays and torch's fills of its generator as a graph is
        # captured are the runner's; a library kernel is not, whoever
        # switched the observer to the runner's work.
        fill = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIlEE"
        self.assertEqual(self.findings([("R", "g", 0, "<graph>"), ("R", "r", 0, fill)]), [])
        found = self.findings([("R", "r", 0, "gemm_kernel")])
        self.assertIn("tampering: kernel gemm_kernel ran while the launch observer was switched", found[0])
        self.assertTrue(self.findings([("R", "d", 0xa, "k")], handles=[0xa]))

    def test_an_allowed_op_where_the_task_allows_none(self):
        self.assertEqual(self.findings([("A", "r", 0, "gemm_kernel")], allows_ops=True), [])
        self.assertIn("the task allows none", self.findings([("A", "r", 0, "gemm_kernel")])[0])

    def test_a_launch_between_requests_is_named(self):
        # Even a kernel of the subject's own: it computes when called.
        found = self.findings([("B", "d", 0xa, "gelu_kernel")], handles=[0xa])
        self.assertEqual(len(found), 1)
        self.assertIn("work between requests: kernel gelu_kernel launched", found[0])

    def test_host_memory_the_gpu_reaches_and_exported_memory_are_named(self):
        # Whenever they came: the runner makes neither.
        for when in "SRBA":
            found = self.findings([(when, "h", 0, "cudaHostAlloc")], allows_ops=True)
            self.assertEqual(len(found), 1)
            self.assertIn("host compute: cudaHostAlloc made host memory the GPU can reach", found[0])
            found = self.findings([(when, "x", 0, "cuIpcGetMemHandle")], allows_ops=True)
            self.assertIn("tampering: cuIpcGetMemHandle handed device memory to another process", found[0])

    def test_work_left_to_start_later_is_named(self):
        # A stream waiting on a value the judge's writes would set, or a
        # context of its own: whenever it came, the runner makes neither.
        for when in "SRBA":
            for call in ("cuStreamWaitValue32_v2", "cuCtxCreate_v2"):
                found = self.findings([(when, "w", 0, call)], allows_ops=True)
                self.assertEqual(len(found), 1)
                self.assertIn(f"tampering: {call} left work to start later", found[0])

    def test_an_observer_switched_off_or_overflowing_is_named(self):
        self.assertIn("callbacks were turned off", self.findings([], off=1)[0])
        self.assertIn("some unseen", self.findings([], more=1)[0])

    def runner(self, replies):
        """A runner that says CUPTI observes it, takes the key load brings,
        and sends REPLIES (made by replies(key)) to the requests after."""
        script = f"""
import json, socket, sys
sys.path.insert(0, {os.path.dirname(arena_judge.__file__)!r})
import arena_judge
s = socket.socket(fileno=0)
def send(obj):
    s.sendall((json.dumps(dict(obj, said=0)) + "\\n").encode())
s.recv(1000)
send({{"ok": True, "observer": "cupti"}})
data, fds, _, _ = socket.recv_fds(s, 1000, 4)
key = open(fds[0], "rb").read()
assert json.loads(data)["key_fds"] == 1 and len(key) == 16
def sign(text):
    return text + "mac " + format(arena_judge.siphash24(key, text.encode()), "016x") + "\\n"
{replies}
for r in replies:
    send(r)
    s.recv(1000)
"""
        log = tempfile.NamedTemporaryFile(delete=False).name
        r = RunnerClient("candidate", [sys.executable, "-c", script], log, pool=None)
        r.start()
        return r

    def test_a_reply_carries_them_to_the_findings(self):
        r = self.runner("""replies = [
    {"ok": True, "observed": {"report": sign("arena-launches 1\\nseq 1\\noff 0\\nmore 0\\n"),
                              "handles": [], "fills": 0}},
    {"ok": True, "observed": {"report": sign("arena-launches 1\\nseq 2\\noff 0\\n"
                                             "launch S d a _gelu\\nlaunch S r 0 cublas_gemm\\nmore 0\\n"),
                              "handles": ["a"], "fills": 0}},
]""")
        r.request({"op": "load", "entry": "kernel.py:run"}, 10)
        self.assertEqual(r.observer, "cupti")
        self.assertEqual(r.findings, [])
        reply = r.request({"op": "call"}, 10)
        r.stop()
        self.assertNotIn("observed", reply)
        self.assertEqual(len(r.findings), 1)
        self.assertIn("kernel cublas_gemm ran on the GPU", r.findings[0])

    def test_a_report_made_dropped_or_skipped_on_the_way_is_named(self):
        r = self.runner("""forged = "arena-launches 1\\nseq 2\\noff 0\\nmore 0\\nmac 0000000000000000\\n"
replies = [
    {"ok": True, "observed": {"report": sign("arena-launches 1\\nseq 1\\noff 0\\nmore 0\\n")}},
    {"ok": True, "observed": {"report": forged, "handles": []}},
    {"ok": True},
    {"ok": True, "observed": {"report": sign("arena-launches 1\\nseq 4\\noff 0\\nmore 0\\n")}},
    {"ok": True, "observed": {"report": sign("arena-launches 1\\nseq 4\\noff 0\\nmore 0\\n")}},
    {"ok": True},
]""")
        r.request({"op": "load", "entry": "kernel.py:run"}, 10)
        r.request({"op": "call"}, 10)
        # Checked when the findings are read, not inside the request (a
        # timed one, whose clock the check would run on).
        self.assertEqual(r._findings, [])
        self.assertEqual(len(r.findings), 1)
        self.assertIn("not one it signed", r.findings[0])
        r.request({"op": "call"}, 10)
        self.assertIn("lacks the launch observer's report", r.findings[1])
        r.request({"op": "call"}, 10)
        # Neither the forged report's number nor the dropped one's reached
        # the judge from the observer.
        self.assertIn("read 2 time(s) besides the runner's replies", r.findings[2])
        r.request({"op": "call"}, 10)
        self.assertIn("came again", r.findings[3])
        r.request({"op": "bind"}, 10)  # the runner's own: no report
        r.stop()
        self.assertEqual(len(r.findings), 4)


class LaunchObserverTest(unittest.TestCase):
    """The runner's side of the launch observation: what each take tells
    (the library's report, passed on unread, beside the handles of the
    Triton kernels and the fills the runner saw), the key handed on unread,
    with a stand-in for the CUPTI library (the real one needs a GPU:
    tools/gpu/adversarial.sh)."""

    class Library:
        def __init__(self):
            self.report, self.on, self.allowed, self.keys = b"", [], [], []

        def arena_launches_watch(self, on):
            self.on.append(on)

        def arena_launches_take(self, buf, cap):
            text, self.report = self.report, b""
            buf.raw = text + buf.raw[len(text):]
            return len(text)

        def arena_launches_key(self, fd):
            self.keys.append(os.read(fd, 100))
            os.close(fd)

        def arena_launches_allowed(self, on):
            self.allowed.append(on)

    def test_each_take_tells_what_happened_since_the_last(self):
        from arena_runner import LaunchObserver
        self.assertIsNone(LaunchObserver.start(None).take({"handles": set(), "launches": 0, "fills": 0}))
        self.assertIn("not beside the runner", LaunchObserver.start("/nonexistent/lib.so").description)
        lib = self.Library()
        observer = LaunchObserver(lib, "cupti")
        state = {"handles": {0x7f00aa, 0x10}, "launches": 3, "fills": 1}
        text = "arena-launches 1\nseq 1\noff 0\nlaunch S d 7f00aa _gelu\nmore 0\nmac 0123\n"
        lib.report = text.encode()
        self.assertEqual(observer.take(state), {"report": text, "handles": ["10", "7f00aa"], "fills": 1})
        self.assertEqual(state, {"handles": set(), "launches": 3, "fills": 0})
        self.assertEqual(observer.take(state), {"report": "", "handles": [], "fills": 0})
        # The judge's key goes to the library unread; without one, the
        # runner closes the descriptor.
        read_end, write_end = os.pipe()
        os.write(write_end, b"k" * 16)
        os.close(write_end)
        observer.key(read_end)
        self.assertEqual(lib.keys, [b"k" * 16])
        read_end, write_end = os.pipe()
        LaunchObserver.start(None).key(read_end)
        with self.assertRaises(OSError):
            os.fstat(read_end)
        os.close(write_end)
        # The runner's own work, the subject's code, between requests.
        for mode in (LaunchObserver.RUNNER, LaunchObserver.SUBJECT, LaunchObserver.BETWEEN):
            observer.watch(mode)
        self.assertEqual(lib.on, [0, 1, 2])
        # An op the task allows, on the thread that runs it.
        observer.allowed(True)
        observer.allowed(False)
        self.assertEqual(lib.allowed, [1, 0])


class LentPiecesTest(unittest.TestCase):
    """Device memory in pieces (CudaVmm), against a stand-in for the
    driver that keeps what it was asked (the GPU runs the real one)."""

    class Driver:
        def __init__(self, fail=None):
            self.calls, self.fail, self.next = [], fail, 0x7000

        def __getattr__(self, name):
            def call(*args):
                self.calls.append((name, args))
                if name == self.fail:
                    return 2
                if name in ("cuMemCreate", "cuMemImportFromShareableHandle"):
                    self.next += 1
                    args[0]._obj.value = self.next
                elif name == "cuMemAddressReserve":
                    args[0]._obj.value = 1 << 40
                elif name == "cuMemGetAllocationGranularity":
                    args[0]._obj.value = 2 << 20
                return 0
            return call

    def vmm(self, driver):
        import arena_buffers
        vmm = arena_buffers.CudaVmm.__new__(arena_buffers.CudaVmm)
        vmm.lib = driver
        vmm.prop, vmm.access = ctypes.c_int(0), ctypes.c_int(0)
        vmm.granularity = 2 << 20
        return vmm

    def calls(self, driver, name):
        return [args for n, args in driver.calls if n == name]

    def test_a_buffer_is_pieces_mapped_one_after_another(self):
        driver = self.Driver()
        vmm = self.vmm(driver)
        self.assertEqual(vmm.layout(40 << 20, 16 << 20), (16 << 20, 3))
        self.assertEqual(vmm.layout(40 << 20, 0), (40 << 20, 1))
        self.assertEqual(vmm.layout(5 << 20, 16 << 20), (6 << 20, 1))  # one piece, the granularity's
        self.assertEqual(vmm.layout(40 << 20, 3 << 20), (4 << 20, 10))
        handles, piece, ptr = vmm.create(40 << 20, 16 << 20)
        self.assertEqual((len(handles), piece, ptr), (3, 16 << 20, 1 << 40))
        self.assertEqual([a[0].value for a in self.calls(driver, "cuMemMap")],
                         [ptr, ptr + (16 << 20), ptr + (32 << 20)])
        self.assertEqual([a[3].value for a in self.calls(driver, "cuMemMap")], handles)
        self.assertEqual(self.calls(driver, "cuMemSetAccess")[0][1].value, 48 << 20)
        vmm.release(handles, ptr, piece)
        self.assertEqual([a[0].value for a in self.calls(driver, "cuMemUnmap")],
                         [ptr, ptr + (16 << 20), ptr + (32 << 20)])
        self.assertEqual(sorted(a[0].value for a in self.calls(driver, "cuMemRelease")), sorted(handles))

    def test_subjects_memory_is_made_in_turns(self):
        # Each subject's pieces alternate with the other's as they are
        # allocated, in the Thue-Morse sequence's turns (the first's first,
        # then the second's first twice, ...): each lies in device memory
        # as the other's does.
        driver = self.Driver()
        vmm = self.vmm(driver)
        (first, piece, _), (second, _, _) = vmm.create_together(56 << 20, 16 << 20, 2)
        self.assertEqual(piece, 16 << 20)
        self.assertEqual(first, [0x7001, 0x7004, 0x7006, 0x7007])
        self.assertEqual(second, [0x7002, 0x7003, 0x7005, 0x7008])
        import arena_buffers
        self.assertEqual([arena_buffers.turn_reversed(k) for k in range(8)],
                         [False, True, True, False, True, False, False, True])
        # Unpieced (the default): one allocation each, as before.
        (one, whole, _), (other, _, _) = vmm.create_together(40 << 20, 0, 2)
        self.assertEqual((len(one), len(other), whole), (1, 1, 40 << 20))

    def test_a_failed_map_leaves_nothing_behind(self):
        driver = self.Driver(fail="cuMemSetAccess")
        vmm = self.vmm(driver)
        with self.assertRaises(RuntimeError):
            vmm.create(40 << 20, 16 << 20)
        self.assertEqual(len(self.calls(driver, "cuMemUnmap")), 3)
        self.assertEqual(len(self.calls(driver, "cuMemAddressFree")), 1)
        self.assertEqual(len(self.calls(driver, "cuMemRelease")), 3)

    def test_a_descriptor_names_how_many_descriptors_come_with_it(self):
        from arena_buffers import MappedBuffer
        self.assertEqual(MappedBuffer.descriptors({"kind": "memfd", "nbytes": 10}), 1)
        self.assertEqual(MappedBuffer.descriptors({"kind": "vmm", "size": 4, "nbytes": 4}), 1)
        self.assertEqual(MappedBuffer.descriptors({"kind": "vmm", "pieces": 3}), 3)
        for bad in (0, -1, 1 << 20, "3", 2.0):
            with self.assertRaises(ValueError):
                MappedBuffer.descriptors({"kind": "vmm", "pieces": bad})
        with self.assertRaises(ValueError):
            MappedBuffer.open({"kind": "vmm", "pieces": 2, "piece": 4, "size": 8, "nbytes": 8}, [5], "cuda")


class PolledTest(unittest.TestCase):
    """arena_runner.polled: the runner's receive within a timed round."""

    def test_polled_then_waited_for(self):
        import socket
        import threading
        import arena_runner
        judge, runner = socket.socketpair()
        try:
            judge.sendall(b"there")  # already there: the first poll
            self.assertEqual(arena_runner.polled(runner.recv, (100,), time.perf_counter() + 1), b"there")
            for until in (time.perf_counter() + 1, 0.0):  # comes while polled; once waited for
                later = threading.Timer(0.03, judge.sendall, (b"later",))
                later.start()
                self.assertEqual(arena_runner.polled(runner.recv, (100,), until), b"later")
                later.join()
            # With descriptors, as the runner's requests come.
            r, w = os.pipe()
            try:
                socket.send_fds(judge, [b"fds"], [r])
                data, fds, _, _ = arena_runner.polled(socket.recv_fds, (runner, 100, 4), time.perf_counter() + 1)
                self.assertEqual(data, b"fds")
                self.assertEqual(len(fds), 1)
                os.close(fds[0])
            finally:
                os.close(r)
                os.close(w)
            judge.close()  # the judge gone: the end, polled or not
            self.assertEqual(arena_runner.polled(runner.recv, (100,), time.perf_counter() + 1), b"")
        finally:
            runner.close()


class RunnerClientTest(unittest.TestCase):
    def test_a_runner_is_what_the_kernel_kills_first_when_memory_runs_out(self):
        script = ("import json, socket\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                  "score = open('/proc/self/oom_score_adj').read().strip()\n"
                  "s.sendall((json.dumps({'ok': True, 'said': 0, 'score': score}) + '\\n').encode())\n"
                  "s.recv(100)\n")
        r = self.client(script)
        try:
            self.assertEqual(r.request({"op": "empty"}, 10)["score"], "1000")
        finally:
            r.stop()

    def test_a_runner_started_before_its_task_gets_its_arguments_first(self):
        # --await-go: the judge's go line comes before any request, whether
        # the arguments were known at the start or came later (a runner
        # started ahead of its task, then taken over).
        script = ("import json, socket, sys\nsys.path.insert(0, %r)\nimport arena_runner\n"
                  "s = socket.socket(fileno=0)\nargs = arena_runner.await_go(s)\n"
                  "line = b''\nwhile not line.endswith(b'\\n'):\n    line += s.recv(1)\n"
                  "s.sendall((json.dumps({'ok': True, 'said': 0, 'args': args, 'then': json.loads(line)}) + "
                  "'\\n').encode())\ns.recv(100)\n") % os.path.dirname(os.path.abspath(arena_judge.__file__))
        log = tempfile.NamedTemporaryFile(delete=False).name
        for later in (False, True):
            r = RunnerClient("candidate", [sys.executable, "-c", script], log, pool=None)
            if not later:
                r.go_args = ["--allow-ops=mm"]
            r.start()
            try:
                if later:
                    r.go_args = ["--allow-ops=mm"]
                    r.go()
                reply = r.request({"op": "empty"}, 120)
            finally:
                r.stop()
            self.assertEqual(reply["args"], ["--allow-ops=mm"])
            self.assertEqual(reply["then"]["op"], "empty")
            self.assertTrue(r.allows_ops)

    def test_a_runner_awaiting_its_task_refuses_anything_else_and_ends_with_its_judge(self):
        import socket
        import arena_runner
        judge, runner = socket.socketpair()
        try:
            judge.sendall(b'{"op": "load", "entry": "kernel.py:run"}\n')
            with self.assertRaisesRegex(RuntimeError, "expected the judge's go line"):
                arena_runner.await_go(runner)
            judge.close()
            with self.assertRaises(SystemExit):
                arena_runner.await_go(runner)
        finally:
            runner.close()

    def test_a_polled_receive_reads_what_a_sleeping_one_reads(self):
        # On a GPU the timing rounds poll for a runner's words (spin_s)
        # before they sleep: the same words, in pieces or late, a finding
        # and a split among them, are read either way.
        script = _LINES + (
            "import time\n"
            "for n in (1, 2):\n"
            "    line()\n"
            "    time.sleep(0.05)\n"
            "    s.sendall(b'{\"finding\": \"f%d\"}\\n{\"split\": 3}\\n' % n)\n"
            "    go = line()\n"
            "    s.sendall(b'{\"ok\": true, \"said\"')\n"
            "    time.sleep(0.02)\n"
            "    s.sendall(b': %d, \"go\": \"%s\"}\\n' % (n, go['op'].encode()))\n"
            "line()\n")
        for spin_s in (0.0, 0.5):
            r = self.client(script)
            r.spin_s = spin_s
            splits = []
            r.on_split = splits.append
            try:
                for n in (1, 2):
                    reply = r.request({"op": "replay"}, 10)
                    self.assertEqual(reply["go"], "go")
                    self.assertIsNotNone(r.split_seen_at)
                    self.assertLessEqual(r.split_seen_at, r.go_sent_at)
                self.assertEqual(splits, [3, 3])
                self.assertEqual(r.findings, ["f1", "f2"])
            finally:
                r.stop()

    def test_a_polled_receive_still_times_out(self):
        r = self.client(_LINES + "line()\nline()\n")
        r.spin_s = 0.2
        try:
            with self.assertRaisesRegex(SubjectFailure, "timed out after 0.5 s"):
                r.request({"op": "empty"}, 0.5)
        finally:
            r.stop()

    def client(self, script, launchers=None):
        log = tempfile.NamedTemporaryFile(delete=False).name
        r = RunnerClient("candidate", [sys.executable, "-c", script], log, pool=None, launchers=launchers)
        r.start()
        return r

    def test_a_launcher_builder_starts_beside_the_runner_outside_it(self):
        # The runner gets its end of a socket to the builder (--launcher-fd);
        # the builder is the judge's child, not the runner's, and ends with
        # the runner. (This Triton may build no launcher per signature: its
        # builder then ends at once, and the runner reads the end.)
        script = ("import json, os, socket, struct, sys\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                  "fd = int([a for a in sys.argv if a.startswith('--launcher-fd=')][0].split('=')[1])\n"
                  "b = socket.socket(fileno=fd)\nb.settimeout(60)\n"
                  "ask = json.dumps({'signature': ['i32'], 'tensordesc_meta': None}).encode()\n"
                  "try:\n    b.sendall(struct.pack('!I', len(ask)) + ask)\n"
                  "    head = b.recv(4)\n    body = b.recv(1 << 16) if head else b''\n"
                  "except OSError:\n    body = b''\n"
                  "s.sendall((json.dumps({'ok': True, 'said': 0, 'reply': body.decode(), 'fd': fd}) + "
                  "'\\n').encode())\ns.recv(100)\n")
        with tempfile.TemporaryDirectory() as launchers:
            r = self.client(script, launchers)
            try:
                builder = r.builder
                self.assertIsNotNone(builder)
                self.assertNotEqual(builder.pid, r.proc.pid)
                with open(f"/proc/{builder.pid}/cmdline", "rb") as f:
                    self.assertIn(b"--launcher-builder=" + launchers.encode(), f.read())
                try:
                    reply = r.request({"op": "empty"}, 60)
                except arena_judge.SubjectFailure as e:
                    self.fail(f"{e}: {r.log_tail()}")
                self.assertGreater(reply["fd"], 2)
                if reply["reply"]:  # (a Triton that builds one launcher per signature)
                    self.assertRegex(json.loads(reply["reply"])["name"], r"^[0-9a-f]{16}/[0-9a-f]{64}\.so$")
                else:
                    self.assertEqual(builder.wait(timeout=30), 0)
            finally:
                r.stop()
            self.assertIsNone(r.builder)
            self.assertIsNotNone(builder.poll())

    def test_descriptors_come_in_batches_the_runner_takes(self):
        # A buffer lent in pieces brings a descriptor a piece: more than
        # one message carries; the runner, taking 64 a message, gets every
        # one, in order, with the line whole.
        script = ("import json, os, socket\ns = socket.socket(fileno=0)\nbuf, fds = b'', []\n"
                  "while b'\\n' not in buf:\n"
                  "    data, got, _, _ = socket.recv_fds(s, 1 << 20, 64)\n"
                  "    buf += data\n    fds += got\n"
                  "marks = [os.pread(fd, 8, 0).decode() for fd in fds]\n"
                  "s.sendall((json.dumps({'ok': True, 'said': 0, 'line': json.loads(buf), 'marks': marks}) + "
                  "'\\n').encode())\ns.recv(100)\n")
        import arena_judge
        files = []
        try:
            for i in range(150):
                fd = os.memfd_create(f"piece{i}")
                os.write(fd, str(i).encode())
                files.append(fd)
            r = self.client(script)
            sent = [os.dup(fd) for fd in files]
            try:
                reply = r.request({"op": "bind", "n": 150}, 10, sent)
            finally:
                r.stop()
                for fd in sent:
                    os.close(fd)
        finally:
            for fd in files:
                os.close(fd)
        self.assertEqual(reply["line"], {"op": "bind", "n": 150})
        self.assertEqual(reply["marks"], [str(i) for i in range(150)])
        self.assertEqual(arena_judge.FDS_PER_MESSAGE, 64)

    def test_a_runner_the_native_code_guard_ended_is_an_integrity_failure(self):
        import arena_judge
        r = self.client("import socket, os\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                        f"os._exit({arena_judge.NATIVE_GUARD_STATUS})\n")
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 10)
        self.assertTrue(e.exception.integrity)
        self.assertIn("native-code guard", str(e.exception))
        r.stop()

    def test_a_reply_is_one_json_line(self):
        r = self.client("import os, socket\ns = socket.socket(fileno=0)\n"
                        "s.recv(100)\ns.sendall(b'{\"ok\": true, \"said\": 0}\\n')\ns.recv(100)\n")
        self.assertTrue(r.request({"op": "empty"}, 10)["ok"])
        r.stop()

    def test_a_reply_says_how_many_findings_went_before_it(self):
        r = self.client("import os, socket\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                        "s.sendall(b'{\"finding\": \"library compute: one\"}\\n')\n"
                        "s.sendall(b'{\"ok\": true, \"said\": 3}\\n')\ns.recv(100)\n"
                        "s.sendall(b'{\"ok\": true}\\n')\ns.recv(100)\n")
        self.assertTrue(r.request({"op": "empty"}, 10)["ok"])
        self.assertEqual(len(r.findings), 2)
        self.assertIn("the runner sent 3 finding(s) and 1 arrived", r.findings[1])
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 10)
        self.assertIn("does not say how many findings", str(e.exception))
        r.stop()

    def test_a_runner_waits_for_the_judge_between_a_replays_parts(self):
        # A split: the judge's handler sees where the first part ended,
        # then the runner hears "go"; a pause hears "resume"; a second
        # split in one request breaks the protocol.
        script = (_LINES +
                  "line()\n"
                  "s.sendall(b'{\"split\": 3, \"said\": 0}\\n')\n"
                  "heard = line()\n"
                  "s.sendall(b'{\"pause\": 1, \"said\": 0}\\n')\n"
                  "again = line()\n"
                  "s.sendall((json.dumps({'ok': True, 'said': 0, 'heard': [heard, again]}) + '\\n').encode())\n"
                  "line()\n"
                  "s.sendall(b'{\"split\": 0, \"said\": 0}\\n')\n"
                  "line()\n"
                  "s.sendall(b'{\"split\": 1, \"said\": 0}\\n')\n"
                  "line()\n")
        r = self.client(script)
        seen = []
        r.on_split = seen.append
        try:
            reply = r.request({"op": "replay"}, 10)
            self.assertEqual(seen, [3])
            self.assertEqual(reply["heard"], [{"op": "go"}, {"op": "resume"}])
            with self.assertRaises(SubjectFailure) as e:
                r.request({"op": "replay"}, 10)
            self.assertIn("not the protocol", str(e.exception))
        finally:
            r.stop()

    def test_a_pause_at_a_call_already_witnessed_breaks_the_protocol(self):
        # The runner pauses once per call at most, in order; a pause again
        # at call 1 is the subject's own line on the runner's descriptor.
        script = (_LINES +
                  "line()\n"
                  "s.sendall(b'{\"pause\": 1, \"said\": 0}\\n')\n"
                  "line()\n"
                  "s.sendall(b'{\"pause\": 1, \"said\": 0}\\n')\n"
                  "line()\n")
        r = self.client(script)
        seen = []
        r.on_pause = seen.append
        try:
            with self.assertRaises(SubjectFailure) as e:
                r.request({"op": "call", "sets": [1, 2, 3]}, 10)
            self.assertIn("runner sent a pause that is not the protocol", str(e.exception))
            self.assertEqual(seen, [1])
        finally:
            r.stop()

    def test_garbage_breaks_the_protocol(self):
        r = self.client("import socket\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                        "s.sendall(b'\\xff\\xfe\\n')\ns.recv(100)\n")
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 10)
        self.assertIn("not the protocol", str(e.exception))
        self.assertTrue(e.exception.integrity)

    def test_an_exit_is_reported_as_it_was(self):
        r = self.client("import os, socket\ns = socket.socket(fileno=0)\ns.recv(100)\nos._exit(3)\n")
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 10)
        self.assertIn("exited with status 3", str(e.exception))

    def test_a_hang_is_cut_at_the_limit(self):
        r = self.client("import time\ntime.sleep(60)\n")
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 1)
        self.assertIn("timed out after 1.0 s", str(e.exception))
        self.assertFalse(r.alive())

    def test_a_runner_resumed_while_stopped_is_named(self):
        # Stopped by the judge, then resumed for a moment by something else
        # (here the test, as a timer's SIGCONT would) and stopped again: its
        # threads spend microseconds on a CPU, under the time check's slack,
        # and are named for being put on a CPU again. One that stays stopped,
        # and one stopped without waiting and settled later, is not.
        r = self.client("import threading, time\n"
                        "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
                        "time.sleep(60)\n")
        try:
            time.sleep(0.3)
            for _ in range(3):
                r.freeze(True)
                time.sleep(0.05)
                self.assertEqual(r.ran_while_stopped(), "")
                r.freeze(False)
            r.freeze(True, settle=False)
            self.assertEqual(r.ran_while_stopped(), "")  # nothing to tell before it settled
            r.settle_stop()
            time.sleep(0.05)
            self.assertEqual(r.ran_while_stopped(), "")
            # Four stops settled, each counting one thread of its one process
            # (a SIGCONT puts every thread of its process on a CPU).
            tally = r.take_stop_tally()
            self.assertEqual(tally["stops"], 4)
            self.assertEqual(tally["fewest_threads_counted"], 1)
            self.assertLess(tally["most_us_while_stopped"], 500)  # under the slack: nothing ran
            self.assertEqual(r.take_stop_tally()["stops"], 0)
            os.kill(r.proc.pid, signal.SIGCONT)
            os.kill(r.proc.pid, signal.SIGSTOP)
            time.sleep(0.05)
            ran = r.ran_while_stopped()
            self.assertIn("candidate's runner ran while it was stopped (", ran)
            self.assertIn("of its stopped threads put on a CPU again", ran)
            r.freeze(False)
            self.assertEqual(r.ran_while_stopped(), "")  # not stopped: nothing to tell
        finally:
            r.stop()

    def test_what_forks_as_the_runner_stops_is_stopped_too(self):
        # Four threads start a process each every millisecond or so: one
        # started after the judge read the tree, before its parent stopped,
        # is found by reading it again. Every process of the tree is stopped
        # (or ended) once the stop settles, and it is not taken for running.
        r = self.client("import os, threading, time\n"
                        "def spawn():\n"
                        "    while True:\n"
                        "        os.posix_spawn('/bin/sleep', ['sleep', '0.05'], os.environ)\n"
                        "        time.sleep(0.001)\n"
                        "for _ in range(4):\n"
                        "    threading.Thread(target=spawn, daemon=True).start()\n"
                        "time.sleep(60)\n")
        try:
            time.sleep(0.3)
            for _ in range(5):
                r.freeze(True)
                states = []
                for pid in r.process_tree():
                    fields = arena_judge._stat_fields(f"/proc/{pid}/stat")
                    if fields:
                        states.append(fields[0].decode())
                self.assertEqual(set(states) - {"T", "t", "Z"}, set(), states)
                time.sleep(0.05)
                self.assertEqual(r.ran_while_stopped(), "")
                r.freeze(False)
                time.sleep(0.05)
        finally:
            r.stop()

    def test_a_process_whose_tracer_lets_the_stop_go_is_named(self):
        # A process of the runner traced by another that lets every stop go
        # (PTRACE_CONT without the signal): it never stops. Here the tracer
        # is a process of the test's.
        r = self.client("import subprocess, sys, time\n"
                        "p = subprocess.Popen(['sleep', '100'])\n"
                        "sys.stderr.write(f'traced {p.pid}\\n'); sys.stderr.flush()\n"
                        "time.sleep(100)\n")
        try:
            deadline = time.time() + 10
            traced = None
            while traced is None and time.time() < deadline:
                with open(r.log_path) as f:
                    for line in f:
                        if line.startswith("traced "):
                            traced = int(line.split()[1])
                time.sleep(0.05)
            self.assertIsNotNone(traced)
            libc = ctypes.CDLL(None, use_errno=True)
            ptrace_seize, ptrace_cont = 0x4206, 7
            ready_r, ready_w = os.pipe()
            tracer = os.fork()
            if tracer == 0:
                ok = libc.ptrace(ptrace_seize, traced, None, None) == 0
                os.write(ready_w, b"1" if ok else b"0")
                while True:
                    try:
                        _, status = os.waitpid(traced, 0x40000000)  # __WALL
                    except OSError:
                        os._exit(0)
                    if os.WIFSTOPPED(status):
                        libc.ptrace(ptrace_cont, traced, None, None)  # the stop let go
            try:
                if os.read(ready_r, 1) != b"1":
                    self.skipTest("this machine lets no process trace another")
                r.freeze(True)
                time.sleep(0.1)  # as long as a round
                ran = r.ran_while_stopped()
                self.assertIn(f"ran while it was stopped (it never stopped: thread {traced} (state S)", ran)
                r.freeze(False)
            finally:
                os.kill(tracer, signal.SIGKILL)
                os.waitpid(tracer, 0)
        finally:
            r.stop()

    def test_the_tree_holds_every_descendant_either_way(self):
        # A grandchild in a session of its own, as a subject that setsid's
        # away would make it; both ways of reading the tree must find it.
        r = self.client("import os, subprocess, time\n"
                        "subprocess.Popen(['sh', '-c', 'sleep 30 & sleep 30; wait'], start_new_session=True)\n"
                        "time.sleep(30)\n")
        try:
            def comm(pid):
                try:
                    with open(f"/proc/{pid}/comm") as f:
                        return f.read().strip()
                except OSError:
                    return ""
            # Wait for both sleeps to have finished exec: a shell that
            # vfork()s waits in state D until its child execs, and a child
            # stopped before that keeps it there (it can run nothing either
            # way, but the test reads states).
            deadline = time.time() + 20
            while time.time() < deadline:
                tree = r.process_tree()
                if len(tree) >= 4 and [comm(p) for p in tree].count("sleep") >= 2:
                    break
                time.sleep(0.05)
            listed = arena_judge.CHILDREN_LISTED
            try:
                for children_listed in {listed, False}:
                    arena_judge.CHILDREN_LISTED = children_listed
                    tree = r.process_tree()
                    self.assertEqual(tree[0], r.proc.pid)
                    self.assertGreaterEqual(len(tree), 4, (children_listed, tree))  # runner, sh, 2 sleeps
            finally:
                arena_judge.CHILDREN_LISTED = listed
            r.freeze(True)

            def states():
                seen = []
                for pid in r.frozen_pids:
                    with open(f"/proc/{pid}/stat") as f:
                        seen.append(f.read().rsplit(")", 1)[1].split()[0])
                return seen
            # A signal is delivered when its process next runs: one waiting
            # on the disk (state D, a page read in on a loaded machine)
            # stops when that read ends.
            deadline = time.time() + 30
            while any(s != "T" for s in states()) and time.time() < deadline:
                time.sleep(0.05)
            self.assertEqual(set(states()), {"T"})
            r.freeze(False)
        finally:
            r.stop()
            for pid in r.frozen_pids or []:
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass


if __name__ == "__main__":
    unittest.main()
