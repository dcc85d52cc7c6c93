"""Unit tests of the Python harness's pieces that need no GPU: the
expression evaluator never runs task text as code; a runner client blames
the subject for a process that dies, hangs or breaks the protocol; a
runner's cache is seeded without rewriting a file it may have mapped."""

import os
import sys
import tempfile
import time
import unittest

import arena_judge
from arena_harness import TaskError, bitwise_equal, evaluate
from arena_judge import RunnerClient, SubjectFailure, observed_findings


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


class SeedCacheTest(unittest.TestCase):
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
    """What CUPTI saw launched, against the Triton kernels the subject
    launched (the runner's launch observer; the names are as CUPTI gives
    them)."""

    def seen(self, kernels, triton, **more):
        return {"kernels": kernels, "triton": triton, **more}

    def test_the_subjects_own_kernels_are_no_finding(self):
        self.assertEqual(observed_findings(None), [])  # no observer (no GPU)
        self.assertEqual(observed_findings(self.seen([], [])), [])
        self.assertEqual(observed_findings(self.seen(["gelu_kernel"], ["gelu_kernel"])), [])
        # The suffix older Tritons give a specialization.
        self.assertEqual(observed_findings(self.seen(["gelu_kernel_0d1d2de"], ["gelu_kernel"])), [])
        self.assertEqual(observed_findings(self.seen(["a", "b"], ["a", "b"])), [])

    def test_other_kernels_are_named(self):
        aten = "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>"
        found = observed_findings(self.seen(["gelu_kernel", aten], ["gelu_kernel"]))
        self.assertEqual(len(found), 1)
        self.assertIn("library compute: kernel " + aten, found[0])
        self.assertIn("not one of the subject's Triton kernels", found[0])
        # A name is not explained by a kernel whose name merely starts it.
        self.assertTrue(observed_findings(self.seen(["gelu"], ["gelu_kernel"])))
        self.assertTrue(observed_findings(self.seen(["gelu_kernelX"], ["gelu_kernel"])))
        # A kernel of the subject's cannot vouch for an unnamed one.
        self.assertTrue(observed_findings(self.seen(["gelu_kernel"], ["?", ""])))
        # torch's fill, only where Triton's own code asked for fills.
        fill = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, "
                "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<int>, at::detail::Array<char*, 1>)")
        self.assertEqual(observed_findings(self.seen(["k", fill], ["k"], fills=1)), [])
        self.assertTrue(observed_findings(self.seen(["k", fill], ["k"], fills=0)))
        mangled = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIiEESt5arrayIPcLm1EEEEviT0_T1_"
        self.assertEqual(observed_findings(self.seen(["k", mangled], ["k"], fills=2)), [])
        self.assertTrue(observed_findings(self.seen(["k", mangled], ["k"])))
        copy = "_ZN2at6native27unrolled_elementwise_kernelIZZZNS0_23direct_copy_kernel_cuda"
        self.assertTrue(observed_findings(self.seen(["k", copy], ["k"], fills=2)))
        graph = observed_findings(self.seen(["<graph>"], ["k"]))
        self.assertIn("CUDA graph", graph[0])

    def test_a_launch_between_requests_is_named(self):
        # Even a kernel of the subject's own: it computes when called.
        found = observed_findings(self.seen(["<between> gelu_kernel", "gelu_kernel"], ["gelu_kernel"]))
        self.assertEqual(len(found), 1)
        self.assertIn("work between requests: kernel gelu_kernel launched", found[0])

    def test_an_observer_switched_off_is_named(self):
        off = observed_findings(self.seen([], ["k"], off=True))
        self.assertTrue(any("callbacks were turned off" in f for f in off))
        # Triton launches nothing for an empty grid: a Triton kernel the
        # subject launched and CUPTI did not see is no finding.
        self.assertEqual(observed_findings(self.seen([], ["k", "tail"])), [])
        self.assertIn("not the protocol", observed_findings({"kernels": 5})[0])

    def test_a_take_besides_the_runners_is_named(self):
        # The observer's second and fourth takes reach the judge, the third
        # was someone else's (what it saw, dropped).
        replies = [{"ok": True, "observed": {"kernels": [], "triton": [], "takes": k}} for k in (1, 2, 4)]
        script = ("import json, socket\ns = socket.socket(fileno=0)\n"
                  f"for r in {replies!r}:\n    s.recv(100)\n    s.sendall((json.dumps(r) + '\\n').encode())\n"
                  "s.recv(100)\n")
        log = tempfile.NamedTemporaryFile(delete=False).name
        r = RunnerClient("candidate", [sys.executable, "-c", script], log, pool=None)
        r.start()
        r.request({"op": "call"}, 10)
        r.request({"op": "call"}, 10)
        self.assertEqual(r.findings, [])
        r.request({"op": "call"}, 10)
        r.stop()
        self.assertEqual(len(r.findings), 1)
        self.assertIn("read 1 time(s) besides the runner's replies", r.findings[0])

    def test_a_reply_carries_them_to_the_findings(self):
        script = ("import json, socket\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                  "s.sendall((json.dumps({'ok': True, 'observer': 'cupti', 'observed': "
                  "{'kernels': ['cublas_gemm'], 'triton': []}})"
                  " + '\\n').encode())\ns.recv(100)\n")
        log = tempfile.NamedTemporaryFile(delete=False).name
        r = RunnerClient("candidate", [sys.executable, "-c", script], log, pool=None)
        r.start()
        reply = r.request({"op": "call"}, 10)
        r.stop()
        self.assertNotIn("observed", reply)
        self.assertEqual(r.observer, "cupti")
        self.assertEqual(len(r.findings), 1)
        self.assertIn("kernel cublas_gemm ran on the GPU", r.findings[0])


class LaunchObserverTest(unittest.TestCase):
    """The runner's side of the launch observation: what each take tells
    (the library's names since the last take and how many takes it made,
    beside the Triton kernels and fills the runner saw), with a stand-in for
    the CUPTI library (the real one needs a GPU: tools/gpu/adversarial.sh)."""

    class Library:
        def __init__(self):
            self.names, self.takes, self.on, self.allowed = [], 0, [], []

        def arena_launches_watch(self, on):
            self.on.append(on)

        def arena_launches_take(self, buf, cap):
            self.takes += 1
            if self.names is None:
                return -1
            text = "".join(n + "\n" for n in self.names).encode()
            buf.raw = text + buf.raw[len(text):]
            self.names = []
            return len(text)

        def arena_launches_takes(self):
            return self.takes

        def arena_launches_allowed(self, on):
            self.allowed.append(on)

    def test_each_take_tells_what_happened_since_the_last(self):
        from arena_runner import LaunchObserver
        self.assertIsNone(LaunchObserver.start(None).take({"kernels": set(), "launches": 0, "fills": 0}))
        self.assertIn("not beside the runner", LaunchObserver.start("/nonexistent/lib.so").description)
        lib = self.Library()
        observer = LaunchObserver(lib, "cupti")
        state = {"kernels": {"_gelu"}, "launches": 3, "fills": 1}
        lib.names = ["_gelu", "cublas_gemm"]
        first = observer.take(state)
        self.assertEqual(first, {"kernels": ["_gelu", "cublas_gemm"], "triton": ["_gelu"], "fills": 1, "takes": 1})
        self.assertEqual(state, {"kernels": set(), "launches": 3, "fills": 0})
        second = observer.take(state)
        self.assertEqual(second, {"kernels": [], "triton": [], "fills": 0, "takes": 2})
        lib.names = None  # callbacks turned off
        self.assertTrue(observer.take(state)["off"])
        # The runner's own work, the subject's code, between requests.
        for mode in (LaunchObserver.RUNNER, LaunchObserver.SUBJECT, LaunchObserver.BETWEEN):
            observer.watch(mode)
        self.assertEqual(lib.on, [0, 1, 2])
        # An op the task allows, on the thread that runs it.
        observer.allowed(True)
        observer.allowed(False)
        self.assertEqual(lib.allowed, [1, 0])


class RunnerClientTest(unittest.TestCase):
    def test_a_runner_is_what_the_kernel_kills_first_when_memory_runs_out(self):
        script = ("import json, socket\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                  "score = open('/proc/self/oom_score_adj').read().strip()\n"
                  "s.sendall((json.dumps({'ok': True, 'score': score}) + '\\n').encode())\n"
                  "s.recv(100)\n")
        r = self.client(script)
        try:
            self.assertEqual(r.request({"op": "empty"}, 10)["score"], "1000")
        finally:
            r.stop()

    def client(self, script):
        log = tempfile.NamedTemporaryFile(delete=False).name
        r = RunnerClient("candidate", [sys.executable, "-c", script], log, pool=None)
        r.start()
        return r

    def test_a_reply_is_one_json_line(self):
        r = self.client("import os, socket\ns = socket.socket(fileno=0)\n"
                        "s.recv(100)\ns.sendall(b'{\"ok\": true}\\n')\ns.recv(100)\n")
        self.assertTrue(r.request({"op": "empty"}, 10)["ok"])
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
