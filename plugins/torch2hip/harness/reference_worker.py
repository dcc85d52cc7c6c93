"""The torch2hip reference worker: the PyTorch side of a torch2hip evaluation.

One long-lived process per evaluation, driven by the C++ plugin with one JSON
request and reply per line (the protocol of plugins/common/python). It owns
the task's reference module (reference.py: Model, get_init_inputs,
get_inputs), and for the HIP worker it writes each trial's inputs (in their
native dtype) and reference outputs (float64) as raw little-endian files, so
nothing is lost crossing the process boundary.

Requests:
  {"op": "init", "task": {...}, "reference": PATH, "device": "cuda"|"cpu",
   "data_dir": DIR, "warm_compiler": bool}
      with warm_compiler, torch.compile's one-time costs are paid on a
      thread of their own from now on (CompilerWarmup); every "time" waits
      for it first ("compiler_warmup" in its metrics).
  {"op": "prepare", "config": {...}, "seed": int, "trials": int,
   "reference": bool, "check_eager": bool, "phases": [int, ...]}
      trials' files under DIR; with check_eager, PyTorch eager in the native
      dtype is compared with the float64 reference (the baseline's check).
      With "phases", an output whose stride (n // 64 Ki) exceeds their
      number has its reference written only where the HIP judge reads it:
      every stride-th element from each phase modulo the stride, one phase
      after the other ({"numel", "stride", "starts"} in its spec).
  {"op": "time", "config": {...}, "seed": int, "mode": "eager"|"compiled",
   "repetitions": int}
      samples of the module's forward on the GPU, in microseconds.
  {"op": "reference", "config": {...}, "seed": int, "name": str,
   "inputs": [{"path", "dtype", "shape"}, ...],
   "at": [{"start", "stride", "count"}, ...]}
      the float64 reference of inputs another process wrote (the HIP judge's
      late windows), with "at" only at those places of each output (flat
      index start + k * stride, k < count, in that order): files under DIR
      named after "name", and whether PyTorch eager is within tolerance
      there ("eager" in the metrics).
  {"op": "ping"}   the reference imported and ready

Public API: Worker (init, prepare, reference, time, ping), compile_for_shapes,
CompilerWarmup and serve().
"""

import concurrent.futures
import copy
import os
import platform
import shutil
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "common", "python"))
from arena_harness import (  # noqa: E402  (first: it sends prints to stderr)
    DEFAULT_TOLERANCES, DTYPES, TaskError, calibrate_sleep, compare, evaluate,
    event_once, fingerprint, load_module, median, make_reply, trial_seed)
import arena_harness  # noqa: E402

import numpy  # noqa: E402
import torch  # noqa: E402

def _as_tuple(result):
    if isinstance(result, torch.Tensor):
        return (result,)
    if isinstance(result, (tuple, list)):
        return tuple(result)
    raise TaskError(f"forward returned {type(result).__name__}, not a tensor or a tuple")


def compile_for_shapes(model, inputs, backend="inductor"):
    """torch.compile of `model` for these inputs' shapes alone, called once
    on them. One process compiles every configuration of a task: left to
    itself, dynamo compiles the second with its sizes made dynamic and gives
    every later one that kernel (a configuration's figure would depend on
    which came before it, and a resumed run's differ), and past its
    recompile limit it runs eager without a word. So dynamo starts afresh
    (its caches of earlier configurations dropped; the compilers' caches on
    disk stay) and compiles for static shapes."""
    torch._dynamo.reset()
    fn = torch.compile(model, dynamic=False, backend=backend)
    with torch.no_grad():
        fn(*inputs)
    return fn


# What the compiler's warm-up compiles with (the unit tests' CPU takes a
# backend that generates no code).
WARMUP_BACKEND = "inductor"


