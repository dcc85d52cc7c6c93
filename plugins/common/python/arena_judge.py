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

Before the subject's code is loaded, the judge asks the runner what
observes its launches; where CUPTI does (a GPU), load hands the observer a
key the judge made, and every reply that ran the subject's code must carry
the observer's report of what was launched, signed under that key and
numbered (launch_names.cc): the runner's Python, which the subject's code
can rewrite, passes it on but cannot make or change one, nor drop one
unseen. Each launch that is none of the subject's Triton kernels (told by
the handle CUPTI saw launched, not by a name), and each that came while
the observer was switched to something the runner was not doing, becomes
a finding (launch_findings), as the runner's findings do.

Public API: RunnerClient (start, go, stop, alive, request, bind, unbind, freeze,
settle_stop, ran_while_stopped, take_stop_tally, process_tree, findings, frozen_pids, observer), SubjectFailure,
siphash24, parse_report, launch_findings, and CHILDREN_LISTED (whether
this kernel lists a thread's children in /proc). Imports no torch.
"""

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

_MAX_LINE = 1 << 20
_LOG_CAP = 256 << 20
# The runner's file, run outside the sandbox as its launcher builder.
_RUNNER_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "arena_runner.py")


# Whether this kernel lists a thread's children in /proc (CONFIG_PROC_CHILDREN).
CHILDREN_LISTED = os.access(f"/proc/{os.getpid()}/task/{os.getpid()}/children", os.R_OK)


def _thread_dirs(pid):
    """/proc/PID/task/TID of every thread of `pid` (none once it ended)."""
    try:
        return [f"/proc/{pid}/task/{tid}" for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def _read(path):
    """A /proc file's bytes, read to its end (b"" once its process or thread
    ended): without Python's file objects, the freeze checks read hundreds
    a round. (A thread's children list has no bound on its length; a read
    of /proc's files comes back short only at their end.)"""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    chunks = []
    try:
        while True:
            chunks.append(os.read(fd, 65536))
            if len(chunks[-1]) < 65536:
                break
    except OSError:
        return b""
    finally:
        os.close(fd)
    return b"".join(chunks)


def _stat_fields(path):
    """The fields of a /proc stat file after the name, which is in
    parentheses (state, parent, ...); [] once the process or thread ended."""
    stat = _read(path)
    return stat[stat.rindex(b")") + 2:].split() if b")" in stat else []


def last_cpu(pid):
    """The CPU the process `pid`'s main thread last ran on (its stat's 39th
    field), or -1: for the report alone (where the judge and its runners
    ran, when their round trips differ)."""
    fields = _stat_fields(f"/proc/{pid}/stat")
    try:
        return int(fields[36])
    except (ValueError, IndexError):
        return -1


def _listed_children(pid):
    """The children of every thread of `pid`, from /proc/PID/task/TID/children
    (a thread or process that ended meanwhile has none)."""
    found = []
    for thread in _thread_dirs(pid):
        try:
            found.extend(int(c) for c in _read(f"{thread}/children").split())
        except ValueError:
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


def _not_stopped(pids):
    """A thread of `pids` that is neither stopped nor ended nor in an
    uninterruptible wait (which it leaves only to stop: a pending stop is
    taken before any of its own code runs), as "thread TID (state S)"; ""
    if none. One that runs or sleeps on after its stop had time to take
    effect evaded it: its tracer let the stop go (ptrace), say."""
    for pid in pids:
        for thread in _thread_dirs(pid):
            fields = _stat_fields(f"{thread}/stat")
            if fields and fields[0] in (b"R", b"S"):
                return f"thread {thread.rsplit('/', 1)[1]} (state {fields[0].decode()})"
    return ""


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


_TICK_NS = 1_000_000_000 // max(1, os.sysconf("SC_CLK_TCK"))
# What a stopped tree may still be charged on a CPU (a signal's delivery).
_STOPPED_SLACK_NS = 500_000


def _thread_account(thread):
    """(its time on a CPU in ns, whether counted in clock ticks, how many
    times it was put on a CPU) for the thread at `thread`, or None once it
    ended. schedstat's first and third fields; where the kernel keeps no
    schedstat, the stat file's user and system time and status's context
    switches (how many times it left a CPU). Both counts only grow, and a
    stopped thread's stand still until it is continued or killed."""
    sched = _read(f"{thread}/schedstat").split()
    if len(sched) >= 3:
        try:
            return int(sched[0]), False, int(sched[2])
        except ValueError:
            pass
    fields = _stat_fields(f"{thread}/stat")
    switches = [int(line.split()[1]) for line in _read(f"{thread}/status").splitlines()
                if line.split(b":")[0] in (b"voluntary_ctxt_switches", b"nonvoluntary_ctxt_switches")]
    try:
        return (int(fields[11]) + int(fields[12])) * _TICK_NS, True, sum(switches)  # utime, stime
    except (ValueError, IndexError):
        return None


def _process_cpu_ns(pid):
    """The time every thread of process `pid` has run on a CPU, those that
    ended included, in nanoseconds (its process CPU-time clock, which the
    kernel lets anyone read: one system call), or None where it cannot be
    read."""
    try:
        return time.clock_gettime_ns((~pid << 3) | 2)  # CPUCLOCK_SCHED of the process
    except OSError:
        return None


def _account(pids, stopped_slices=True):
    """The tree's time on a CPU (ns), whether counted in ticks, and, where
    `stopped_slices`, one thread a process that is stopped now and off every
    run queue, with its times put on a CPU: a SIGCONT continues every thread
    of its process, and each is put on a CPU to go on. (Off the run queue:
    its wchan names where it sleeps; a thread preempted as it stops waits on
    a run queue, marked stopped, with a wchan of 0, as it is where the judge
    may not read it.)"""
    ns, coarse, slices = 0, False, {}
    for pid in pids:
        own = _process_cpu_ns(pid)
        threads = _thread_dirs(pid) if own is None or stopped_slices else ()
        if own is not None:
            ns += own
        else:
            for thread in threads:
                account = _thread_account(thread)
                if account is not None:
                    ns, coarse = ns + account[0], coarse or account[1]
        for thread in threads if stopped_slices else ():
            fields = _stat_fields(f"{thread}/stat")
            if fields and fields[0] in (b"T", b"t") and _read(f"{thread}/wchan").strip() not in (b"", b"0"):
                account = _thread_account(thread)
                if account is not None:
                    slices[thread] = account[2]
                    break
    return ns, coarse, slices


def _settled_account(pids, limit_s=0.02):
    """_account of a tree just stopped, once two readings of its time 200 us
    apart agree (a thread marked stopped can still be on a CPU, its last
    stretch not yet in its account), or `limit_s` passed."""
    deadline = time.monotonic() + limit_s
    last = _account(pids, stopped_slices=False)
    while time.monotonic() < deadline:
        time.sleep(0.0002)
        now = _account(pids)
        if now[0] == last[0]:
            return now
        last = now
    return _account(pids)


# The most descriptors one message to a runner carries (its receive takes
# as many: arena_runner's _FDS_PER_MESSAGE).
FDS_PER_MESSAGE = 64

# The exit status of a runner its native-code guard ended (native_guard.cc):
# the subject's process loaded a library from outside the installation.
NATIVE_GUARD_STATUS = 86


class SubjectFailure(Exception):
    """The subject's process failed; the message says how."""

    def __init__(self, message, log="", integrity=False, timed_out=False, findings=()):
        super().__init__(message)
        self.log = log
        self.integrity = integrity  # the runner broke the protocol
        self.timed_out = timed_out
        # What the runner found before it failed: the failure's cause, as
        # often as not (a subject refused something, caught the refusal and
        # hung, say), and what its verdict names first.
        self.findings = list(findings)


_MASK64 = (1 << 64) - 1


def siphash24(key, data):
    """SipHash-2-4 of DATA (bytes) under the 16-byte KEY, as an integer
    (signed_report.h's, which the launch observer signs with)."""
    def rotl(x, b):
        return ((x << b) | (x >> (64 - b))) & _MASK64
    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:16], "little")
    v = [0x736f6d6570736575 ^ k0, 0x646f72616e646f6d ^ k1, 0x6c7967656e657261 ^ k0, 0x7465646279746573 ^ k1]

    def rounds(n):
        for _ in range(n):
            v[0] = (v[0] + v[1]) & _MASK64
            v[1] = rotl(v[1], 13) ^ v[0]
            v[0] = rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & _MASK64
            v[3] = rotl(v[3], 16) ^ v[2]
            v[0] = (v[0] + v[3]) & _MASK64
            v[3] = rotl(v[3], 21) ^ v[0]
            v[2] = (v[2] + v[1]) & _MASK64
            v[1] = rotl(v[1], 17) ^ v[2]
            v[2] = rotl(v[2], 32)
    whole = len(data) - len(data) % 8
    for i in range(0, whole, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v[3] ^= m
        rounds(2)
        v[0] ^= m
    last = (len(data) & 0xff) << 56 | int.from_bytes(data[whole:], "little")
    v[3] ^= last
    rounds(2)
    v[0] ^= last
    v[2] ^= 0xff
    rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def parse_report(text, key):
    """The launch observer's report (launch_names.cc) as {"seq", "off",
    "more", "launches": [(when, how, handle, name)]}; None where TEXT is not
    a report the observer signed under KEY."""
    if not isinstance(text, str) or not text.endswith("\n"):
        return None
    body, _, last = text[:-1].rpartition("\n")
    body += "\n"
    if last != "mac " + format(siphash24(key, body.encode()), "016x"):
        return None
    lines = body.splitlines()
    if lines[:1] != ["arena-launches 1"]:
        return None
    report = {"launches": []}
    try:
        for line in lines[1:]:
            field, _, value = line.partition(" ")
            if field == "launch":
                when, how, handle, name = value.split(" ", 3)
                report["launches"].append((when, how, int(handle, 16), name))
            elif field in ("seq", "off", "more"):
                report[field] = int(value)
            else:
                return None
    except ValueError:
        return None
    return report if {"seq", "off", "more"} <= report.keys() else None


def _is_fill(name):
    """torch's fill kernel, as CUPTI names it (mangled), or demangled."""
    return "FillFunctor" in name and (name.startswith("_ZN2at6native") or "at::native::" in name)


def launch_findings(report, handles, fills, allows_ops):
    """The findings in a launch observer's report (parse_report), against
    HANDLES, the Triton kernels the subject launched, FILLS, the fills
    Triton's own code asked torch for (its autotuner clears the L2 with
    them), and whether the task ALLOWS_OPS of a library. By when each
    launch came: the subject's code (S) launches its Triton kernels, and
    torch's fills where Triton asked; the runner's own work (R) launches
    nothing but graph replays and torch's fills of its generator's state as
    a graph is captured; an op the task allows (A) runs only where the task
    allows one; nothing runs between requests (B). Whoever makes host
    memory the GPU can reach (h), hands device memory to another process
    (x), or leaves work to start later or in a context of its own (w), it
    is not the runner."""
    findings = []
    if report["off"]:
        findings.append("tampering: the launch observer's callbacks were turned off")
    if report["more"]:
        findings.append("tampering: more distinct launches than the launch observer keeps (some unseen)")
    for when, how, handle, name in report["launches"]:
        name = name[:200]
        if how == "h":
            findings.append(f"host compute: {name} made host memory the GPU can reach (a kernel could copy "
                            "the inputs there for the host to compute on; seen by CUPTI)")
        elif how == "x":
            findings.append(f"tampering: {name} handed device memory to another process (whose work on it "
                            "is not observed; seen by CUPTI)")
        elif how == "w":
            findings.append(f"tampering: {name} left work to start later (a wait on a memory value or a "
                            "semaphore, which the judge's writes of a round's inputs would release while the "
                            "runner is stopped, off the clock) or made a context of its own (which the "
                            "runner's wait at the end of a call does not wait for; seen by CUPTI)")
        elif when == "B":
            findings.append(f"work between requests: kernel {name} launched while no request ran the "
                            "subject's code (a thread it left running; seen by CUPTI)")
        elif when == "R":
            if how != "g" and not _is_fill(name):
                findings.append(f"tampering: kernel {name} ran while the launch observer was switched to the "
                                "runner's own work, which launches no such kernel (seen by CUPTI)")
        elif when == "A":
            if not allows_ops:
                findings.append(f"tampering: kernel {name} ran while the launch observer was told an op the "
                                "task allows ran, and the task allows none (seen by CUPTI)")
        elif how == "g":
            findings.append("library compute: a CUDA graph was launched by the subject's code (seen by CUPTI)")
        elif not (how == "d" and handle in handles) and not (fills > 0 and _is_fill(name)):
            findings.append(f"library compute: kernel {name} ran on the GPU, not one of the subject's "
                            "Triton kernels (seen by CUPTI)")
    # Handles, not launch counts: Triton launches nothing for an empty
    # grid, so fewer launches seen than it was asked for would be no sign.
    return findings


# The runner's requests that run none of the subject's code (arena_runner's
# _RUNNERS_OWN): their replies carry no report.
_RUNNERS_OWN = ("bind", "replay", "empty", "observer")


class RunnerClient:
    def __init__(self, subject, argv, log_path, pool, launchers=None):
        self.subject = subject
        self.argv = argv
        self.log_path = log_path
        self.pool = pool
        self.proc = None
        self.sock = None
        # The machine's folder of Triton's launchers (the runner sees it
        # read-only), or None: a builder of the arena's own starts beside
        # each runner, outside its sandbox, with a socket to it
        # (arena_runner.LauncherBuilder).
        self.launchers = launchers
        self.builder = None
        self._findings = []  # findings (the property below adds the reports' own)
        self._heard = 0  # finding lines heard from the runner, against what its replies say it said
        self._unchecked = []  # the launch observer's reports, not yet checked
        self.observer = None  # what observes its launches, as the runner said before load
        self._key = None  # the key its launch observer signs reports with
        self._seq = 0  # the number of its observer's last report
        self._observed = False  # whether the last reply carried a report
        # The task's own arguments, where the runner was started before its
        # task was known (--await-go: it waits for them, imported and
        # without a GPU context): sent as it starts once set (go), or by
        # the judge that took it over; None: the argv holds them.
        self.go_args = None
        self._buffer = b""
        self._next_id = 0
        self.frozen_pids = None
        # The stopped tree's account (time on a CPU, whether in ticks, each
        # stopped thread's times put on a CPU), read once the stop settled.
        self._stopped_account = None
        self._frozen = False
        self._not_stopped = ""  # a thread that ran or slept on after the stop
        self._stop_tally = (0, 0)  # settled stops, the fewest threads one counted
        # The most time on a CPU a check found a stopped tree had run, under
        # the slack (what honest runners come to).
        self._most_ns_while_stopped = 0
        self.bound = {}  # first set id -> [Buffer]
        # Called with I when the runner pauses after a witnessed call I, or
        # between the two parts of a replay whose first ends with call I
        # (the timing rounds set them), before it goes on.
        self.on_pause = None
        self.on_split = None
        self._splits = 0  # splits heard in this request's reply (one at most)
        # When the last split was heard and its "go" sent (the judge's
        # clock), for the report's parts of a round.
        self.split_seen_at = self.go_sent_at = None
        # How long a receive polls the socket before it sleeps (the timing
        # rounds set it on a GPU: a reply is read as it comes, whatever the
        # judge's own wake-up costs on the machine); 0: it sleeps at once.
        self.spin_s = 0.0
        self._last_pause = -1  # the call of the last pause heard in it (each call's once, in order)

    @property
    def allows_ops(self):
        """Whether the task allows ops of a library (the launch observer then
        sees their kernels run as the op's)."""
        return any(a.startswith("--allow-ops=") and a != "--allow-ops="
                   for a in list(self.argv) + list(self.go_args or ()))

    # -- process ---------------------------------------------------------------
    def start(self):
        self.stop()
        self._check_reports()  # the last runner's, before its key goes
        self.observer, self._key, self._seq = None, None, 0  # a fresh runner, a fresh observer
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
        argv, builder_end, runner_end = self.argv, None, None
        try:
            if self.launchers:
                # Outside the sandbox, in no subject's reach: it ends when
                # the runner's end of their socket closes.
                builder_end, runner_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
                self.builder = subprocess.Popen(
                    [sys.executable, "-s", "-B", _RUNNER_FILE, "--launcher-builder=" + self.launchers],
                    stdin=builder_end, stdout=log, stderr=log, close_fds=True, start_new_session=True,
                    preexec_fn=limits)
                argv = argv + [f"--launcher-fd={runner_end.fileno()}"]
            # The sandbox's own first process keeps the environment it is
            # started with, readable inside as /proc/1/environ: give it none.
            self.proc = subprocess.Popen(argv, stdin=child, stdout=log, stderr=log,
                                         close_fds=True, start_new_session=True,
                                         pass_fds=(runner_end.fileno(),) if runner_end else (),
                                         preexec_fn=limits, env={"PATH": "/usr/bin:/bin"})
        except OSError as e:
            raise SubjectFailure(f"cannot start the {self.subject}'s runner: {e}") from e
        finally:
            for end in (child, builder_end, runner_end):
                if end is not None:
                    end.close()
            log.close()
        self.sock = parent
        self._buffer = b""
        self.bound = {}
        if self.go_args is not None:
            self.go()

    def go(self):
        """Hands a runner started with --await-go its task's arguments
        (go_args): it then makes its GPU context and readies itself. Before
        any other request; raises SubjectFailure where it is not running."""
        self.send({"op": "go", "args": [str(a) for a in self.go_args]})

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        for proc in (self.proc, self.builder):
            if proc is None:
                continue
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.builder = None
        self._frozen, self._stopped_account = False, None
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
        self._frozen = stopped
        self._stopped_account, self._not_stopped = None, ""
        if stopped and settle:
            self.settle_stop()

    def settle_stop(self):
        """Once stopped (freeze(True, settle=False) returns at once): waits
        until every thread is stopped and reads the tree's account, against
        which ran_while_stopped tells."""
        if not self._frozen or not self.alive() or self._stopped_account is not None:
            return
        # A process forked after the tree was read, by one not yet stopped,
        # would never be: once what was read has stopped, the tree is read
        # again and what is new stopped, until nothing is (a stopped
        # process forks nothing).
        fresh, tree = list(self.frozen_pids), []
        for _ in range(64):
            if not fresh:
                break
            _wait_stopped(fresh)
            known = set(self.frozen_pids)
            tree = self.process_tree()
            fresh = [pid for pid in tree if pid not in known]
            for pid in fresh:
                try:
                    os.kill(pid, signal.SIGSTOP)
                except (ProcessLookupError, PermissionError):
                    pass
            self.frozen_pids.extend(fresh)
        # Every thread stopped by now, or in an uninterruptible wait; one
        # that is not gets a second more.
        self._not_stopped = _not_stopped(self.frozen_pids)
        if self._not_stopped:
            _wait_stopped(self.frozen_pids, limit_s=1.0)
            self._not_stopped = _not_stopped(self.frozen_pids)
        # The last reading found nothing new: it is the stopped tree.
        self._stopped_account = _settled_account(tree if not fresh else self.process_tree())
        counted = len(self._stopped_account[2])
        stops, fewest = self._stop_tally
        self._stop_tally = (stops + 1, counted if stops == 0 else min(fewest, counted))

    def take_stop_tally(self):
        """The stops settled since the last call, and the fewest threads one
        of them counted (one a process, seen stopped and off every run queue:
        none where the judge may not read their wchan, and the time on a CPU
        alone then tells): reported with a timing, so that a run shows the
        check held."""
        tally, self._stop_tally = self._stop_tally, (0, 0)
        most, self._most_ns_while_stopped = self._most_ns_while_stopped, 0
        return {"stops": tally[0], "fewest_threads_counted": tally[1], "most_us_while_stopped": most / 1e3}

    def ran_while_stopped(self):
        """A finding if the runner's tree ran on a CPU since its stop settled
        ("" if not, or if it is not stopped): a SIGCONT from anything but the
        judge (a timer's, a signal on I/O) undoes a stop, and the tree then
        works while the other subject is timed, or reads a round's inputs as
        they are written. Named past 0.5 ms on a CPU, and, under that, once
        any thread seen stopped was put on a CPU again (or ended), which one
        that stays stopped never is, or a process appeared in it, or one of
        its threads never stopped."""
        if self._stopped_account is None or not self.alive():
            return ""
        ns0, coarse0, slices0 = self._stopped_account
        tree = self.process_tree()

        def ran(what):
            return (f"tampering: {self.subject}'s runner ran while it was stopped ({what}): "
                    "a process that resumes itself works while the other subject is timed")
        known = set(self.frozen_pids)
        if any(pid not in known for pid in tree):
            return ran("a process was started in it")
        not_stopped = self._not_stopped or _not_stopped(tree)  # then, or now
        if not_stopped:
            return ran(f"it never stopped: {not_stopped}")
        ns, coarse, _ = _account(tree, stopped_slices=False)
        self._most_ns_while_stopped = max(self._most_ns_while_stopped, ns - ns0)
        if ns > ns0 + _STOPPED_SLACK_NS + (_TICK_NS if coarse or coarse0 else 0):
            return ran(f"{(ns - ns0) / 1e6:.1f} ms on a CPU")
        later = {thread: _thread_account(thread) for thread in slices0}
        ended = sum(1 for n in later.values() if n is None)
        scheduled = sum(1 for t, n in later.items() if n is not None and n[2] != slices0[t])
        if not scheduled and not ended:
            return ""
        return ran(", ".join(w for w in (f"{scheduled} of its stopped threads put on a CPU again" if scheduled else "",
                                         f"{ended} of them ended" if ended else "") if w))

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
        if code == NATIVE_GUARD_STATUS:
            return ("was ended by the native-code guard: native code from outside the installation was "
                    "loaded in its process (its log names the file)")
        return f"exited with status {code}"

    def _fail(self, message, protocol=False, timed_out=False):
        """Kills the runner and raises its failure; `protocol`: it broke the
        protocol (an integrity finding, not an accident), as a runner the
        native-code guard ended has."""
        if self.proc is not None and self.proc.poll() == NATIVE_GUARD_STATUS:
            protocol = True
        log = self.log_tail()
        self._drain_findings()
        findings, self.findings = list(self.findings), []  # reported with this failure, once
        self.stop()
        raise SubjectFailure(f"{self.subject}: {message}", log, protocol, timed_out, findings)

    # -- protocol --------------------------------------------------------------
    def send(self, obj, fds=()):
        if not self.alive():
            raise SubjectFailure(f"{self.subject}: runner is not running")
        data = (json.dumps(obj) + "\n").encode()
        try:
            fds = list(fds)
            if fds:
                # In batches the runner takes (FDS_PER_MESSAGE a message),
                # each with a piece of the line (spaces before it, where the
                # line is shorter than the batches: JSON skips them).
                batches = [fds[i:i + FDS_PER_MESSAGE] for i in range(0, len(fds), FDS_PER_MESSAGE)]
                data = b" " * max(0, len(batches) - len(data)) + data
                step = -(-len(data) // len(batches))
                for k, batch in enumerate(batches):
                    piece = data[k * step:(k + 1) * step] if k < len(batches) - 1 else data[k * step:]
                    sent = socket.send_fds(self.sock, [piece], batch)
                    if sent < len(piece):
                        self.sock.sendall(piece[sent:])
            else:
                self.sock.sendall(data)
        except OSError as e:
            self._fail(f"runner {self._ended()} ({e})")

    def receive(self, timeout_s):
        """The next reply; findings met on the way are kept in self.findings
        (the launch observer's reports among them, checked when findings are
        read: outside a timed request)."""
        deadline = time.monotonic() + timeout_s
        polled_until = time.monotonic() + self.spin_s
        while True:
            while b"\n" not in self._buffer:
                now = time.monotonic()
                left = deadline - now
                if left <= 0:
                    self._fail(f"timed out after {timeout_s:.1f} s", timed_out=True)
                if now >= polled_until:  # (before it, polled: no sleep)
                    ready, _, _ = select.select([self.sock], [], [], left)
                    if not ready:
                        continue
                try:
                    chunk = self.sock.recv(1 << 16, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    continue
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
                self._findings.append(str(msg["finding"])[:500])
                self._heard += 1
                continue
            if ("pause" in msg or "split" in msg) and "ok" not in msg:
                # A witnessed call (arena_runner's call_sets: the runner has
                # waited for its GPU), or a replay between its two parts
                # (arena_runner's replay): the runner waits for the judge,
                # which may take a witness first (on_pause, on_split).
                word = "pause" if "pause" in msg else "split"
                at = msg[word]
                if type(at) is not int or (word == "split" and self._splits) or \
                        (word == "pause" and at <= self._last_pause):
                    self._fail(f"runner sent a {word} that is not the protocol", protocol=True)
                if word == "split":
                    self._splits += 1
                else:
                    self._last_pause = at
                if word == "split":
                    self.split_seen_at = time.perf_counter()
                handler = self.on_pause if word == "pause" else self.on_split
                if handler is not None:
                    handler(at)
                self.send({"op": "resume" if word == "pause" else "go"})
                if word == "split":
                    self.go_sent_at = time.perf_counter()
                continue
            seen = msg.pop("observed", None)
            self._observed = seen is not None
            if self._key is not None and seen is not None:
                self._unchecked.append(seen)
            return msg

    def _check_reports(self):
        unchecked, self._unchecked = self._unchecked, []
        for seen in unchecked:
            for finding in self._observation_findings(seen):
                if finding not in self._findings:
                    self._findings.append(finding)

    @property
    def findings(self):
        """What the runner's replies and its launch observer's reports found."""
        self._check_reports()
        return self._findings

    @findings.setter
    def findings(self, value):
        self._findings = value  # (reports not yet checked stay, for the next read)

    def _observation_findings(self, seen):
        """The findings in an observation a reply carried: its signed report
        (each report is one of the observer's takes, numbered: a number
        skipped is a take by someone else, what it saw dropped), against the
        Triton kernels the runner saw the subject launch."""
        report = parse_report(seen.get("report") if isinstance(seen, dict) else None, self._key)
        if report is None:
            return ["tampering: the launch observer's report is not one it signed (made or changed "
                    "on the way)"]
        findings = []
        if report["seq"] <= self._seq:
            findings.append("tampering: a report of the launch observer's came again")
        elif report["seq"] != self._seq + 1:
            findings.append(f"tampering: the launch observer was read {report['seq'] - self._seq - 1} "
                            "time(s) besides the runner's replies: what it saw was dropped")
        self._seq = max(report["seq"], self._seq + 1)
        try:
            handles = {int(h, 16) for h in seen.get("handles", [])}
            fills = int(seen.get("fills", 0))
        except (AttributeError, TypeError, ValueError):
            return findings + ["runner's launch observation is malformed: not the protocol"]
        return findings + launch_findings(report, handles, fills, self.allows_ops)

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
            self._findings.append(str(msg["finding"])[:500])
            self._heard += 1
            self._buffer = rest

    def request(self, obj, timeout_s, fds=()):
        op = obj.get("op")
        if op == "load" and self.observer is None:
            # What observes the launches, asked before any of the subject's
            # code exists (nothing it says later changes it); where CUPTI
            # does, its key rides with load, ahead of the subject's import.
            said = self._exchange({"op": "observer"}, timeout_s)
            self.observer = str(said.get("observer", "none"))[:200]
            if self.observer == "cupti":
                self._key = os.urandom(16)
                read_end, write_end = os.pipe()
                os.write(write_end, self._key)
                os.close(write_end)
                try:
                    return self._checked(op, self._exchange(dict(obj, key_fds=1), timeout_s,
                                                            [read_end] + list(fds)))
                finally:
                    os.close(read_end)
        return self._checked(op, self._exchange(obj, timeout_s, fds))

    def _checked(self, op, reply):
        """REPLY, where a request that ran the subject's code must bring a
        report of the launch observer's (it has one)."""
        if self._key is not None and op not in _RUNNERS_OWN and not self._observed:
            finding = "tampering: a reply lacks the launch observer's report (what it saw, dropped)"
            if finding not in self._findings:
                self._findings.append(finding)
        return reply

    def _exchange(self, obj, timeout_s, fds=()):
        self._drain_findings()
        if self._buffer.strip():
            self._fail("runner sent a reply nobody asked for: not the protocol",
                       protocol=True)
        self._splits = 0
        self._last_pause = -1
        self.split_seen_at = self.go_sent_at = None
        self.send(obj, fds)
        reply = self.receive(timeout_s)
        if not isinstance(reply.get("ok"), bool):
            self._fail("runner's reply has no 'ok': not the protocol",
                       protocol=True)
        # Every reply says how many findings the runner sent before it: one
        # sent and never heard was dropped on the way (its socket's
        # descriptor redirected from inside for a while, say).
        said = reply.pop("said", None)
        if type(said) is not int:
            self._fail("runner's reply does not say how many findings it sent: not the protocol",
                       protocol=True)
        if said != self._heard:
            finding = (f"tampering: the runner sent {said} finding(s) and {self._heard} arrived: its "
                       "channel to the judge was redirected or written to from inside")
            if finding not in self._findings:
                self._findings.append(finding)
            self._heard = said
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
    def describe(self, buffers):
        """(descriptors, file descriptors) of `buffers` for bind: exported
        on the caller's thread (the driver's calls then have its context).
        bind closes the file descriptors, whatever happens."""
        descs, fds = [], []
        try:
            for buf in buffers:
                desc, buf_fds = self.pool.describe(buf)
                descs.append(desc)
                fds.extend(buf_fds)
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        return descs, fds

    def bind(self, buffers, sets, timeout_s, described=None):
        """Lends `buffers` (judge Buffers) cut into `sets`: each set maps a
        name to (buffer index, byte offset, dtype name, shape). Returns the
        sets' ids in order; unbind(ids) gives them back. DESCRIBED: what
        describe(buffers) gave, if it was called already."""
        first = self._next_id + 1
        self._next_id += len(sets)
        descs, fds = described if described is not None else self.describe(buffers)
        try:
            specs = [{name: {"buffer": i, "offset": int(off), "dtype": dtype,
                             "shape": [int(d) for d in shape]}
                      for name, (i, off, dtype, shape) in s.items()} for s in sets]
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
            except SubjectFailure as e:
                # Its findings stay, for the next reply to report (the failure
                # took them with it, and goes no further).
                self._findings = e.findings + self._findings
        for b in self.bound.pop(first, []):
            b.free()
