"""The triton2triton evaluation worker.

One long-lived process per evaluation (importing torch costs seconds; it is
paid once). The C++ plugin writes one JSON request per line on stdin and reads
one JSON reply per line on stdout. Anything the kernels print goes to stderr,
so it can never be mistaken for a reply.

Requests:
  {"op": "init", "task": {...}, "dirs": {"baseline": D, "candidate": D},
   "device": "cuda" | "cpu"}
  {"op": "compile", "subject": S, "configs": [{"name": N, "params": {...}}]}
  {"op": "check", "subject": S, "config": {...}, "seed": int, "trials": int}
  {"op": "time", "config": {...}}
  {"op": "quit"}
Every reply has "status" ("passed", "failed", "skipped" or "error"),
"detail" (one line), "log" and "metrics".

Also usable by hand, to try a task folder's baseline on its small
configuration under the Triton interpreter:
  TRITON_INTERPRET=1 python worker.py --selftest tasks/<family>/<suite>/<task>
"""

import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "common", "python"))
from arena_harness import (  # noqa: E402  (first: it sends prints to stderr)
    _DEFAULT_TOLERANCES, _DTYPES, TaskError, _bitwise_equal, _calibrate_sleep, _compare,
    _device_synced_once, _evaluate, _event_median, _event_once, _fingerprint, _load_module,
    _median, _reply, _trial_seed)
import arena_harness  # noqa: E402

import torch  # noqa: E402

def _resolve(ref, directory, prefix):
    """'file.py:function' inside `directory` -> the function."""
    file_name, _, func = ref.partition(":")
    if not func:
        raise TaskError(f"'{ref}' must look like file.py:function")
    path = os.path.join(directory, file_name)
    if not os.path.isfile(path):
        raise TaskError(f"{file_name} is missing")
    module = _load_module(path, f"{prefix}_{file_name[:-3].replace('/', '_')}")
    fn = getattr(module, func, None)
    if not callable(fn):
        raise TaskError(f"{file_name} defines no function '{func}'")
    return fn


