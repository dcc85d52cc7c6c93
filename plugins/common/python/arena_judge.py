"""The judge's side of a sandboxed runner (arena_runner.py): start it, talk to
it, lend it memory, and never believe more than "done".

    runner = RunnerClient("candidate", argv, log_path, pool)
    runner.start()
    runner.request({"op": "load", "entry": "kernel.py:run"}, timeout_s)
    ids = runner.bind([buf], [{"x": (0, 0, "float16", [n]), "y": (0, 2 * n, ...)}], t)
    reply = runner.request({"op": "call", "sets": ids, "params": p}, timeout_s)
    runner.unbind(ids, t)

Every failure of the runner (a crash, a hang, closed pipes, a reply that is
not one line of JSON, an early or extra reply) raises SubjectFailure naming
the subject; the runner is then killed with everything it started, and the
next request starts a fresh one.

A reply that ran the subject's code carries what the runner's launch
observer saw ("observed": the kernels CUPTI saw launched, and the Triton
kernels the runner saw the subject launch); each kernel that is none of
the subject's own becomes a finding (observed_findings), as the runner's
findings do.

Public API: RunnerClient (start, stop, alive, request, bind, unbind, freeze,
process_tree, findings, frozen_pids, observer), SubjectFailure,
observed_findings, and CHILDREN_LISTED (whether this kernel lists a
thread's children in /proc). Imports no torch.
"""

import json
import os
import select
import signal
import socket
import subprocess
import time

_MAX_LINE = 1 << 20
_LOG_CAP = 256 << 20


# Whether this kernel lists a thread's children in /proc (CONFIG_PROC_CHILDREN).
CHILDREN_LISTED = os.access(f"/proc/{os.getpid()}/task/{os.getpid()}/children", os.R_OK)


