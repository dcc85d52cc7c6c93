"""The triton2triton judge.

One long-lived process per evaluation, driven by the C++ plugin: one JSON
request per line on stdin, one JSON reply per line on stdout. The judge
holds everything a verdict rests on (the seed, the reference, tolerances,
comparison, the clock) and never runs a subject's code: each subject
(baseline, candidate) runs in its own sandboxed runner process
(plugins/common/python/arena_runner.py), started from the command line the
plugin gives, which maps memory the judge lends it and answers "done". The
judge reads outputs from its own memory and times the runner from outside.

Requests:
  {"op": "spare", "runners": {S: {"argv": [...]}}}   (optional, first: the
   runners started before the task is known; "init" then names the same)
  {"op": "init", "task": {...}, "dirs": {"baseline": D}, "device": "cuda" | "cpu",
   "runners": {S: {"argv": [...], "go": [...]}}, "rounds_on_cpu": false}
   (go: the arguments a runner started with --await-go waits for)
   (rounds_on_cpu, for tests: "time" runs its rounds on the CPU, their
   times meaningless, the checks of the timed calls the GPU's)
  {"op": "compile", "subject": S, "configs": [{"name": N, "params": {...}}]}
  {"op": "check", "subject": S, "config": {...}, "seed": int, "trials": int}
  {"op": "time", "config": {...}}
  {"op": "quit"}
Every reply has "status" ("passed", "failed", "skipped" or "error"),
"detail" (one line), "log" and "metrics"; a finding against a subject's
integrity fails its stage with "integrity: ..." and is listed in
metrics.integrity.

By hand, without a sandbox, on a task folder's small configuration:
  TRITON_INTERPRET=1 python worker.py --selftest tasks/<family>/<suite>/<task>

Its parts: this file (requests, runners, inputs, checks), judge_rounds.py
(the timing rounds), judge_support.py (what both use).

Public API: Judge (init, compile, check, time; draw_inputs and draw_sets make
a trial's and a timing round's inputs), RoundDraws (a timing stage's rounds'
inputs, an inputs function's captured on the GPU), IntegrityFailure, slot_bytes(),
sample_index(), gather() and SAMPLE_ELEMENTS (where a timed call is read),
serve() and selftest(task_dir).
"""

import json
import math
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "common", "python"))
from arena_judge import RunnerClient, SubjectFailure  # noqa: E402  (imports no torch)


def _start_runners_early():
    """Serving the plugin, the first request is "init" or "spare": it is
    read, and the runners it names started, before this process imports
    torch (seconds, as each runner's own import is), so that the three
    imports overlap. "spare" ({"op": "spare", "runners": {S: spec}}) comes
    from a plugin that starts the judge before its task is known: it is
    answered at once, and "init" comes later, naming the same runners (which
    wait, with no GPU context, for its "go" arguments: --await-go).
    Returns (the init line read, or "", {subject: started RunnerClient})."""
    line = sys.stdin.readline()
    started = {}
    op, error = None, None
    try:
        req = json.loads(line)
        op = req.get("op")
        if op in ("init", "spare"):
            for subject, spec in req["runners"].items():
                client = RunnerClient(subject, spec["argv"], f"runner-{subject}.log", None, spec.get("launchers"))
                client.start()
                started[subject] = client
    except (ValueError, KeyError, TypeError, AttributeError, SubjectFailure) as e:
        error = e  # init, answered the usual way, says what is wrong (or starts it again)
    if op != "spare":
        return line, started
    reply = ({"status": "error", "detail": f"the spare judge's runners: {error}"} if error is not None else
             {"status": "passed", "detail": f"{len(started)} runner(s) started"})
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
    return "", started


_EARLY = _start_runners_early() if __name__ == "__main__" and len(sys.argv) == 1 else ("", {})

from arena_harness import (  # noqa: E402  (first: it sends prints to stderr)
    DEFAULT_TOLERANCES, DTYPES, TaskError, bitwise_equal, compare, evaluate,
    fingerprint, load_module, median, make_reply, trial_seed)
import arena_harness  # noqa: E402
from arena_buffers import BufferPool, raise_open_files_limit  # noqa: E402

import torch  # noqa: E402
from judge_rounds import TimingRounds  # noqa: E402
from judge_support import (  # noqa: E402,F401  (public names of this module too)
    SAMPLE_ELEMENTS, SUBJECTS, IdleGpu, IntegrityFailure, each_together, gather, poison_value, runner_costs,
    sample_index, slot_bytes)