class Worker:
    def __init__(self):
        self.task = None
        self.device = "cpu"
        self.dirs = {}
        self.entries = {}
        self.reference = None
        self.make_inputs = None
        self.flush = None
        self._reference_key = None  # configuration whose reference outputs are kept
        self._reference_outputs = {}  # trial seed -> reference outputs

    # -- setup ---------------------------------------------------------------
    def init(self, req):
        self.task = req["task"]
        self.device = req["device"]
        self.dirs = req["dirs"]
        section = self.task.get("family_section") or {}
        self.section = section
        harness_dir = self.dirs["baseline"]
        self.reference = _resolve(section["reference"], harness_dir, "reference")
        self.make_inputs = None
        if section.get("inputs"):
            self.make_inputs = _resolve(section["inputs"], harness_dir, "inputs")
        self.reference_dtype = section.get("reference_dtype", "float64")
        if self.device == "cuda":
            torch.cuda.init()
            l2 = torch.cuda.get_device_properties(0).L2_cache_size
            # Evicting the L2 needs a buffer at least twice its size.
            self.flush = torch.empty(max(2 * l2, 64 << 20) // 4, dtype=torch.float32,
                                     device="cuda")
            self.cycles_per_us = _calibrate_sleep()
        return _reply("passed", f"worker ready on {self.device}",
                      metrics={"torch": torch.__version__, "triton": _triton_version()})

    # -- inputs and outputs ---------------------------------------------------
    def _inputs(self, params, seed):
        gen = torch.Generator(device=self.device)
        gen.manual_seed(seed)
        if self.make_inputs is not None:
            tensors = self.make_inputs(params=params, generator=gen, device=self.device)
            for spec in self.task["inputs"]:
                if spec["name"] not in tensors:
                    raise TaskError(f"inputs function returned no '{spec['name']}'")
            return tensors
        tensors = {}
        for spec in self.task["inputs"]:
            shape = [int(_evaluate(d, params)) for d in spec["shape"]]
            dtype = _DTYPES[spec["dtype"]]
            init = spec.get("init") or {}
            dist = init.get("dist", "normal")
            if dist == "normal":
                t = torch.randn(shape, generator=gen, device=self.device, dtype=torch.float32)
                t = t * float(init.get("std", 1.0)) + float(init.get("mean", 0.0))
            elif dist == "uniform":
                lo = float(_evaluate(init.get("low", 0.0), params))
                hi = float(_evaluate(init.get("high", 1.0), params))
                t = torch.rand(shape, generator=gen, device=self.device, dtype=torch.float32)
                t = t * (hi - lo) + lo
            elif dist == "randint":
                lo = int(_evaluate(init.get("low", 0), params))
                hi = int(_evaluate(init["high"], params))
                t = torch.randint(lo, hi, shape, generator=gen, device=self.device)
            else:
                raise TaskError(f"input '{spec['name']}': unknown init dist '{dist}'")
            tensors[spec["name"]] = t.to(dtype)
        return tensors

    def _outputs(self, params):
        outs = {}
        for spec in self.task["outputs"]:
            shape = [int(_evaluate(d, params)) for d in spec["shape"]]
            outs[spec["name"]] = torch.empty(shape, dtype=_DTYPES[spec["dtype"]],
                                             device=self.device)
        return outs

    @staticmethod
    def _poison(tensors):
        for t in tensors.values():
            if t.is_floating_point():
                t.fill_(float("nan"))
            elif t.dtype == torch.bool:
                t.fill_(True)
            else:
                t.fill_(torch.iinfo(t.dtype).min)

    def _entry(self, subject):
        if subject not in self.entries:
            raise TaskError(f"{subject} was not compiled")
        return self.entries[subject]

    def _call(self, fn, inputs, outputs, params):
        fn(**inputs, **outputs, **params)

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
        """The reference outputs of one trial, computed once for both subjects.

        The baseline's and the candidate's checks of a configuration draw the
        same trials; the last configuration's reference outputs are kept (on
        the device) so that the second check does not recompute them.
        """
        key = (config["name"], json.dumps(params, sort_keys=True))
        if self._reference_key != key:
            self._reference_key, self._reference_outputs = key, {}
        if seed not in self._reference_outputs:
            self._reference_outputs[seed] = self._expected(originals, params)
        return self._reference_outputs[seed]

    # -- stages ---------------------------------------------------------------
    def compile(self, req):
        subject = req["subject"]
        section = self.section
        start = time.perf_counter()
        self.entries.pop(subject, None)
        fn = _resolve(section["entry"], self.dirs[subject], f"{subject}_kernel")
        # Triton compiles at the first launch of each specialization: launch
        # once per configuration so compilation really happens now.
        per_config = {}
        for config in req["configs"]:
            params = config["params"]
            t0 = time.perf_counter()
            inputs = self._inputs(params, 0)
            outputs = self._outputs(params)
            self._call(fn, inputs, outputs, params)
            if self.device == "cuda":
                torch.cuda.synchronize()
            per_config[config["name"]] = time.perf_counter() - t0
        self.entries[subject] = fn
        return _reply("passed", f"compiled and launched on {len(per_config)} configuration(s)",
                      seconds=time.perf_counter() - start,
                      metrics={"seconds_per_config": per_config})

    def check(self, req):
        subject, config = req["subject"], req["config"]
        params = config["params"]
        fn = self._entry(subject)
        inplace = set(self.task.get("inplace", []))
        worst = {"max_abs_err": 0.0, "max_rel_err": 0.0}
        fingerprints = []
        start = time.perf_counter()
        for trial in range(int(req.get("trials", 3))):
            seed = _trial_seed(req["seed"], trial)
            inputs = self._inputs(params, seed)
            originals = {k: v.clone() for k, v in inputs.items()}
            expected = self._expected_for(config, seed, originals, params)
            outputs = self._outputs(params)
            self._poison(outputs)
            self._call(fn, inputs, outputs, params)
            if self.device == "cuda":
                torch.cuda.synchronize()
            for name, original in originals.items():
                if name in inplace:
                    continue
                if not _bitwise_equal(inputs[name], original):
                    return _reply("failed", f"input '{name}' was modified (it is not in-place)",
                                  metrics=worst)
            produced = dict(outputs)
            produced.update({k: inputs[k] for k in inplace})
            fingerprints.append([])
            for name, got in produced.items():
                if name not in expected:
                    raise TaskError(f"reference returned no '{name}'")
                ok, detail, errs = _compare(name, got, expected[name], self._tolerance(got))
                worst["max_abs_err"] = max(worst["max_abs_err"], errs[0])
                worst["max_rel_err"] = max(worst["max_rel_err"], errs[1])
                if not ok:
                    return _reply("failed", f"trial {trial}: {detail}", metrics=worst,
                                  seconds=time.perf_counter() - start)
                fingerprints[-1].append(_fingerprint(got))
        worst["fingerprints"] = fingerprints
        worst["trials"] = int(req.get("trials", 3))
        return _reply("passed", f"{worst['trials']} trial(s) within tolerance",
                      metrics=worst, seconds=time.perf_counter() - start)

    def _tolerance(self, tensor):
        name = str(tensor.dtype).replace("torch.", "")
        tol = (self.task.get("tolerances") or {}).get(name)
        if tol is not None:
            return tol["atol"], tol["rtol"]
        return _DEFAULT_TOLERANCES.get(name, (0.0, 0.0))

    def time(self, req):
        if self.device != "cuda":
            return _reply("skipped", "skipped: no GPU")
        config = req["config"]
        params = config["params"]
        timing = self.task["timing"]
        reps = int(timing["repetitions"])
        fns = {s: self._entry(s) for s in ("baseline", "candidate")}
        inputs = self._inputs(params, 12345)
        outs = {s: self._outputs(params) for s in fns}
        # Warm up both, and estimate one call's device time (a blocking
        # kernel hides the host's launch path from the events).
        warm = {}
        for s, fn in fns.items():
            warm[s] = _event_median(lambda: self._call(fn, inputs, outs[s], params), 5,
                                    self.flush, int(500 * self.cycles_per_us))
        deadline = time.perf_counter() + float(timing["warmup_ms"]) / 1e3
        while time.perf_counter() < deadline:
            for s, fn in fns.items():
                self._call(fn, inputs, outs[s], params)
        torch.cuda.synchronize()
        short = min(warm.values()) < float(timing["graph_below_us"])
        if short:
            samples, method, detail = self._time_graphs(fns, params, reps)
            if samples is None:
                return _reply("failed", detail, metrics={"method": method})
        else:
            # The host's launch path (Python, Triton's launcher) must not
            # leave the GPU idle inside the timed region: a blocking kernel
            # longer than the launch path keeps it busy until all is queued.
            block_us = {}
            for s, fn in fns.items():
                host = []
                for _ in range(5):
                    t0 = time.perf_counter()
                    self._call(fn, inputs, outs[s], params)
                    host.append((time.perf_counter() - t0) * 1e6)
                    torch.cuda.synchronize()
                block_us[s] = min(2000.0, max(50.0, 3 * _median(host)))
            samples = {s: [] for s in fns}
            order = list(fns)
            for i in range(reps):
                for s in (order if i % 2 == 0 else order[::-1]):
                    fn = fns[s]
                    samples[s].append(_event_once(
                        lambda: self._call(fn, inputs, outs[s], params), self.flush,
                        int(block_us[s] * self.cycles_per_us)))
            method = ("cuda-events+l2-flush+interleaved" +
                      ("+blocking-kernel" if self.cycles_per_us else ""))
        # Work hidden on other streams is not seen by events on this stream:
        # compare with times bounded by a device-wide synchronisation.
        # (Graph replay needs no such check: work escaping the capture fails
        # the replay-versus-eager comparison above.)
        synced = {s: [] for s in fns}
        for _ in range(20):
            for s, fn in fns.items():
                synced[s].append(_device_synced_once(
                    lambda: self._call(fn, inputs, outs[s], params), self.flush))
        hidden = {s: _median(synced[s]) - _median(samples[s]) for s in fns}
        metrics = {"method": method, "hidden_us": hidden,
                   "device_synced_us": {s: _median(v) for s, v in synced.items()}}
        if not short and hidden["candidate"] - hidden["baseline"] > max(
                10.0, 0.1 * _median(samples["candidate"])):
            # The candidate finishes work after its stream says it is done:
            # time both with the device-wide bound instead.
            for s, fn in fns.items():
                synced[s] += [_device_synced_once(
                    lambda: self._call(fn, inputs, outs[s], params), self.flush)
                    for _ in range(reps - 20)]
            samples = synced
            metrics["method"] = "device-synchronised (work outside the timed stream)"
        return _reply("passed", metrics["method"], metrics=metrics,
                      extra={"baseline_us": samples["baseline"],
                             "candidate_us": samples["candidate"]})

    def _time_graphs(self, fns, params, reps):
        """Graph replay over rotating input sets, so each launch reads cold data."""
        l2 = torch.cuda.get_device_properties(0).L2_cache_size
        probe_in = self._inputs(params, 777)
        probe_out = self._outputs(params)
        footprint = sum(t.numel() * t.element_size()
                        for t in list(probe_in.values()) + list(probe_out.values()))
        sets = max(8, min(1024, math.ceil(2 * l2 / max(footprint, 1))))
        method = f"cuda-graph-replay+{sets}-rotating-input-sets+interleaved"
        graphs, counts = {}, {}
        # Both subjects replay over the very same buffers: placement in
        # memory must not differ between them.
        bufs = [(self._inputs(params, 1000 + k), self._outputs(params)) for k in range(sets)]
        for s, fn in fns.items():
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                for inp, out in bufs[:2]:
                    self._call(fn, inp, out, params)  # warm-up on the capture stream
            torch.cuda.current_stream().wait_stream(stream)
            torch.cuda.synchronize()
            graph = torch.cuda.CUDAGraph()
            try:
                with torch.cuda.graph(graph):
                    for inp, out in bufs:
                        self._call(fn, inp, out, params)
            except Exception as e:  # noqa: BLE001: a candidate that cannot be captured
                return None, method, f"{s} cannot be captured in a CUDA graph: {e}"
            # The replay must compute what eager launches compute; work that
            # escapes the graph (another stream, host-side caching) fails here.
            inp0, out0 = bufs[0]
            eager = self._outputs(params)
            self._call(fn, inp0, eager, params)
            torch.cuda.synchronize()
            self._poison(out0)
            graph.replay()
            torch.cuda.synchronize()
            for name in out0:
                # Within tolerance, not bitwise: kernels with float atomics
                # legitimately differ in the last bits from run to run.
                ok, detail, _ = _compare(name, out0[name], eager[name], self._tolerance(out0[name]))
                if not ok:
                    return None, method, (f"{s}: graph replay differs from eager launches "
                                          f"(work outside the captured stream?): {detail}")
            graphs[s] = graph
            counts[s] = sets
        samples = {s: [] for s in fns}
        order = list(fns)
        for i in range(reps):
            for s in (order if i % 2 == 0 else order[::-1]):
                graph = graphs[s]
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                graph.replay()
                end.record()
                end.synchronize()
                samples[s].append(start.elapsed_time(end) * 1e3 / counts[s])
        return samples, method, ""


