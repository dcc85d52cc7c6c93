"""Unit tests of the torch2hip reference worker on the CPU: a trial's files
hold the interface's inputs (the model's parameters among them) as drawn and
the float64 reference; PyTorch eager is checked against that reference; a
reference that strays from the interface is refused, naming what strays."""

import os
import tempfile
import threading
import unittest
import unittest.mock

import numpy
import torch

import reference_worker
from arena_harness import TaskError

_REFERENCE = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


def get_init_inputs(config):
    return [config["K"], config["N"]]


def get_inputs(config, generator):
    return [torch.randn(config["M"], config["K"], generator=generator, dtype=torch.float32)]
'''

_CONFIG = {"name": "small", "params": {"M": 8, "K": 32, "N": 16}}


def _task(parameters=None):
    return {
        "inputs": [{"name": "x", "dtype": "float32", "shape": ["M", "K"]},
                   {"name": "weight", "dtype": "float32", "shape": ["N", "K"]},
                   {"name": "bias", "dtype": "float32", "shape": ["N"]}],
        "outputs": [{"name": "y", "dtype": "float32", "shape": ["M", "N"]}],
        "tolerances": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
        "timing": {"repetitions": 5},
        "family_section": {"reference": "reference.py", "parameters": parameters or {
            "weight": "linear.weight", "bias": "linear.bias"}},
    }


def _read(entry):
    """A file the worker wrote, as a tensor."""
    raw = numpy.fromfile(entry["path"], dtype=numpy.uint8)
    dtype = getattr(torch, entry["dtype"])
    return torch.from_numpy(raw).view(dtype).reshape(entry["shape"])


class ReferenceWorkerTest(unittest.TestCase):
    def worker(self, reference=_REFERENCE, task=None):
        scratch = tempfile.mkdtemp(prefix="reference_worker_test-")
        path = os.path.join(scratch, "reference.py")
        with open(path, "w") as f:
            f.write(reference)
        worker = reference_worker.Worker()
        reply = worker.init({"task": task or _task(), "reference": path, "device": "cpu",
                             "data_dir": os.path.join(scratch, "data")})
        self.assertEqual(reply["status"], "passed", reply["detail"])
        return worker

    def prepare(self, worker, seed, trials=2):
        return worker.prepare({"config": _CONFIG, "seed": seed, "trials": trials,
                               "reference": True, "check_eager": True})

    def test_trial_files_hold_the_inputs_and_the_float64_reference(self):
        reply = self.prepare(self.worker(), seed=7)
        self.assertEqual(reply["status"], "passed", reply["detail"])
        self.assertEqual(reply["metrics"]["trials"], 2)
        self.assertEqual(len(reply["metrics"]["fingerprints"]), 2)
        self.assertEqual(len(reply["data"]), 2)
        for entry in reply["data"]:
            x, weight, bias = (_read(e) for e in entry["inputs"])
            self.assertEqual([list(t.shape) for t in (x, weight, bias)], [[8, 32], [16, 32], [16]])
            self.assertEqual({e["dtype"] for e in entry["inputs"]}, {"float32"})
            (ref,) = (_read(e) for e in entry["reference"])
            self.assertEqual(ref.dtype, torch.float64)
            # The reference is the model in float64 on exactly these inputs
            # and parameters.
            expected = torch.relu(x.double() @ weight.double().T + bias.double())
            self.assertTrue(torch.allclose(ref, expected, rtol=1e-12, atol=1e-12))
        first, second = (_read(entry["inputs"][0]) for entry in reply["data"])
        self.assertFalse(torch.equal(first, second))  # each trial draws afresh

    def test_files_hold_the_inputs_as_drawn_when_the_module_works_in_place(self):
        # The files are written while the trial goes on: a module that
        # doubles its input in place must not change what they hold.
        in_place = _REFERENCE.replace("return torch.relu(self.linear(x))",
                                      "return torch.relu(self.linear(x.mul_(2.0)))")
        worker = self.worker(in_place)

        class Deferred:
            """Each write runs only when its result is asked for: after the
            whole preparation, the latest a writer's thread could run."""

            def submit(self, fn, *args):
                deferred = unittest.mock.Mock()
                deferred.result = lambda: fn(*args)
                return deferred

        worker.writer = Deferred()
        reply = worker.prepare({"config": _CONFIG, "seed": 3, "trials": 3, "reference": True,
                                "check_eager": True})
        self.assertEqual(reply["status"], "passed", reply["detail"])
        for trial, entry in enumerate(reply["data"]):
            _, drawn, _ = worker._build(_CONFIG["params"], reference_worker.trial_seed(3, trial))
            self.assertTrue(torch.equal(_read(entry["inputs"][0]), drawn[0]), f"trial {trial}")

    def test_a_reference_at_phases_holds_what_the_judge_reads(self):
        # 16384 x 16 = 256 Ki output elements: the judge reads every 4th
        # from a phase, so phases 5, 8 and 3 write starts 0, 1 and 3.
        config = {"name": "tall", "params": {"M": 16384, "K": 32, "N": 16}}
        worker = self.worker()
        reply = worker.prepare({"config": config, "seed": 9, "trials": 1, "reference": True,
                                "check_eager": False, "phases": [5, 8, 3]})
        self.assertEqual(reply["status"], "passed", reply["detail"])
        (spec,) = reply["data"][0]["reference"]
        self.assertEqual((spec["numel"], spec["stride"], spec["starts"]), (262144, 4, [0, 1, 3]))
        self.assertEqual(spec["shape"], [3 * 65536])
        x, weight, bias = (_read(e) for e in reply["data"][0]["inputs"])
        full = torch.relu(x.double() @ weight.double().T + bias.double()).reshape(-1)
        self.assertTrue(torch.allclose(_read(spec), torch.cat([full[0::4], full[1::4], full[3::4]]),
                                       rtol=1e-12, atol=1e-12))
        # Where the stride is no more than the phases, the reference is
        # written whole: here 4 phases of stride 4, and a small output.
        for params, phases, shape in (({"M": 16384, "K": 32, "N": 16}, [0, 1, 2, 3], [16384, 16]),
                                      (_CONFIG["params"], [5], [8, 16])):
            reply = worker.prepare({"config": {"name": "c", "params": params}, "seed": 9, "trials": 1,
                                    "reference": True, "check_eager": False, "phases": phases})
            (whole,) = reply["data"][0]["reference"]
            self.assertNotIn("starts", whole)
            self.assertEqual(whole["shape"], shape)

    def test_the_same_seed_draws_the_same_trials(self):
        worker = self.worker()

        def drawn(seed):
            reply = self.prepare(worker, seed, trials=1)
            return [_read(e).clone() for e in reply["data"][0]["inputs"]]
        a, b, c = drawn(11), drawn(11), drawn(12)
        for s, t in zip(a, b):
            self.assertTrue(torch.equal(s, t))
        self.assertFalse(torch.equal(a[0], c[0]))

    def test_an_input_of_another_dtype_is_refused(self):
        worker = self.worker(_REFERENCE.replace("dtype=torch.float32", "dtype=torch.float64"))
        with self.assertRaises(TaskError) as e:
            self.prepare(worker, seed=1)
        self.assertIn("'x' is float64[8, 32], the interface says float32[8, 32]",
                      str(e.exception))

    def test_a_parameter_the_model_lacks_is_refused(self):
        worker = self.worker(task=_task({"weight": "linear.w", "bias": "linear.bias"}))
        with self.assertRaises(TaskError) as e:
            self.prepare(worker, seed=1)
        self.assertIn("the model has no 'linear.w'", str(e.exception))

    def test_a_reference_without_the_contract_is_refused(self):
        scratch = tempfile.mkdtemp(prefix="reference_worker_test-")
        path = os.path.join(scratch, "reference.py")
        with open(path, "w") as f:
            f.write(_REFERENCE.replace("def get_inputs", "def other_inputs"))
        with self.assertRaises(TaskError) as e:
            reference_worker.Worker().init({"task": _task(), "reference": path, "device": "cpu",
                                            "data_dir": os.path.join(scratch, "data")})
        self.assertIn("defines no 'get_inputs'", str(e.exception))

    def late_window(self, worker, seed, scale=1.0):
        """Inputs as the HIP judge writes a late window's: one raw file per
        interface input (here a trial's, `x` scaled), in the data folder."""
        entry = self.prepare(worker, seed, trials=1)["data"][0]
        specs = []
        for i, e in enumerate(entry["inputs"]):
            t = _read(e) * (scale if i == 0 else 1.0)
            path = os.path.join(worker.data_dir, f"window_in{i}.bin")
            t.contiguous().view(torch.uint8).numpy().tofile(path)
            specs.append({"path": path, "dtype": e["dtype"], "shape": e["shape"]})
        return specs

    def test_a_late_window_gets_the_reference_of_its_own_inputs_and_parameters(self):
        worker = self.worker()
        specs = self.late_window(worker, seed=3, scale=2.0)
        # Built from another seed's trial 0: the files' parameters are used,
        # not the seed's.
        reply = worker.reference({"config": _CONFIG, "seed": 99, "name": "late_0", "inputs": specs})
        self.assertEqual(reply["status"], "passed", reply["detail"])
        self.assertEqual(reply["metrics"]["eager"], "within tolerance")
        (entry,) = reply["data"]
        self.assertEqual(entry["inputs"], specs)
        (ref,) = (_read(e) for e in entry["reference"])
        self.assertTrue(entry["reference"][0]["path"].endswith("late_0_ref0.bin"))
        x, weight, bias = (_read(s) for s in specs)
        expected = torch.relu(x.double() @ weight.double().T + bias.double())
        self.assertTrue(torch.allclose(ref, expected, rtol=1e-12, atol=1e-12))

    def test_a_late_window_reference_only_at_the_places_read(self):
        worker = self.worker()
        specs = self.late_window(worker, seed=6)
        at = [{"start": 5, "stride": 7, "count": 18}]  # of 8 x 16 = 128 elements: 5, 12, ..., 124
        reply = worker.reference({"config": _CONFIG, "seed": 6, "name": "late_3", "inputs": specs,
                                  "at": at})
        self.assertEqual(reply["status"], "passed", reply["detail"])
        (ref,) = (_read(e) for e in reply["data"][0]["reference"])
        x, weight, bias = (_read(s) for s in specs)
        full = torch.relu(x.double() @ weight.double().T + bias.double()).reshape(-1)
        self.assertEqual(list(ref.shape), [18])
        self.assertTrue(torch.allclose(ref, full[5:125:7], rtol=1e-12, atol=1e-12))
        with self.assertRaises(TaskError) as e:
            worker.reference({"config": _CONFIG, "seed": 6, "name": "late_4", "inputs": specs,
                              "at": [{"start": 5, "stride": 7, "count": 19}]})
        self.assertIn("output 0's places run past its 128 element(s)", str(e.exception))

    def test_a_late_window_where_eager_strays_says_so(self):
        # A module whose float32 forward loses what float64 keeps on large
        # inputs: eager is not within tolerance there, and the reply says so.
        # (1 + 1e8) - 1e8 - 1 is 0 in float64 and -1 in float32.
        lossy = _REFERENCE.replace(
            "return torch.relu(self.linear(x))",
            "out = torch.relu(self.linear(x))\n"
            "        big = (x.abs().amax() > 1e3).to(out.dtype)\n"
            "        return out + big * ((big + 1e8) - 1e8 - big)")
        worker = self.worker(lossy)
        specs = self.late_window(worker, seed=4, scale=1e6)
        reply = worker.reference({"config": _CONFIG, "seed": 4, "name": "late_1", "inputs": specs})
        self.assertEqual(reply["status"], "passed", reply["detail"])
        self.assertTrue(reply["metrics"]["eager"].startswith("not within tolerance: "),
                        reply["metrics"]["eager"])

    def test_a_late_window_of_the_wrong_size_or_name_is_refused(self):
        worker = self.worker()
        specs = self.late_window(worker, seed=5)
        short = [dict(s) for s in specs]
        short[0]["shape"] = [8, 31]
        with self.assertRaises(TaskError) as e:
            worker.reference({"config": _CONFIG, "seed": 5, "name": "late_2", "inputs": short})
        self.assertIn("window_in0.bin holds 1024 bytes, expected 992", str(e.exception))
        with self.assertRaises(TaskError) as e:
            worker.reference({"config": _CONFIG, "seed": 5, "name": "../x", "inputs": specs})
        self.assertIn("not a plain word", str(e.exception))

    def test_each_configuration_is_compiled_for_its_own_shapes(self):
        # Compiled one after the other in one process, as the family times
        # torch.compile: every configuration gets a graph of its own static
        # shapes, whatever came before (left to dynamo, the second would be
        # compiled with dynamic sizes and the later ones would reuse it).
        seen = []

        def backend(gm, example_inputs):
            # A dynamic graph takes its sizes as inputs too (SymInt).
            seen.append([list(x.shape) if isinstance(x, torch.Tensor) else x for x in example_inputs])
            return gm.forward

        for n, (rows, cols) in enumerate([(64, 32), (256, 32), (1024, 16), (7, 3), (64, 32)]):
            model = torch.nn.GELU(approximate="tanh")
            x = torch.randn(rows, cols)
            fn = reference_worker.compile_for_shapes(model, [x], backend=backend)
            self.assertEqual(len(seen), n + 1, "not compiled for its shapes")
            self.assertEqual(seen[-1], [[rows, cols]])
            self.assertTrue(all(type(d) is int for d in seen[-1][0]), seen[-1])
            with torch.no_grad():
                torch.testing.assert_close(fn(x), model(x))
        self.assertEqual(len(seen), 5)

    def test_timing_waits_for_the_compilers_warm_up(self):
        # The warm-up runs on a thread of its own from init; a timing
        # request never starts beside it.
        saved = reference_worker.WARMUP_BACKEND
        reference_worker.WARMUP_BACKEND = "eager"
        gate = threading.Event()
        run = reference_worker.CompilerWarmup._run

        def held_run(warmup, device):
            gate.wait()
            run(warmup, device)

        reference_worker.CompilerWarmup._run = held_run
        try:
            worker = reference_worker.Worker()
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "reference.py")
                with open(path, "w") as f:
                    f.write(_REFERENCE)
                worker.init({"task": _task(), "reference": path, "device": "cpu", "data_dir": d,
                             "warm_compiler": True})
                replies = []
                timing = threading.Thread(
                    target=lambda: replies.append(worker.time({"config": _CONFIG, "seed": 1})))
                timing.start()
                timing.join(0.5)
                self.assertTrue(timing.is_alive(), "timed beside the warm-up")
                gate.set()
                timing.join(30)
                self.assertFalse(timing.is_alive())
            self.assertEqual(replies[0]["status"], "skipped")
            self.assertIn("seconds", worker.warmup.info)
            self.assertNotIn("error", worker.warmup.info)
            self.assertGreaterEqual(worker.warmup.info["waited_s"], 0.4)
        finally:
            reference_worker.WARMUP_BACKEND = saved
            reference_worker.CompilerWarmup._run = run

    def test_timing_needs_a_gpu(self):
        reply = self.worker().time({"config": _CONFIG, "seed": 1, "mode": "eager"})
        self.assertEqual(reply["status"], "skipped")


if __name__ == "__main__":
    unittest.main()