def _resolve(ref, directory, prefix):
    """'file.py:function' inside `directory` -> the function (judge side only)."""
    file_name, _, func = ref.partition(":")
    if not func:
        raise TaskError(f"'{ref}' must look like file.py:function")
    path = os.path.join(directory, file_name)
    if not os.path.isfile(path):
        raise TaskError(f"{file_name} is missing")
    module = load_module(path, f"{prefix}_{file_name[:-3].replace('/', '_')}")
    fn = getattr(module, func, None)
    if not callable(fn):
        raise TaskError(f"{file_name} defines no function '{func}'")
    return fn


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")



def _capture_round(device, body):
    """`body(generator)` captured as a CUDA graph; returns replay(seed),
    which seeds the graph's generator again and replays it: every replay
    draws new values (the generator's state is read at replay). A capture
    that fails leaves the stream it was started from current again."""
    stream = torch.cuda.current_stream()
    gen = torch.Generator(device=device)
    graph = torch.cuda.CUDAGraph()
    try:
        graph.register_generator_state(gen)
        with torch.cuda.graph(graph):
            body(gen)
    except BaseException:
        torch.cuda.set_stream(stream)
        torch.cuda.synchronize()  # a failure that is the GPU's own raises here
        raise

    def replay(seed):
        gen.manual_seed(seed)
        graph.replay()
    return replay


REPEAT_PLACES = 4096  # elements of a round's first set compared with earlier rounds'
# Fewer varying elements than this (one token routed to one of 8 experts)
# repeat by chance, however drawn, and any cache holds all their values:
# no repeat of theirs says anything about the capture.
REPEAT_MIN = 8
VARIATION_SETS = 8  # sets of a round that tell whether an input varies