def _triton_version():
    try:
        import triton
        return triton.__version__
    except Exception:  # noqa: BLE001
        return "unavailable"


def selftest(task_dir):
    """Checks a task folder's baseline on its small configuration (no arena)."""
    import yaml
    with open(os.path.join(task_dir, "task.yaml")) as f:
        spec = yaml.safe_load(f)
    task = {
        "inputs": spec["interface"]["inputs"],
        "outputs": spec["interface"].get("outputs", []),
        "inplace": spec["interface"].get("inplace", []),
        "tolerances": spec.get("tolerances", {}),
        "family_section": spec["triton2triton"],
        "timing": {"repetitions": 100, "warmup_ms": 25, "graph_below_us": 20,
                   **spec.get("timing", {})},
    }
    device = "cuda" if torch.cuda.is_available() and not os.environ.get("TRITON_INTERPRET") else "cpu"
    w = Worker()
    print(w.init({"task": task, "dirs": {"baseline": task_dir, "candidate": task_dir},
                  "device": device}))
    configs = [("small", spec["configs"]["small"])] if device == "cpu" else \
        [(f"t{i}", c) for i, c in enumerate(spec["configs"]["tuning"] + spec["configs"]["heldout"])]
    configs = [(n, {k: v for k, v in p.items() if k != "name"}) for n, p in configs]
    for subject in ("baseline", "candidate"):
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
                  _median(t.get("baseline_us", [0])), _median(t.get("candidate_us", [0])))
    return worst


def serve():
    worker = Worker()
    arena_harness.serve({"init": worker.init, "compile": worker.compile, "check": worker.check,
                         "time": worker.time})


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--selftest":
        sys.exit(selftest(sys.argv[2]))
    serve()