class CompilerWarmup:
    """torch.compile's one-time costs in a fresh process (importing the
    compiler, starting its pool of compiling processes, Triton's first
    kernel), paid on a thread of their own from the task's start, while it
    is checked: nothing is timed then. Everything timed waits for it first
    (`wait`), so it never runs beside a clock."""

    def __init__(self, device):
        self.info = {}
        self._thread = threading.Thread(target=self._run, args=(device,), daemon=True)
        self._start = time.perf_counter()
        self._thread.start()

    def _run(self, device):
        try:
            compile_for_shapes(lambda t: torch.nn.functional.gelu(t * 2.0 + 1.0),
                               [torch.ones(1024, device=device)], backend=WARMUP_BACKEND)
            if device == "cuda":
                torch.cuda.synchronize()
            self.info["seconds"] = time.perf_counter() - self._start
        except Exception as e:  # noqa: BLE001: the configurations' compiles say what fails
            self.info["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"

    def wait(self):
        """Waits for the warm-up's end (how long, the first time, in
        info["waited_s"]); its outcome."""
        if "waited_s" not in self.info:
            start = time.perf_counter()
            self._thread.join()
            self.info["waited_s"] = time.perf_counter() - start
        return dict(self.info)


def _write_file(path, t):
    """`t` (on the CPU) as raw little-endian bytes in its dtype at `path`."""
    with open(path, "wb") as f:
        if t.numel():
            f.write(t.reshape(-1).view(torch.uint8).numpy().data)


class Worker:
    def __init__(self):
        # A trial's files written while the next one is computed, and each
        # other's: the writes, not the GPU, are what a trial takes.
        self.writer = concurrent.futures.ThreadPoolExecutor(max_workers=4)
        self.warmup = None
        self.task = None
        self.module = None
        self.device = "cpu"
        self.data_dir = None
        self.cache = {}
        self.flush = None
        self.cycles_per_us = 0.0

    def init(self, req):
        self.task = req["task"]
        self.device = req["device"]
        self.data_dir = req["data_dir"]
        self.section = self.task.get("family_section") or {}
        self.parameters = self.section.get("parameters") or {}
        self.module = load_module(req["reference"], "torch2hip_reference")
        for name in ("Model", "get_init_inputs", "get_inputs"):
            if not hasattr(self.module, name):
                raise TaskError(f"reference.py defines no '{name}'")
        if self.device == "cuda":
            torch.cuda.init()
            l2 = torch.cuda.get_device_properties(0).L2_cache_size
            self.flush = torch.empty(max(2 * l2, 64 << 20) // 4, dtype=torch.float32,
                                     device="cuda")
            self.cycles_per_us = calibrate_sleep()
        if req.get("warm_compiler"):
            self.warmup = CompilerWarmup(self.device)
        return make_reply("passed", f"PyTorch {torch.__version__} reference ready on {self.device}",
                          metrics={"torch": torch.__version__, "python": platform.python_version()})

    def ping(self, req):
        return make_reply("passed", f"PyTorch eager (torch {torch.__version__}, {self.device})",
                          metrics={"torch": torch.__version__})

    # -- building a trial ------------------------------------------------------
    def _build(self, params, seed):
        """The model and the interface's inputs for one seed, drawn on the
        worker's device (a GPU draws gigabytes in milliseconds where a CPU
        takes seconds; the files carry whatever was drawn, bit for bit)."""
        torch.manual_seed(seed)
        with torch.device(self.device):
            model = self.module.Model(*self.module.get_init_inputs(params)).eval()
            gen = torch.Generator(device=self.device).manual_seed(seed)
            forward_inputs = list(self.module.get_inputs(params, gen))
        state = model.state_dict()
        queue = list(forward_inputs)
        tensors = []
        for spec in self.task["inputs"]:
            name = spec["name"]
            if name in self.parameters:
                key = self.parameters[name]
                if key not in state:
                    raise TaskError(f"torch2hip.parameters: the model has no '{key}' "
                                    f"(it has {', '.join(state)})")
                t = state[key]
            else:
                if not queue:
                    raise TaskError(f"get_inputs returned too few tensors for '{name}'")
                t = queue.pop(0)
            self._expect(name, t, spec, params)
            tensors.append(t.detach().contiguous())
        if queue:
            raise TaskError(f"get_inputs returned {len(queue)} tensor(s) more than the interface")
        return model, forward_inputs, tensors

    def _expect(self, name, t, spec, params):
        shape = [int(evaluate(d, params)) for d in spec["shape"]]
        dtype = DTYPES[spec["dtype"]]
        if t.dtype != dtype or list(t.shape) != shape:
            raise TaskError(f"'{name}' is {str(t.dtype).replace('torch.', '')}{list(t.shape)}, "
                            f"the interface says {spec['dtype']}{shape}")

    def _outputs(self, result, params, native):
        outs = _as_tuple(result)
        specs = self.task["outputs"]
        if len(outs) != len(specs):
            raise TaskError(f"forward returned {len(outs)} tensor(s), the interface has "
                            f"{len(specs)} output(s)")
        shaped = []
        for t, spec in zip(outs, specs):
            shape = [int(evaluate(d, params)) for d in spec["shape"]]
            if t.numel() != _numel(shape):
                raise TaskError(f"output '{spec['name']}' has {t.numel()} element(s), the "
                                f"interface's shape {shape} has {_numel(shape)}")
            t = t.reshape(shape)
            if native and t.dtype != DTYPES[spec["dtype"]]:
                raise TaskError(f"output '{spec['name']}' is {t.dtype}, the interface says "
                                f"{spec['dtype']}")
            shaped.append(t)
        return shaped

    def _tolerance(self, dtype_name):
        tol = (self.task.get("tolerances") or {}).get(dtype_name)
        if tol is not None:
            return tol["atol"], tol["rtol"]
        return DEFAULT_TOLERANCES.get(dtype_name, (0.0, 0.0))

    # -- stages ------------------------------------------------------------------
    def prepare(self, req):
        config = req["config"]
        params = config["params"]
        trials = int(req.get("trials", 3))
        want_reference = bool(req.get("reference", True))
        check_eager = bool(req.get("check_eager", False))
        shutil.rmtree(self.data_dir, ignore_errors=True)
        os.makedirs(self.data_dir)
        data, fingerprints = [], []
        worst = {"max_abs_err": 0.0, "max_rel_err": 0.0}
        failure = None
        start = time.perf_counter()
        writes = []
        try:
            for trial in range(trials):
                seed = trial_seed(req["seed"], trial)
                model, forward_inputs, tensors = self._build(params, seed)
                entry = {"inputs": [], "reference": []}
                for i, t in enumerate(tensors):
                    entry["inputs"].append(self._write(t, f"{trial}_in{i}.bin", writes))
                if want_reference or check_eager:
                    ref = self._wide(model, forward_inputs, params)
                    for j, r in enumerate(ref):
                        entry["reference"].append(self._write_at(r.double(), f"{trial}_ref{j}.bin",
                                                                 req.get("phases"), writes))
                if check_eager and failure is None:
                    detail, prints = self._eager_against(model, forward_inputs, ref, params, worst)
                    if detail:
                        failure = f"trial {trial}: PyTorch eager: {detail}"
                    fingerprints.append(prints)
                data.append(entry)
        finally:
            # Every file whole before the reply names it (or the error
            # that stopped it is the reply).
            for w in writes:
                w.result()
        metrics = dict(worst)
        if check_eager:
            metrics["fingerprints"] = fingerprints
            metrics["trials"] = trials
        seconds = time.perf_counter() - start
        extra = {"data": data}
        if not check_eager:
            return make_reply("passed", f"{trials} trial(s) prepared", seconds=seconds,
                              metrics=metrics, extra=extra)
        if failure:
            return make_reply("failed", failure, seconds=seconds, metrics=metrics, extra=extra)
        return make_reply("passed", f"{trials} trial(s): PyTorch eager within tolerance of the "
                          "float64 reference", seconds=seconds, metrics=metrics, extra=extra)

    def _write_at(self, r, name, phases, writes=None):
        """Reference `r` written whole, or with `phases` where the judge
        reads it alone (its SampleStride and SampleAt: every element up to
        64 Ki, else every (n // 64 Ki)-th from a phase). Whole where the
        stride is no more than the phases (they would read all of it, or
        most: 8 MiB at most)."""
        n = r.numel()
        stride = n // _SAMPLED
        if not phases or stride <= len(phases):  # whole: as few bytes, or hardly more
            return self._write(r, name, writes)
        starts = sorted({int(p) % stride for p in phases})
        flat = r.reshape(-1)
        spec = self._write(torch.cat([flat[s::stride] for s in starts]), name, writes)
        spec.update({"numel": n, "stride": stride, "starts": starts})
        return spec

    def _wide(self, model, forward_inputs, params):
        """The module in float64 on these inputs: the reference outputs."""
        with torch.no_grad():
            wide = copy.deepcopy(model).double().to(self.device)
            return self._outputs(wide(*[x.double().to(self.device) if x.is_floating_point()
                                        else x.to(self.device) for x in forward_inputs]),
                                 params, native=False)

    def _eager_against(self, model, forward_inputs, ref, params, worst):
        """PyTorch eager in the native dtype against `ref`: the first
        output's failure ("" where all are within tolerance) and each
        output's fingerprint; `worst` takes the largest errors."""
        with torch.no_grad():
            native = model.to(self.device)
            got = self._outputs(native(*[x.to(self.device) for x in forward_inputs]),
                                params, native=True)
        failure, prints = "", []
        for spec, g, r in zip(self.task["outputs"], got, ref):
            ok, detail, errs = compare(spec["name"], g, r, self._tolerance(spec["dtype"]))
            worst["max_abs_err"] = max(worst["max_abs_err"], errs[0])
            worst["max_rel_err"] = max(worst["max_rel_err"], errs[1])
            if not ok and not failure:
                failure = detail
            prints.append(fingerprint(g))
        return failure, prints

    def reference(self, req):
        """The float64 reference of inputs the HIP judge wrote: a late window
        (a set of a timed round, cut from the trials' inputs laid end to
        end). The model is built as trial 0 of `seed` is, its parameters
        among the inputs taken from the files. Where PyTorch eager itself is
        not within tolerance there (inputs outside what the module is
        checked on), the reply says so: the window then tells nothing."""
        params = req["config"]["params"]
        name = str(req.get("name", "late"))
        if not name.replace("_", "").isalnum():
            raise TaskError(f"reference: the name '{name}' is not a plain word")
        specs = req.get("inputs") or []
        if len(specs) != len(self.task["inputs"]):
            raise TaskError(f"reference: {len(specs)} input file(s), the interface has "
                            f"{len(self.task['inputs'])}")
        start = time.perf_counter()
        model, _, _ = self._build(params, trial_seed(req["seed"], 0))
        state = model.state_dict()
        forward_inputs = []
        for spec, given in zip(self.task["inputs"], specs):
            t = self._read(given).to(self.device)
            self._expect(spec["name"], t, spec, params)
            if spec["name"] in self.parameters:
                with torch.no_grad():
                    state[self.parameters[spec["name"]]].copy_(t)
            else:
                forward_inputs.append(t)
        try:
            ref = self._wide(model, forward_inputs, params)
            worst = {"max_abs_err": 0.0, "max_rel_err": 0.0}
            failure, _ = self._eager_against(model, forward_inputs, ref, params, worst)
        except torch.cuda.OutOfMemoryError:
            raise  # the harness's failure, never a window that tells nothing
        except (RuntimeError, ValueError, IndexError) as e:  # the module refuses these inputs
            return make_reply("passed", f"the module fails on these inputs: {e}",
                              seconds=time.perf_counter() - start,
                              metrics={"eager": f"the module fails on these inputs: {e}"})
        at = req.get("at")
        if at is not None and len(at) != len(ref):
            raise TaskError(f"reference: {len(at)} output sample(s), the interface has {len(ref)}")
        entry = {"inputs": specs, "reference": []}
        for j, r in enumerate(ref):
            r = r.double()
            if at is not None:
                r = r.reshape(-1)
                start, stride, count = (int(at[j][k]) for k in ("start", "stride", "count"))
                if count and (start < 0 or stride < 1 or start + (count - 1) * stride >= r.numel()):
                    raise TaskError(f"reference: output {j}'s places run past its {r.numel()} element(s)")
                r = r[start:start + (count - 1) * stride + 1:stride] if count else r[:0]
            entry["reference"].append(self._write(r, f"{name}_ref{j}.bin"))
        metrics = dict(worst)
        metrics["eager"] = f"not within tolerance: {failure}" if failure else "within tolerance"
        return make_reply("passed", f"{name}: reference computed, PyTorch eager {metrics['eager']}",
                          seconds=time.perf_counter() - start, metrics=metrics,
                          extra={"data": [entry]})

    @staticmethod
    def _read(spec):
        """A raw file written by another process, as a CPU tensor."""
        dtype = DTYPES.get(spec.get("dtype"))
        if dtype is None:
            raise TaskError(f"reference: unknown dtype '{spec.get('dtype')}' of {spec.get('path')}")
        shape = [int(d) for d in spec.get("shape", [])]
        raw = numpy.fromfile(spec["path"], dtype=numpy.uint8)
        want = _numel(shape) * torch.empty((), dtype=dtype).element_size()
        if raw.size != want:
            raise TaskError(f"reference: {spec['path']} holds {raw.size} bytes, expected {want}")
        if not raw.size:
            return torch.empty(shape, dtype=dtype)
        return torch.from_numpy(raw).view(dtype).reshape(shape)

    def _write(self, t, name, writes=None):
        """`t`'s file under the data folder and its spec: written now, or,
        with `writes`, by the writer's threads (its future appended there;
        the tensor is copied to the CPU first, so the device's memory is
        free at once, and a module that works on its inputs in place cannot
        change what is being written)."""
        path = os.path.join(self.data_dir, name)
        host = t.detach().contiguous().cpu()
        t = host.clone() if writes is not None and host.data_ptr() == t.data_ptr() else host
        if writes is None:
            _write_file(path, t)
        else:
            writes.append(self.writer.submit(_write_file, path, t))
        return {"path": path, "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)}

    def time(self, req):
        warmup = self.warmup.wait() if self.warmup is not None else None
        if self.device != "cuda":
            return make_reply("skipped", "skipped: no GPU")
        config = req["config"]
        params = config["params"]
        mode = req.get("mode", "eager")
        # The same inputs as the HIP side times: trial 0 of the timing seed.
        seed = trial_seed(int(req["seed"]), 0)
        reps = int(req.get("repetitions", self.task["timing"]["repetitions"]))
        key = (config["name"], mode)
        if key not in self.cache:
            if len(self.cache) > 4:
                self.cache.clear()
            self.cache[key] = self._timing_setup(params, mode, seed)
        setup = self.cache[key]
        if "error" in setup:
            return make_reply("failed", setup["error"], metrics={"method": mode})
        run = setup["run"]
        for _ in range(3):
            run()
        torch.cuda.synchronize()
        samples = [event_once(run, self.flush, setup["block_cycles"]) / setup["per_call"]
                   for _ in range(reps)]
        metrics = {"method": setup["method"], "setup_s": setup["setup_s"]}
        if warmup is not None:
            metrics["compiler_warmup"] = warmup
        return make_reply("passed", setup["method"], metrics=metrics,
                          extra={"samples_us": samples})

    def _timing_setup(self, params, mode, seed):
        start = time.perf_counter()
        model, forward_inputs, _ = self._build(params, seed)
        model = model.to("cuda")
        inputs = [x.to("cuda") for x in forward_inputs]
        fn = model
        if mode == "compiled":
            for key in [k for k in self.cache if k[1] == "compiled"]:
                del self.cache[key]  # compiled for other shapes, and reset below
            try:
                fn = compile_for_shapes(model, inputs)
                torch.cuda.synchronize()
            except Exception as e:  # noqa: BLE001: recorded beside eager, never fatal
                return {"error": f"torch.compile failed: {type(e).__name__}: "
                                 f"{str(e).splitlines()[0] if str(e) else ''}"}

        def call(args=inputs):
            with torch.no_grad():
                return fn(*args)

        call()
        torch.cuda.synchronize()
        once = median([event_once(call, self.flush, int(300 * self.cycles_per_us))
                       for _ in range(5)])
        # Host time of one call: the blocking kernel must outlast it.
        host = []
        for _ in range(5):
            t0 = time.perf_counter()
            call()
            host.append((time.perf_counter() - t0) * 1e6)
            torch.cuda.synchronize()
        block_cycles = int(min(2000.0, max(50.0, 3 * median(host))) * self.cycles_per_us)
        method = f"{mode}: cuda-events+l2-flush+blocking-kernel"
        setup = {"run": call, "per_call": 1, "block_cycles": block_cycles, "method": method,
                 "setup_s": 0.0}
        if once < float(self.task["timing"].get("graph_below_us", 20)):
            graphed = self._graph(model, fn, inputs, params, mode, seed)
            if graphed is not None:
                setup.update(graphed)
        setup["setup_s"] = time.perf_counter() - start
        return setup

    def _graph(self, model, fn, inputs, params, mode, seed):
        """Short forwards: one CUDA graph replaying the forward over rotating
        sets (cold data, launch overhead amortised), as the HIP side does with
        all of its inputs. Eager rotates copies of the module with the inputs,
        so its weights are cold too; torch.compile rotates the inputs only
        (a compiled copy per set would recompile). None when the module cannot
        be captured."""
        l2 = torch.cuda.get_device_properties(0).L2_cache_size
        weights = sum(t.numel() * t.element_size() for t in model.state_dict().values())
        sets, footprint = [], 0
        for k in range(1024):
            gen = torch.Generator().manual_seed(seed + 1 + k)
            args = [x.to("cuda") for x in self.module.get_inputs(params, gen)]
            module = fn if mode == "compiled" or k == 0 else copy.deepcopy(model)
            if mode == "compiled" and k == 0:
                args = inputs
            sets.append((module, args))
            footprint += sum(x.numel() * x.element_size() for x in args)
            footprint += weights if mode != "compiled" else 0
            if len(sets) >= 8 and footprint >= 2 * l2:
                break

        def run_all():
            with torch.no_grad():
                for module, args in sets:
                    module(*args)

        try:
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                run_all()  # warm-up on the capture stream
            torch.cuda.current_stream().wait_stream(stream)
            torch.cuda.synchronize()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                run_all()
        except Exception:  # noqa: BLE001: not capturable: plain events then
            torch.cuda.synchronize()
            return None
        what = "input sets" if mode == "compiled" else "module and input sets"
        return {"run": graph.replay, "per_call": len(sets), "block_cycles": 0,
                "method": f"{mode}: cuda-graph-replay+{len(sets)}-rotating-{what.replace(' ', '-')}",
                "graph_sets": sets}


# The HIP judge reads every element of an output up to this many, else
# this many at a phase (plugins/common/hip/worker/samples.h).
_SAMPLED = 1 << 16


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def serve():
    worker = Worker()
    arena_harness.serve({"init": worker.init, "prepare": worker.prepare,
                         "reference": worker.reference, "time": worker.time, "ping": worker.ping})


if __name__ == "__main__":
    serve()