class RoundDraws:
    """Fresh sets for every round of one timing stage, `count` sets a round
    (draw(slabs, seed)). Default distributions are drawn as draw_sets does.
    A task's inputs function is called once per set of the first round; on
    the GPU a whole round of its calls is then captured once per slab (a
    CUDA graph, replayed for each later round with its generator seeded
    again from the round's secret seed), where calling it for every set of
    every round took a quarter of a Triton task's timing. An inputs function
    that cannot be captured (it reads a value on the host, or copies from
    host memory) is called per set as before. Replayed rounds are held to
    called ones: the inputs that differ among a round's first sets
    (VARIATION_SETS) drawn by calls must differ in a slab's first replay,
    and those that do not, not (a value the function computed on the host
    would be frozen into every set by capture); and no round's first set
    may repeat an earlier round's at REPEAT_PLACES places (REPEAT_MIN
    elements or more). Where either fails, that round
    is drawn again by calls, and so is every later one. `how` says which
    was used."""

    def __init__(self, judge, params, count, capture=None):
        self.judge, self.params, self.count = judge, params, count
        self.capture = capture or (_capture_round if judge.device == "cuda" else None)
        self.names = [spec["name"] for spec in judge.task["inputs"]]
        self.replays = {}  # the slabs' data pointers -> replay(seed)
        self.checked = set()
        self.varies = None  # input name -> differs among a called round's first sets
        self.earlier = []  # each round's first set at REPEAT_PLACES places
        self.how = "calls"
        if judge.make_inputs is None:
            self.how = "in place"
        elif self.capture is None or count < 2:
            self.how = "calls (no GPU)" if self.capture is None else "calls (one set a round)"

    def draw(self, slabs, seed):
        if self.how not in ("calls", "graph"):
            self.judge.draw_sets(slabs, self.params, seed, self.count)
            return
        if self.varies is None:
            self.judge.draw_sets(slabs, self.params, seed, self.count)
            self.varies = self._variation(slabs)
            self._repeats(slabs)
            return
        why = self._replay(slabs, seed)
        if why:
            self.how = f"calls ({why})"
            self.replays.clear()
            self.judge.draw_sets(slabs, self.params, seed, self.count)
            return
        self.how = "graph"

    def _replay(self, slabs, seed):
        """Replays this slab's captured round (capturing it first); returns
        why the round must be drawn by calls instead, or ""."""
        key = tuple(slabs[name].data_ptr() for name in self.names)
        try:
            if key not in self.replays:
                self.replays[key] = self.capture(self.judge.device,
                                                 lambda gen: self._round(slabs, gen))
            self.replays[key](seed)
        except Exception as e:  # noqa: BLE001  (any failure: calls, as before)
            text = str(e).splitlines()[0][:160] if str(e) else ""
            return f"the inputs function was not captured: {type(e).__name__}: {text}"
        if key not in self.checked:
            self.checked.add(key)
            varies = self._variation(slabs)
            if varies != self.varies:
                frozen = sorted(n for n in varies if varies[n] != self.varies[n])
                return f"a replayed round's sets differed from called ones in: {', '.join(frozen)}"
        if self._repeats(slabs):
            return "a replayed round's first set repeated an earlier round's"
        return ""

    def _round(self, slabs, gen):
        for k in range(self.count):
            tensors = self.judge.make_inputs(params=self.params, generator=gen,
                                             device=self.judge.device)
            for name in self.names:
                slabs[name][k].copy_(tensors[name].reshape(-1))

    def _variation(self, slabs):
        """Which inputs vary among a round's first sets (a few: an input of
        few values, one expert of 8, can be the same in two of them)."""
        first = range(1, min(self.count, VARIATION_SETS))
        return {name: any(not bitwise_equal(slabs[name][0], slabs[name][k]) for k in first)
                for name in self.names}

    def _repeats(self, slabs):
        """Whether this round's first set holds, at REPEAT_PLACES places of
        its varying inputs, what an earlier round's did (and keeps it)."""
        places = []
        for name in self.names:
            if self.varies.get(name):
                row = slabs[name][0]
                step = max(1, row.numel() // REPEAT_PLACES)
                places.append(row[::step][:REPEAT_PLACES].clone())
        repeated = sum(p.numel() for p in places) >= REPEAT_MIN and any(
            all(bitwise_equal(a, b) for a, b in zip(places, seen)) for seen in self.earlier)
        self.earlier.append(places)
        return repeated

    def close(self):
        """Frees the graphs (before the slabs they write are unbound)."""
        self.replays.clear()


class Judge(TimingRounds):
    def __init__(self):
        self.task = None
        self.device = "cpu"
        self.runners = {}
        self.entry_loaded = {}
        self.load_costs = {}  # subject: where its runner's load went (runner_costs)
        self.reference = None
        self.make_inputs = None
        self.flush = None
        self._reference_key = None
        self._reference_outputs = {}
        self.stage_s = 300.0  # what the family allows one request of its own (init says)
        self.deadline = None  # when the request being served must have its reply
        # Tests only: timing rounds on the CPU (the interpreter), whose times
        # mean nothing but whose checks of the timed calls are the GPU's.
        self.rounds_on_cpu = False
        # The device memory the timing rounds' sets are sized from (init).
        self.free_bytes = 1 << 30

    @property
    def timeout_s(self):
        """Seconds a runner's request may take now: what is left of the
        request being served (a runner that hangs is given up on, and
        named, before the family gives up on the judge; a slow start of the
        runner eats into the same time), and at least one."""
        if self.deadline is None:
            return self.stage_s
        return max(1.0, self.deadline - time.monotonic())

    def serving(self, handler):
        """HANDLER, served against a deadline of its own."""
        def serve(req):
            self.deadline = time.monotonic() + self.stage_s
            try:
                return handler(req)
            finally:
                self.deadline = None
        return serve

    # -- setup ---------------------------------------------------------------
    def init(self, req):
        self.task = req["task"]
        self.device = req["device"]
        self.stage_s = float(req.get("timeout_s", 300))
        section = self.task.get("family_section") or {}
        self.section = section
        harness_dir = req["dirs"]["baseline"]
        self.reference = _resolve(section["reference"], harness_dir, "reference")
        self.make_inputs = None
        if section.get("inputs"):
            self.make_inputs = _resolve(section["inputs"], harness_dir, "inputs")
        self.reference_dtype = section.get("reference_dtype", "float64")
        if self.device == "cuda":
            torch.cuda.init()
            l2 = torch.cuda.get_device_properties(0).L2_cache_size
            self.l2_bytes = l2
            self.flush = torch.empty(max(2 * l2, 64 << 20) // 4, dtype=torch.float32,
                                     device="cuda")
            # Before any runner has loaded a subject's code.
            self.idle_gpu = IdleGpu(self._timed_eviction)
            # Also before: a subject that held most of the GPU's memory
            # would otherwise shrink every round's sets, both subjects'
            # alike, below twice the L2 (both timed on warm data, which its
            # kernel may gain more from); now its own stage fails where the
            # judge cannot lend what the rounds need.
            self.free_bytes = torch.cuda.mem_get_info()[0]
        self.rounds_on_cpu = self.device == "cpu" and bool(req.get("rounds_on_cpu"))
        if self.rounds_on_cpu:
            # One thread: an "eviction" spread over threads on a loaded
            # host waits for whichever thread the scheduler put off (tens
            # of ms, round after round), which reads as a busy GPU.
            torch.set_num_threads(1)
            self.l2_bytes = 0
            self.flush = torch.empty(1 << 20, dtype=torch.float32)
            self.idle_gpu = IdleGpu(self._timed_eviction)
        early = _EARLY[1]
        for subject, spec in req["runners"].items():
            pool = BufferPool(self.device)
            runner = early.pop(subject, None)
            if runner is None or runner.argv != spec["argv"] or runner.launchers != spec.get("launchers") or \
                    not runner.alive():
                if runner is not None:
                    runner.stop()
                runner = RunnerClient(subject, spec["argv"], f"runner-{subject}.log", pool, spec.get("launchers"))
                runner.go_args = spec.get("go")
                # Both start side by side (importing torch takes seconds);
                # each loads its subject's files at its compile.
                try:
                    runner.start()
                except SubjectFailure:
                    pass  # started again, and reported, at that subject's compile
            else:
                # Started before the task was known: its arguments now
                # (and again at every start after a failure).
                runner.go_args = spec.get("go")
                if runner.go_args is not None:
                    try:
                        runner.go()
                    except SubjectFailure:
                        pass  # started again, and reported, at that subject's compile
            runner.pool = pool
            self.runners[subject] = runner
            self.entry_loaded[subject] = False
        for runner in early.values():
            runner.stop()
        early.clear()
        return make_reply("passed", f"judge ready on {self.device}",
                          metrics={"torch": torch.__version__, "triton": _triton_version(),
                                   "python": platform.python_version()})

    # -- inputs and outputs ---------------------------------------------------
    def draw_inputs(self, params, seed, validate=True):
        """One trial's inputs, drawn from `seed`; an inputs function's are
        held to the interface unless `validate` is off (sets of a round after
        the first: same function, same parameters)."""
        gen = torch.Generator(device=self.device)
        gen.manual_seed(seed)
        if self.make_inputs is not None:
            tensors = self.make_inputs(params=params, generator=gen, device=self.device)
            if not isinstance(tensors, dict):
                raise TaskError("the inputs function must return a dict of tensors")
            if not validate:
                return tensors
            # What it returns must be what the interface declares: names,
            # dtypes and shapes.
            declared = {spec["name"]: spec for spec in self.task["inputs"]}
            for name, spec in declared.items():
                if name not in tensors:
                    raise TaskError(f"inputs function returned no '{name}'")
            for name, t in tensors.items():
                if name not in declared:
                    raise TaskError(f"inputs function returned '{name}', which the interface "
                                    "does not declare")
                if not isinstance(t, torch.Tensor):
                    raise TaskError(f"inputs function returned '{name}' that is not a tensor")
                spec = declared[name]
                if t.dtype != DTYPES[spec["dtype"]]:
                    raise TaskError(f"inputs function returned '{name}' as "
                                    f"{_dtype_name(t.dtype)}; the interface says {spec['dtype']}")
                shape = [int(evaluate(d, params)) for d in spec["shape"]]
                if list(t.shape) != shape:
                    raise TaskError(f"inputs function returned '{name}' of shape "
                                    f"{list(t.shape)}; the interface says {shape}")
            return {k: v.contiguous() for k, v in tensors.items()}
        tensors = {}
        for spec in self.task["inputs"]:
            shape = [int(evaluate(d, params)) for d in spec["shape"]]
            dist, a, b = self._init(spec, params)
            if dist == "normal":
                t = torch.randn(shape, generator=gen, device=self.device, dtype=torch.float32)
                t = t * b + a
            elif dist == "uniform":
                t = torch.rand(shape, generator=gen, device=self.device, dtype=torch.float32)
                t = t * (b - a) + a
            else:
                t = torch.randint(a, b, shape, generator=gen, device=self.device)
            tensors[spec["name"]] = t.to(DTYPES[spec["dtype"]])
        return tensors

    @staticmethod
    def _init(spec, params):
        """An input's distribution: ("normal", mean, std), ("uniform", low,
        high) or ("randint", low, high) (high excluded)."""
        init = spec.get("init") or {}
        dist = init.get("dist", "normal")
        if dist == "normal":
            return dist, float(init.get("mean", 0.0)), float(init.get("std", 1.0))
        if dist == "uniform":
            return (dist, float(evaluate(init.get("low", 0.0), params)),
                    float(evaluate(init.get("high", 1.0), params)))
        if dist == "randint":
            return (dist, int(evaluate(init.get("low", 0), params)),
                    int(evaluate(init["high"], params)))
        raise TaskError(f"input '{spec['name']}': unknown init dist '{dist}'")

    def draw_sets(self, slabs, params, seed, count):
        """Fresh inputs for every set of a timing round, drawn from `seed`
        straight into lent memory (`slabs`: {name: [count, numel] view}).
        Default distributions are drawn in place, one generator call per
        input for all sets, in the input's own dtype where the generator has
        it; an inputs function is called once per set."""
        if self.make_inputs is not None:
            for k in range(count):
                for name, t in self.draw_inputs(params, seed + k, validate=k == 0).items():
                    slabs[name][k].copy_(t.reshape(-1))
            return
        gen = torch.Generator(device=self.device)
        gen.manual_seed(seed)
        for spec in self.task["inputs"]:
            dist, a, b = self._init(spec, params)
            t = slabs[spec["name"]]
            direct = t.is_floating_point() and t.element_size() >= 2 if dist != "randint" else \
                not t.is_floating_point() and t.dtype != torch.bool
            target = t if direct else torch.empty(t.shape, device=t.device, dtype=(
                torch.int64 if dist == "randint" else torch.float32))
            if dist == "normal":
                target.normal_(a, b, generator=gen)
            elif dist == "uniform":
                target.uniform_(a, b, generator=gen)
            else:
                target.random_(a, b, generator=gen)
            if not direct:
                t.copy_(target)

    def round_draws(self, params, count):
        """What draws each round of one timing stage (RoundDraws)."""
        return RoundDraws(self, params, count)

    def _output_specs(self, params):
        return {spec["name"]: (DTYPES[spec["dtype"]],
                               [int(evaluate(d, params)) for d in spec["shape"]])
                for spec in self.task["outputs"]}

    @staticmethod
    def _poison(tensors):
        for t in tensors.values():
            t.fill_(poison_value(t.dtype))

    def _expected(self, inputs, params):
        ref_inputs = {}
        for k, v in inputs.items():
            if self.reference_dtype == "float64" and v.is_floating_point():
                ref_inputs[k] = v.detach().to(torch.float64)
            else:
                ref_inputs[k] = v.detach().clone()
        with torch.no_grad():
            result = self.reference(**ref_inputs, **params)
        if isinstance(result, torch.Tensor):
            result = (result,)
        if isinstance(result, (tuple, list)):
            names = [o["name"] for o in self.task["outputs"]] + list(self.task.get("inplace", []))
            result = dict(zip(names, result))
        return result

    def _expected_for(self, config, seed, originals, params):
        """A trial's reference outputs, computed once for both subjects."""
        key = (config["name"], json.dumps(params, sort_keys=True))
        if self._reference_key != key:
            self._reference_key, self._reference_outputs = key, {}
        if seed not in self._reference_outputs:
            self._reference_outputs[seed] = self._expected(originals, params)
        return self._reference_outputs[seed]

    def _produced(self, outputs):
        """The names a call writes: its outputs, then its in-place inputs."""
        return list(outputs) + sorted(self.task.get("inplace", []))

    def _tolerance(self, tensor):
        name = _dtype_name(tensor.dtype)
        tol = (self.task.get("tolerances") or {}).get(name)
        if tol is not None:
            return tol["atol"], tol["rtol"]
        return DEFAULT_TOLERANCES.get(name, (0.0, 0.0))

    # -- lent memory ------------------------------------------------------------
    def _lend_together(self, runners, layouts, count):
        """_lend for each of RUNNERS (a dict), every buffer's memory allocated
        in turns with the others' (BufferPool.allocate_together): each
        subject's lies in device memory as the other's does. A dict of
        what _lend returns, by the same keys."""
        pool = next(iter(runners.values())).pool
        made, laid, lent, described = {}, {}, {}, {}
        try:
            for name, (dtype, shape) in layouts.items():
                made[name] = pool.allocate_together(slot_bytes(dtype, shape) * count, len(runners))
            # The sets laid out and the buffers exported here, on the judge's
            # own thread; then every runner maps its memory and makes its
            # sets' views at once.
            for k, (s, r) in enumerate(runners.items()):
                laid[s] = self._lay_out(r, layouts, count, [made[name][k] for name in layouts])
                described[s] = r.describe(laid[s][0])

            def bind(s, r):
                buffers, sets, views, slabs = laid[s]
                lent[s] = (r.bind(buffers, sets, self.timeout_s, described.pop(s)), views, slabs)
            each_together(runners, bind)
        except BaseException:
            for _, fds in described.values():  # (exported, never sent)
                for fd in fds:
                    os.close(fd)
            for k, (s, r) in enumerate(runners.items()):
                if s in lent:
                    r.unbind(lent[s][0], self.timeout_s)
                else:
                    for buffers in made.values():
                        buffers[k].free()
            raise
        return lent

    def _lend(self, runner, layouts, count, made=None, costs=None):
        """Allocates `count` sets of {name: (dtype, shape)} in runner's pool
        (or takes MADE, a buffer per name, in order), one buffer per name
        holding every set (each set 256-byte aligned). Returns (ids,
        [{name: tensor}] per set, {name: [count, numel] view of all}).
        COSTS, a dict, gets the seconds of the allocation and the views
        ("allocate_s") and of the runner's bind ("bind_s")."""
        start = time.perf_counter()
        buffers, sets, views, slabs = self._lay_out(runner, layouts, count, made)
        made_at = time.perf_counter()
        try:
            ids = runner.bind(buffers, sets, self.timeout_s)
        except BaseException:
            for b in buffers:
                b.free()
            raise
        if costs is not None:
            costs.update(allocate_s=made_at - start, bind_s=time.perf_counter() - made_at)
        return ids, views, slabs

    @staticmethod
    def _lay_out(runner, layouts, count, made=None):
        """_lend's buffers (MADE, or allocated in runner's pool), the sets'
        places in them for bind, the judge's views of each set and of each
        buffer's sets: (buffers, sets, views, slabs)."""
        buffers, sets, views = [], [{} for _ in range(count)], [{} for _ in range(count)]
        slabs = {}
        for i, (name, (dtype, shape)) in enumerate(layouts.items()):
            numel = math.prod(int(d) for d in shape)
            size = torch.empty((), dtype=dtype).element_size()
            stride = slot_bytes(dtype, shape)
            buf = made[i] if made is not None else runner.pool.allocate(stride * count)
            buffers.append(buf)
            slabs[name] = buf.view(dtype, [count, stride // size])[:, :numel]
            for k in range(count):
                sets[k][name] = (i, k * stride, _dtype_name(dtype), shape)
                views[k][name] = buf.view(dtype, shape, k * stride)
        return buffers, sets, views, slabs

    def _runner(self, subject):
        runner = self.runners[subject]
        if not runner.alive():
            runner.start()
            self.entry_loaded[subject] = False
        if not self.entry_loaded.get(subject):
            reply = self._accept(runner, runner.request({"op": "load", "entry": self.section["entry"]},
                                                        self.timeout_s))
            self.load_costs[subject] = runner_costs(reply)
            self.entry_loaded[subject] = True
        return runner

    @staticmethod
    def _raise_findings(runner):
        if runner.findings:
            findings, runner.findings = runner.findings, []
            raise IntegrityFailure(findings)

    @classmethod
    def _accept(cls, runner, reply):
        """What a runner's reply may be taken for: nothing, unless it raised
        no finding, says ok, and came alone."""
        cls._raise_findings(runner)
        if not reply["ok"]:
            raise SubjectFailure(f"{runner.subject}: {reply.get('error', 'failed')}",
                                 reply.get("log", ""))
        if runner.pending_bytes():
            runner.stop()
            raise SubjectFailure(f"{runner.subject}: runner sent a reply nobody asked for: "
                                 "not the protocol", integrity=True)
        return reply

    def _call(self, runner, ids, params):
        return self._accept(runner, runner.request(
            {"op": "call", "sets": ids, "params": params}, self.timeout_s))

    @staticmethod
    def _guarded(body):
        """Runs a stage; a subject's failure is its stage's failure."""
        start = time.perf_counter()
        try:
            return body()
        except IntegrityFailure as e:
            return make_reply("failed", str(e), metrics={"integrity": e.findings},
                              seconds=time.perf_counter() - start)
        except SubjectFailure as e:
            findings = e.findings + ([str(e)] if e.integrity else [])
            metrics = {"integrity": findings} if findings else {}
            if e.timed_out:
                metrics["timed_out"] = True  # counted by the pipeline's limit
            # What the runner found first, then how it failed.
            detail = f"{IntegrityFailure(e.findings)}; then {e}" if e.findings else str(e)
            return make_reply("failed", detail, log=e.log, seconds=time.perf_counter() - start,
                              metrics=metrics)

    # -- stages ---------------------------------------------------------------
    def compile(self, req):
        subject = req["subject"]
        runner = self.runners[subject]
        if self.entry_loaded.get(subject) or not runner.alive():
            runner.stop()  # each compile loads the subject's files afresh
            self.entry_loaded[subject] = False

        def body():
            start = time.perf_counter()
            self._runner(subject)
            loaded_s = time.perf_counter() - start
            per_config, first = {}, {}
            # Triton compiles at the first launch of each specialization.
            for config in req["configs"]:
                params = config["params"]
                t0 = time.perf_counter()
                inputs = self.draw_inputs(params, 0)
                layouts = {k: (v.dtype, list(v.shape)) for k, v in inputs.items()}
                layouts.update(self._output_specs(params))
                lend = {"draw_s": time.perf_counter() - t0}
                ids, views, _ = self._lend(runner, layouts, 1, costs=lend)
                try:
                    t_copy = time.perf_counter()
                    for k, v in inputs.items():
                        views[0][k].copy_(v)
                    t1 = time.perf_counter()
                    lend["copy_s"] = t1 - t_copy
                    reply = self._call(runner, ids, params)
                    if not first:
                        first = {"lend_s": t1 - t0, "call_s": time.perf_counter() - t1,
                                 "lend": lend, "runner": runner_costs(reply)}
                finally:
                    runner.unbind(ids, self.timeout_s)
                per_config[config["name"]] = time.perf_counter() - t0
            # What the last request saw (its launch observer's report among
            # it) is this stage's, not the next one's.
            self._raise_findings(runner)
            return make_reply("passed",
                              f"compiled and launched on {len(per_config)} configuration(s)",
                              seconds=time.perf_counter() - start,
                              metrics={"seconds_per_config": per_config,
                                       "costs": {"load_s": loaded_s, "load": self.load_costs.get(subject, {}),
                                                 "first_config": first}})
        return self._guarded(body)

    def check(self, req):
        """A subject's outputs on every trial of a configuration, against
        the reference. A baseline's failure is believed only when it fails
        alone: beside a live candidate runner (which may hold the device's
        memory, or leave it busy, to starve the baseline where the candidate
        would be slow, and so keep that configuration from being timed) it is
        checked again with that runner stopped."""
        reply = self._check_once(req)
        candidate = self.runners.get("candidate")
        if req["subject"] != "baseline" or reply["status"] == "passed" or \
                candidate is None or not candidate.alive():
            return reply
        candidate.stop()
        alone = self._check_once(req)
        alone.setdefault("metrics", {})["checked_again_alone"] = (
            "failed beside the candidate's runner: " + str(reply.get("detail", ""))[:300])
        return alone

    def _check_once(self, req):
        subject, config = req["subject"], req["config"]
        params = config["params"]
        inplace = set(self.task.get("inplace", []))
        trials = int(req.get("trials", 3))

        def body():
            runner = self._runner(subject)
            worst = {"max_abs_err": 0.0, "max_rel_err": 0.0}
            fingerprints = []
            start = time.perf_counter()
            for trial in range(trials):
                seed = trial_seed(req["seed"], trial)
                originals = self.draw_inputs(params, seed)
                expected = self._expected_for(config, seed, originals, params)
                layouts = {k: (v.dtype, list(v.shape)) for k, v in originals.items()}
                outputs = self._output_specs(params)
                layouts.update(outputs)
                # Fresh memory for every trial: nothing is where it was.
                ids, views, _ = self._lend(runner, layouts, 1)
                try:
                    shared = views[0]
                    for k, v in originals.items():
                        shared[k].copy_(v)
                    self._poison({k: shared[k] for k in outputs})
                    if self.device == "cuda":
                        torch.cuda.synchronize()
                    self._call(runner, ids, params)
                    verdict = self._verify(shared, originals, outputs, expected, inplace, worst)
                    if verdict is not None:
                        return make_reply("failed", f"trial {trial}: {verdict}", metrics=worst,
                                          seconds=time.perf_counter() - start)
                    fingerprints.append([fingerprint(shared[k]) for k in self._produced(outputs)])
                finally:
                    runner.unbind(ids, self.timeout_s)
            self._raise_findings(runner)  # what the last unbind saw is this check's
            worst["fingerprints"] = fingerprints
            worst["trials"] = trials
            worst["observation"] = runner.observer or "none"
            return make_reply("passed", f"{trials} trial(s) within tolerance",
                              metrics=worst, seconds=time.perf_counter() - start)
        return self._guarded(body)

    def _verify(self, shared, originals, outputs, expected, inplace, worst):
        """None if the judge's own memory holds the right answer, else why not."""
        for name, original in originals.items():
            if name in inplace:
                continue
            if not bitwise_equal(shared[name], original):
                return f"input '{name}' was modified (it is not in-place)"
        return self._held_to_reference(self._produced(outputs), shared, expected, worst)

    def _held_to_reference(self, names, got, expected, worst):
        """Why the first of `names` in `got` is not within the tolerance of
        its reference output in `expected`, or None; `worst` keeps the
        largest errors seen."""
        for name in names:
            if name not in expected:
                raise TaskError(f"reference returned no '{name}'")
            ok, detail, errs = compare(name, got[name], expected[name], self._tolerance(got[name]))
            worst["max_abs_err"] = max(worst["max_abs_err"], errs[0])
            worst["max_rel_err"] = max(worst["max_rel_err"], errs[1])
            if not ok:
                return detail
        return None





def _triton_version():
    """Triton's version, read from its installed metadata: the judge never
    imports Triton (a second of start-up; only the runners compile)."""
    try:
        from importlib import metadata
        return metadata.version("triton")
    except Exception:  # noqa: BLE001
        return "unavailable"


def start_judge(task_dir, scratch, workspaces=None, device=None, rounds_on_cpu=False):
    """A judge of a task folder whose runners start without a sandbox (by
    hand, tests), working in `scratch`: `workspaces` maps a subject to the
    folder its files are read from (default: the task folder for both).
    Returns (judge, the task's spec, init's reply)."""
    import yaml
    with open(os.path.join(task_dir, "task.yaml")) as f:
        spec = yaml.safe_load(f)
    task = {
        "inputs": spec["interface"]["inputs"],
        "outputs": spec["interface"].get("outputs", []),
        "inplace": spec["interface"].get("inplace", []),
        "tolerances": spec.get("tolerances", {}),
        "family_section": spec["triton2triton"],
        "timing": {"repetitions": 30, "warmup_ms": 25, "graph_below_us": 20,
                   **spec.get("timing", {})},
    }
    if device is None:
        device = "cuda" if torch.cuda.is_available() and not os.environ.get("TRITON_INTERPRET") \
            else "cpu"
    runner_py = os.path.join(os.path.dirname(os.path.abspath(arena_harness.__file__)),
                             "arena_runner.py")
    task_dir = os.path.abspath(task_dir)
    workspaces = {s: os.path.abspath((workspaces or {}).get(s, task_dir)) for s in SUBJECTS}
    # Runners start with an empty environment: what they need is on the line.
    env = ["/usr/bin/env", f"TRITON_CACHE_DIR={scratch}/triton", f"TMPDIR={scratch}"] + (
        ["TRITON_INTERPRET=1"] if device == "cpu" else [])
    runners = {s: {"argv": env + [sys.executable, "-B", runner_py, f"--device={device}",
                                  f"--workspace={workspaces[s]}"]}
               for s in SUBJECTS}
    os.chdir(scratch)
    judge = Judge()
    reply = judge.init({"task": task, "dirs": {"baseline": task_dir}, "device": device,
                        "runners": runners, "rounds_on_cpu": rounds_on_cpu})
    return judge, spec, reply


def selftest(task_dir):
    """Checks a task folder's baseline on its small configuration, with a
    runner started without a sandbox (by hand, no arena)."""
    import tempfile
    w, spec, reply = start_judge(task_dir, tempfile.mkdtemp(prefix="selftest-"))
    print(reply)
    device = w.device
    configs = [("small", spec["configs"]["small"])] if device == "cpu" else \
        [(f"t{i}", c) for i, c in enumerate(spec["configs"]["tuning"] + spec["configs"]["heldout"])]
    configs = [(n, {k: v for k, v in p.items() if k != "name"}) for n, p in configs]
    for subject in SUBJECTS:
        r = w.compile({"subject": subject, "configs": [{"name": n, "params": p} for n, p in configs]})
        print(subject, "compile", r["status"], r["detail"])
        if r["status"] != "passed":
            return 1
    worst = 0
    for name, params in configs:
        r = w.check({"subject": "baseline", "config": {"name": name, "params": params},
                     "seed": 42, "trials": 2})
        print(name, "check", r["status"], r["detail"], r["metrics"].get("max_abs_err"))
        worst |= r["status"] != "passed"
        if device == "cuda":
            t = w.time({"config": {"name": name, "params": params}})
            print(name, "time", t["status"], t["detail"],
                  median(t.get("baseline_us", [0])), median(t.get("candidate_us", [0])))
    for r in w.runners.values():
        r.stop()
    return worst


def serve():
    judge = Judge()
    try:
        arena_harness.serve({"init": judge.init, "compile": judge.serving(judge.compile),
                             "check": judge.serving(judge.check), "time": judge.serving(judge.time)},
                            read=[_EARLY[0]] if _EARLY[0] else [])
    finally:
        for r in list(judge.runners.values()) + list(_EARLY[1].values()):
            r.stop()


if __name__ == "__main__":
    raise_open_files_limit()
    if len(sys.argv) == 3 and sys.argv[1] == "--selftest":
        sys.exit(selftest(sys.argv[2]))
    serve()