def _thread_dirs(pid):
    """/proc/PID/task/TID of every thread of `pid` (none once it ended)."""
    try:
        return [f"/proc/{pid}/task/{tid}" for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def _stat_fields(path):
    """The fields of a /proc stat file after the name, which is in
    parentheses (state, parent, ...); [] once the process or thread ended."""
    try:
        with open(path, "rb") as f:
            stat = f.read()
    except OSError:
        return []
    return stat[stat.rindex(b")") + 2:].split() if b")" in stat else []


def _listed_children(pid):
    """The children of every thread of `pid`, from /proc/PID/task/TID/children
    (a thread or process that ended meanwhile has none)."""
    found = []
    for thread in _thread_dirs(pid):
        try:
            with open(f"{thread}/children", "rb") as f:
                found.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def _children_by_parent():
    """Every process's children, from every process's parent in /proc (for a
    kernel without children lists)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(f"/proc/{entry}/stat")
        try:
            ppid = int(fields[1])
        except (ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    return children


def _wait_stopped(pids, limit_s=0.2):
    """Until every thread of `pids` is stopped (a signal is delivered, not
    waited for: a thread running on another core goes on for a moment), or
    `limit_s` passed."""
    deadline = time.monotonic() + limit_s
    for pid in pids:
        for thread in _thread_dirs(pid):
            while time.monotonic() < deadline:
                fields = _stat_fields(f"{thread}/stat")
                if not fields or fields[0] in (b"T", b"t", b"Z", b"X"):
                    break  # stopped, or gone
                time.sleep(0.0001)


class SubjectFailure(Exception):
    """The subject's process failed; the message says how."""

    def __init__(self, message, log="", integrity=False, timed_out=False):
        super().__init__(message)
        self.log = log
        self.integrity = integrity  # the runner broke the protocol
        self.timed_out = timed_out


def _own_kernel(name, own, fills):
    """Whether a launched kernel is one of the subject's: its name is a
    kernel's the subject launched, or that name with the suffix Triton adds
    to a specialization; or torch's fill kernel, where Triton's own code
    asked for fills (its autotuner clears the L2 with them)."""
    if fills > 0 and "FillFunctor" in name and (name.startswith("_ZN2at6native") or "at::native::" in name):
        return True  # as CUPTI names it (mangled), or demangled
    return name in own or any(name.startswith(k + "_") for k in own)


def observed_findings(seen):
    """The findings in what a runner's launch observer saw during a request:
    {"kernels": [names], "triton": [names the subject's Triton kernels
    have], "fills": the fills Triton's own code asked torch for, "takes":
    the observer's takes so far (RunnerClient counts them), "off": true if
    CUPTI's callbacks were turned off}. Every kernel is accounted for by a Triton kernel the subject
    launched (or a fill Triton asked for); a graph launched by the
    subject's code is not one."""
    if seen is None:
        return []
    try:
        kernels = [str(k) for k in seen.get("kernels", [])]
        own = {str(k) for k in seen.get("triton", [])} - {"", "?"}
        fills = int(seen.get("fills", 0))
    except (AttributeError, TypeError, ValueError):
        return ["runner's launch observation is malformed: not the protocol"]
    findings = []
    if seen.get("off"):
        findings.append("tampering: the launch observer's callbacks were turned off")
    for name in kernels:
        if name.startswith("<between> "):
            findings.append(f"work between requests: kernel {name[10:210]} launched while no "
                            "request ran the subject's code (a thread it left running; seen by CUPTI)")
        elif name == "<graph>":
            findings.append("library compute: a CUDA graph was launched by the subject's code "
                            "(seen by CUPTI)")
        elif not _own_kernel(name, own, fills):
            findings.append(f"library compute: kernel {name[:200]} ran on the GPU, not one of "
                            "the subject's Triton kernels (seen by CUPTI)")
    # Names, not launch counts: Triton launches nothing for an empty grid,
    # so fewer launches seen than it was asked for would be no sign.
    return findings


class RunnerClient:
    def __init__(self, subject, argv, log_path, pool):
        self.subject = subject
        self.argv = argv
        self.log_path = log_path
        self.pool = pool
        self.proc = None
        self.sock = None
        self.findings = []
        self.observer = None  # what observes its launches, as its load said
        self._takes = 0  # the launch observer's takes its replies told
        self._buffer = b""
        self._next_id = 0
        self.frozen_pids = None
        self.bound = {}  # first set id -> [Buffer]

    # -- process ---------------------------------------------------------------
    def start(self):
        self.stop()
        self._takes = 0  # a fresh runner, a fresh observer
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        log = open(self.log_path, "ab")

        def limits():
            import resource
            resource.setrlimit(resource.RLIMIT_FSIZE, (_LOG_CAP, _LOG_CAP))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            # What the kernel kills first when the machine runs out of memory.
            try:
                with open("/proc/self/oom_score_adj", "w") as f:
                    f.write("1000")
            except OSError:
                pass
        try:
            # The sandbox's own first process keeps the environment it is
            # started with, readable inside as /proc/1/environ: give it none.
            self.proc = subprocess.Popen(self.argv, stdin=child, stdout=log, stderr=log,
                                         close_fds=True, start_new_session=True,
                                         preexec_fn=limits, env={"PATH": "/usr/bin:/bin"})
        except OSError as e:
            raise SubjectFailure(f"cannot start the {self.subject}'s runner: {e}") from e
        finally:
            child.close()
            log.close()
        self.sock = parent
        self._buffer = b""
        self.bound = {}

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if self.sock is not None:
            self.sock.close()
        self.proc, self.sock = None, None
        for bufs in self.bound.values():
            for b in bufs:
                b.free()
        self.bound = {}

    def process_tree(self):
        """The runner and every process below it (the sandbox's PID namespace
        hides them from each other, not from the judge): followed through
        the kernel's children lists where it has them, else from every
        process's parent in /proc."""
        children_of = _listed_children if CHILDREN_LISTED else _children_by_parent().get
        tree, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo.extend(children_of(pid) or [])
        return tree

    def freeze(self, stopped, settle=True):
        """Stops (or resumes) the runner's whole tree, so that it cannot
        submit work while the other subject is timed. (A stopped tree cannot
        fork: the processes stopped are the ones resumed.) Stopping returns
        once every thread is stopped, unless `settle` is false."""
        if not self.alive():
            return
        sig = signal.SIGSTOP if stopped else signal.SIGCONT
        if stopped or self.frozen_pids is None:
            self.frozen_pids = self.process_tree()
        for pid in self.frozen_pids:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        if stopped and settle:
            _wait_stopped(self.frozen_pids)

    def log_tail(self, n=4000):
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - n))
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def _ended(self):
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            return "closed its connection"
        # The sandbox passes a signal death on as exit status 128 + signal.
        sig = -code if code < 0 else (code - 128 if 128 < code < 160 else 0)
        if sig:
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = str(sig)
            return f"was killed by signal {sig} ({name})"
        return f"exited with status {code}"

    def _fail(self, message, protocol=False, timed_out=False):
        """Kills the runner and raises its failure; `protocol`: it broke the
        protocol (an integrity finding, not an accident)."""
        log = self.log_tail()
        self.stop()
        raise SubjectFailure(f"{self.subject}: {message}", log, protocol, timed_out)

    # -- protocol --------------------------------------------------------------
    def send(self, obj, fds=()):
        if not self.alive():
            raise SubjectFailure(f"{self.subject}: runner is not running")
        data = (json.dumps(obj) + "\n").encode()
        try:
            if fds:
                socket.send_fds(self.sock, [data], list(fds))
            else:
                self.sock.sendall(data)
        except OSError as e:
            self._fail(f"runner {self._ended()} ({e})")

    def receive(self, timeout_s):
        """The next reply; findings met on the way are kept in self.findings."""
        deadline = time.monotonic() + timeout_s
        while True:
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._fail(f"timed out after {timeout_s:.1f} s", timed_out=True)
                ready, _, _ = select.select([self.sock], [], [], left)
                if not ready:
                    continue
                try:
                    chunk = self.sock.recv(1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    self._fail(f"runner {self._ended()}")
                self._buffer += chunk
                if len(self._buffer) > _MAX_LINE and b"\n" not in self._buffer:
                    self._fail("runner sent a line longer than 1 MiB: not the protocol",
                               protocol=True)
            line, self._buffer = self._buffer.split(b"\n", 1)
            try:
                msg = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self._fail("runner sent something that is not a JSON line: not the protocol",
                           protocol=True)
            if not isinstance(msg, dict):
                self._fail("runner sent a reply that is not an object: not the protocol",
                           protocol=True)
            if "finding" in msg and len(msg) == 1:
                self.findings.append(str(msg["finding"])[:500])
                continue
            if "observer" in msg:
                self.observer = str(msg["observer"])[:200]
            seen = msg.pop("observed", None)
            found = observed_findings(seen)
            if isinstance(seen, dict) and "takes" in seen:
                # Each observation the runner sends is one take of the
                # observer's; more takes dropped names unseen.
                takes = seen["takes"] if isinstance(seen["takes"], int) else -1
                if takes != self._takes + 1:
                    found.append(f"tampering: the launch observer was read {takes - self._takes - 1} "
                                 "time(s) besides the runner's replies: what it saw was dropped")
                self._takes = max(takes, self._takes + 1)
            for finding in found:
                if finding not in self.findings:
                    self.findings.append(finding)
            return msg

    def _drain_findings(self):
        """Findings already buffered, kept: a runner sends them at any moment,
        between requests too (a thread its subject left running)."""
        while b"\n" in self._buffer:
            line, rest = self._buffer.split(b"\n", 1)
            try:
                msg = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                return
            if not (isinstance(msg, dict) and "finding" in msg and len(msg) == 1):
                return
            self.findings.append(str(msg["finding"])[:500])
            self._buffer = rest

    def request(self, obj, timeout_s, fds=()):
        self._drain_findings()
        if self._buffer.strip():
            self._fail("runner sent a reply nobody asked for: not the protocol",
                       protocol=True)
        self.send(obj, fds)
        reply = self.receive(timeout_s)
        if not isinstance(reply.get("ok"), bool):
            self._fail("runner's reply has no 'ok': not the protocol",
                       protocol=True)
        return reply

    def pending_bytes(self):
        """Whether the runner wrote more than its one reply (polled, not waited for)."""
        ready, _, _ = select.select([self.sock], [], [], 0)
        if ready:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                return False
            self._buffer += chunk
        self._drain_findings()
        return bool(self._buffer.strip())

    # -- lent memory -----------------------------------------------------------
    def bind(self, buffers, sets, timeout_s):
        """Lends `buffers` (judge Buffers) cut into `sets`: each set maps a
        name to (buffer index, byte offset, dtype name, shape). Returns the
        sets' ids in order; unbind(ids) gives them back."""
        first = self._next_id + 1
        self._next_id += len(sets)
        descs, fds = [], []
        for buf in buffers:
            desc, buf_fds = self.pool.describe(buf)
            descs.append(desc)
            fds.extend(buf_fds)
        specs = [{name: {"buffer": i, "offset": int(off), "dtype": dtype,
                         "shape": [int(d) for d in shape]}
                  for name, (i, off, dtype, shape) in s.items()} for s in sets]
        try:
            reply = self.request({"op": "bind", "first_id": first, "buffers": descs,
                                  "sets": specs, "nfds": len(fds)}, timeout_s, fds)
        finally:
            for fd in fds:
                os.close(fd)
        if not reply["ok"]:
            raise SubjectFailure(f"{self.subject}: cannot map the arena's buffers: "
                                 f"{reply.get('error', '')}", reply.get("log", ""))
        self.bound[first] = buffers
        return list(range(first, first + len(sets)))

    def unbind(self, ids, timeout_s):
        """Takes back what one bind() lent (its ids) and frees the buffers."""
        first = ids[0] if ids else None
        if first in self.bound and self.alive():
            try:
                self.request({"op": "unbind", "ids": [first]}, timeout_s)
            except SubjectFailure:
                pass
        for b in self.bound.pop(first, []):
            b.free()
