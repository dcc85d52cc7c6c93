"""Unit tests of the Triton judge's pieces that need no GPU: a timing
round's sets are drawn into lent memory from the task's distributions, all
different, the same from the same seed; verification reads secret places,
in every set of a round."""

import random
import time
import unittest

import torch

import judge_support
import worker
from arena_harness import DTYPES, bitwise_equal, evaluate


def _judge(inputs, make_inputs=None):
    judge = worker.Judge()
    judge.task = {"inputs": inputs, "outputs": []}
    judge.make_inputs = make_inputs
    return judge


def _slabs(judge, params, count):
    """Lent memory as the judge lays it out: one buffer per input, each set
    padded to 256 bytes."""
    out = {}
    for spec in judge.task["inputs"]:
        dtype = DTYPES[spec["dtype"]]
        numel = 1
        for d in spec["shape"]:
            numel *= int(evaluate(d, params))
        stride = worker.slot_bytes(dtype, [numel]) // torch.empty((), dtype=dtype).element_size()
        out[spec["name"]] = torch.full((count, stride), 7, dtype=dtype)[:, :numel]
    return out


class DrawSetsTest(unittest.TestCase):
    INPUTS = [
        {"name": "x", "dtype": "bfloat16", "shape": ["n"], "init": {"dist": "normal", "mean": 3, "std": 0.5}},
        {"name": "u", "dtype": "float32", "shape": ["n"], "init": {"dist": "uniform", "low": -2, "high": "n"}},
        {"name": "i", "dtype": "int32", "shape": [5], "init": {"dist": "randint", "low": 4, "high": 9}},
        {"name": "f8", "dtype": "float8_e4m3fn", "shape": ["n"], "init": {"dist": "uniform", "low": 0, "high": 1}},
        {"name": "m", "dtype": "bool", "shape": ["n"], "init": {"dist": "randint", "low": 0, "high": 2}},
        {"name": "h", "dtype": "float16", "shape": ["n"], "init": {"dist": "randint", "low": -3, "high": 3}},
    ]

    def test_every_set_is_fresh_and_follows_its_distribution(self):
        judge, params, count = _judge(self.INPUTS), {"n": 4000}, 6
        slabs = _slabs(judge, params, count)
        judge.draw_sets(slabs, params, 1234, count)
        x = slabs["x"].float()
        self.assertAlmostEqual(float(x.mean()), 3.0, delta=0.05)
        self.assertAlmostEqual(float(x.std()), 0.5, delta=0.05)
        u = slabs["u"]
        self.assertGreaterEqual(float(u.min()), -2.0)
        self.assertLess(float(u.max()), 4000.0)
        self.assertGreater(float(u.max()), 3000.0)
        i = slabs["i"]
        self.assertEqual(i.dtype, torch.int32)
        self.assertEqual(set(i.flatten().tolist()) - set(range(4, 9)), set())
        f8 = slabs["f8"].float()
        self.assertTrue(bool(((f8 >= 0) & (f8 <= 1)).all()))
        self.assertGreater(float(slabs["m"].float().mean()), 0.3)
        self.assertEqual(set(slabs["h"].flatten().tolist()) - set(range(-3, 3)), set())
        # No set repeats another: a cache by content never hits.
        for name in ("x", "u", "f8"):
            rows = {bytes(slabs[name][k].contiguous().view(torch.uint8).numpy()) for k in range(count)}
            self.assertEqual(len(rows), count, name)

    def test_the_same_seed_draws_the_same_sets(self):
        judge, params = _judge(self.INPUTS), {"n": 300}
        a, b, c = (_slabs(judge, params, 3) for _ in range(3))
        judge.draw_sets(a, params, 99, 3)
        judge.draw_sets(b, params, 99, 3)
        judge.draw_sets(c, params, 100, 3)
        for name in a:
            self.assertTrue(bitwise_equal(a[name], b[name]), name)
        self.assertFalse(bitwise_equal(a["x"], c["x"]))

    def test_an_inputs_function_is_called_once_per_set(self):
        calls = []

        def make_inputs(params, generator, device):
            calls.append(1)
            return {"x": torch.randn(params["n"], generator=generator, device=device)}

        spec = [{"name": "x", "dtype": "float32", "shape": ["n"]}]
        judge, params = _judge(spec, make_inputs), {"n": 100}
        slabs = _slabs(judge, params, 4)
        judge.draw_sets(slabs, params, 5, 4)
        self.assertEqual(len(calls), 4)
        self.assertEqual(len({float(slabs["x"][k, 0]) for k in range(4)}), 4)
        self.assertTrue(bitwise_equal(slabs["x"][2].contiguous(), judge.draw_inputs(params, 7)["x"]))


class _Capture:
    """CUDA graph capture as RoundDraws uses it, on the CPU: the body is
    run again at each replay, with `capturing` set, from the replay's seed."""

    def __init__(self, fail=None, ignore_seed=False):
        self.capturing, self.captures, self.replays, self.fail = False, 0, 0, fail
        self.ignore_seed = ignore_seed  # every replay draws the same sets

    def __call__(self, device, body):
        if self.fail:
            raise RuntimeError(self.fail)
        self.captures += 1

        def replay(seed):
            self.replays += 1
            gen = torch.Generator(device=device)
            gen.manual_seed(0 if self.ignore_seed else seed)
            self.capturing = True
            try:
                body(gen)
            finally:
                self.capturing = False
        return replay


class RoundDrawsTest(unittest.TestCase):
    SPEC = [{"name": "x", "dtype": "float32", "shape": ["n"]},
            {"name": "k", "dtype": "int64", "shape": [1]}]

    def _draws(self, capture, frozen_under_capture=False, count=4):
        calls = []

        def make_inputs(params, generator, device):
            calls.append(1)
            x = torch.randn(params["n"], generator=generator, device=device)
            # A value taken to the host: capture would freeze it into every set.
            k = 3 if frozen_under_capture and capture.capturing else \
                int(torch.randint(0, 1 << 30, (1,), generator=generator))
            return {"x": x, "k": torch.tensor([k])}

        judge, params = _judge(self.SPEC, make_inputs), {"n": 50}
        judge.device = "cpu"
        slabs = [_slabs(judge, params, count), _slabs(judge, params, count)]
        return worker.RoundDraws(judge, params, count, capture=capture), slabs, calls

    def test_later_rounds_replay_a_capture_per_slab(self):
        capture = _Capture()
        draws, slabs, calls = self._draws(capture)
        seen = set()
        for i in range(6):
            draws.draw(slabs[i % 2], 1000 + 100 * i)
            self.assertEqual(draws.how, "calls" if i == 0 else "graph")
            rows = {bytes(slabs[i % 2]["x"][k].contiguous().view(torch.uint8).numpy())
                    for k in range(4)}
            self.assertEqual(len(rows), 4)  # every set of a round differs
            self.assertFalse(rows & seen)  # and from every earlier round's
            seen |= rows
        self.assertEqual(capture.captures, 2)  # once per slab
        self.assertEqual(capture.replays, 5)
        self.assertEqual(len(calls), 4 + 5 * 4)  # the fake runs the body at each replay

    def test_a_value_frozen_by_capture_falls_back_to_calls(self):
        capture = _Capture()
        draws, slabs, _ = self._draws(capture, frozen_under_capture=True)
        draws.draw(slabs[0], 1)
        draws.draw(slabs[1], 2)
        self.assertIn("differed from called ones in: k", draws.how)
        # The round was drawn again by calls: its sets differ in k.
        self.assertNotEqual(int(slabs[1]["k"][0, 0]), int(slabs[1]["k"][1, 0]))
        draws.draw(slabs[0], 3)
        self.assertEqual(capture.captures, 1)
        self.assertEqual(capture.replays, 1)
        self.assertNotEqual(int(slabs[0]["k"][0, 0]), int(slabs[0]["k"][1, 0]))

    def test_replays_that_repeat_an_earlier_round_fall_back_to_calls(self):
        capture = _Capture(ignore_seed=True)
        draws, slabs, _ = self._draws(capture)
        draws.draw(slabs[0], 1)
        draws.draw(slabs[1], 2)
        self.assertEqual(draws.how, "graph")
        first = slabs[1]["x"].clone()
        draws.draw(slabs[0], 3)  # the same sets as the round before
        self.assertIn("first set repeated an earlier round's", draws.how)
        self.assertFalse(bitwise_equal(slabs[0]["x"], first))  # drawn again by calls
        draws.draw(slabs[1], 4)
        self.assertEqual(capture.replays, 2)

    def test_inputs_of_a_few_values_that_repeat_by_chance_stay_replayed(self):
        def make_inputs(params, generator, device):
            return {"k": torch.randint(0, 8, (1,), generator=generator, device=device)}

        judge = _judge([{"name": "k", "dtype": "int64", "shape": [1]}], make_inputs)
        judge.device = "cpu"
        capture = _Capture()
        draws = worker.RoundDraws(judge, {}, 8, capture=capture)
        slabs = [_slabs(judge, {}, 8), _slabs(judge, {}, 8)]
        firsts = set()
        for i in range(12):
            draws.draw(slabs[i % 2], 500 + i)
            firsts.add(int(slabs[i % 2]["k"][0, 0]))
            self.assertEqual(draws.how, "calls" if i == 0 else "graph")
        self.assertLess(len(firsts), 12)  # some first set repeated an earlier round's

    def test_an_inputs_function_that_cannot_be_captured_is_called(self):
        capture = _Capture(fail="operation not permitted when stream is capturing")
        draws, slabs, calls = self._draws(capture)
        for i in range(3):
            draws.draw(slabs[i % 2], 10 + i)
        self.assertEqual(len(calls), 12)
        self.assertIn("not captured: RuntimeError: operation not permitted", draws.how)

    def test_without_a_gpu_or_an_inputs_function_nothing_is_captured(self):
        draws, slabs, calls = self._draws(None)
        draws.draw(slabs[0], 1)
        draws.draw(slabs[1], 2)
        self.assertEqual((draws.how, len(calls)), ("calls (no GPU)", 8))
        judge, params = _judge(DrawSetsTest.INPUTS), {"n": 64}
        plain = worker.RoundDraws(judge, params, 3, capture=_Capture())
        a, b = _slabs(judge, params, 3), _slabs(judge, params, 3)
        plain.draw(a, 7)
        judge.draw_sets(b, params, 7, 3)
        self.assertEqual(plain.how, "in place")
        self.assertTrue(all(bitwise_equal(a[n], b[n]) for n in a))


class SampleTest(unittest.TestCase):
    def test_small_tensors_are_read_whole_and_large_ones_at_secret_places(self):
        rng = random.SystemRandom()
        self.assertIsNone(worker.sample_index(worker.SAMPLE_ELEMENTS, rng, "cpu"))
        t = torch.arange(3 * worker.SAMPLE_ELEMENTS, dtype=torch.float32).reshape(3, -1)
        first = worker.sample_index(t.numel(), rng, "cpu")
        second = worker.sample_index(t.numel(), rng, "cpu")
        self.assertEqual(first.numel(), worker.SAMPLE_ELEMENTS)
        self.assertFalse(torch.equal(first, second))
        self.assertTrue(torch.equal(worker.gather(t, first), first.float()))
        self.assertTrue(torch.equal(worker.gather(t[:1], None), t[0]))


class ResizedSetsTest(unittest.TestCase):
    """A round's sets, from what a round of COUNT sets took."""

    def test_a_short_round_grows_to_five_ms(self):
        self.assertEqual(judge_support.resized_sets(100, 1000.0, 1200.0, 4096), (500, True))

    def test_a_round_near_five_ms_stays(self):
        self.assertEqual(judge_support.resized_sets(100, 4500.0, 4700.0, 4096), (112, False))

    def test_a_capped_size_near_the_old_one_is_not_lent_again(self):
        # 3200 sets (twice the L2) of 1.2 us calls: 4096 would be 1.28 times as many.
        self.assertEqual(judge_support.resized_sets(3200, 3900.0, 4000.0, 4096), (4096, False))
        self.assertEqual(judge_support.resized_sets(2000, 2500.0, 2600.0, 4096), (4000, True))

    def test_the_slower_subject_bounds_the_round(self):
        # The faster one's round is short, the slower one's is 100 times longer.
        sets, far_off = judge_support.resized_sets(100, 1000.0, 100000.0, 4096)
        self.assertEqual((sets, far_off), (50, True))
        # Over 50 ms at one set: one set, nothing to change.
        self.assertEqual(judge_support.resized_sets(1, 60000.0, 60000.0, 4096), (1, False))

    def test_never_below_one_or_above_the_cap(self):
        self.assertEqual(judge_support.resized_sets(4, 0.0, 0.0, 64), (64, True))
        self.assertEqual(judge_support.resized_sets(64, 64.0, 64.0, 64), (64, False))


class EachTogetherTest(unittest.TestCase):
    def test_calls_run_side_by_side(self):
        # Each call waits for the other to have begun: done one after the
        # other, the first would wait forever (here: its timeout).
        import threading
        began = {k: threading.Event() for k in ("baseline", "candidate")}

        def fn(key, value):
            began[key].set()
            other = "candidate" if key == "baseline" else "baseline"
            return value * 2 if began[other].wait(5) else None
        self.assertEqual(judge_support.each_together({"baseline": 1, "candidate": 2}, fn),
                         {"baseline": 2, "candidate": 4})

    def test_every_call_ends_and_the_first_failure_in_order_is_raised(self):
        ended = []

        def fn(key, value):
            if key != "c":
                time.sleep(0.05)
            ended.append(key)
            if key in ("b", "c"):
                raise ValueError(key)
            return value
        with self.assertRaises(ValueError) as caught:
            judge_support.each_together({"a": 1, "b": 2, "c": 3}, fn)
        self.assertEqual(str(caught.exception), "b")
        self.assertEqual(sorted(ended), ["a", "b", "c"])

    def test_one_item_runs_here(self):
        import threading
        here = threading.get_ident()
        self.assertEqual(judge_support.each_together({"x": 1}, lambda k, v: threading.get_ident() == here),
                         {"x": True})


class SettledTest(unittest.TestCase):
    def test_steady_ratios_settle_after_the_first_block(self):
        rng = random.Random(1)
        base = [1000.0 * (1 + rng.gauss(0, 0.003)) for _ in range(10)]
        cand = [500.0 * (1 + rng.gauss(0, 0.003)) for _ in range(10)]
        self.assertTrue(judge_support.settled(base, cand))
        self.assertFalse(judge_support.settled(base[:9], cand[:9]))  # fewer than a first block

    def test_noisy_ratios_do_not(self):
        rng = random.Random(2)
        base = [1000.0 * (1 + rng.gauss(0, 0.05)) for _ in range(30)]
        cand = [1000.0 * (1 + rng.gauss(0, 0.05)) for _ in range(30)]
        self.assertFalse(judge_support.settled(base, cand))
        # The same spread settles with enough rounds: the interval narrows
        # with their square root.
        more = [1000.0 * (1 + rng.gauss(0, 0.05)) for _ in range(2000)]
        self.assertTrue(judge_support.settled(more[:1000], more[1000:]))

    def test_a_few_disturbed_rounds_do_not_decide(self):
        base, cand = [1000.0] * 12, [1000.0] * 12
        cand[3], cand[7] = 3000.0, 300.0  # two rounds the machine disturbed
        self.assertTrue(judge_support.settled(base, cand))

    def test_rounds_of_no_time_are_no_ratio(self):
        self.assertFalse(judge_support.settled([0.0] * 30, [1.0] * 30))
        self.assertFalse(judge_support.settled([1.0] * 30, [0.0] * 30))


class PlanBlockTest(unittest.TestCase):
    def test_a_block_holds_a_fifth_and_witnesses_a_fifth_more(self):
        held, untimed = set(), set()
        last = worker.Judge._plan_block(1, 10, True, held, untimed, random.Random(3))
        self.assertEqual(last, 12)  # ten timed, two witnessed
        self.assertEqual(len(untimed), 2)
        self.assertEqual(len(held), 2)
        self.assertTrue(untimed <= set(range(1, 13)) and held <= set(range(1, 13)))
        last = worker.Judge._plan_block(13, 5, True, held, untimed, random.Random(4))
        self.assertEqual(last, 18)
        self.assertEqual(len([r for r in untimed if r >= 13]), 1)
        self.assertEqual(len([r for r in held if r >= 13]), 1)

    def test_eager_rounds_have_no_witnessed_round_of_their_own(self):
        held, untimed = set(), set()
        self.assertEqual(worker.Judge._plan_block(1, 10, False, held, untimed, random.Random(5)), 10)
        self.assertEqual(untimed, set())
        self.assertEqual(len(held), 2)

    def test_every_round_of_a_block_may_be_drawn(self):
        seen_untimed, seen_held = set(), set()
        for seed in range(400):
            held, untimed = set(), set()
            worker.Judge._plan_block(1, 10, True, held, untimed, random.Random(seed))
            seen_untimed |= untimed
            seen_held |= held
        self.assertEqual(seen_untimed, set(range(1, 13)))
        self.assertEqual(seen_held, set(range(1, 13)))


class RunnerCostsTest(unittest.TestCase):
    def test_only_named_seconds_are_kept(self):
        reply = {"costs": {"launcher_s": 0.5, "request_s": 1, "bad name": 2.0, "nan_s": float("nan"),
                           "flag_s": True, "text_s": "1", "x" * 50 + "_s": 1.0}}
        self.assertEqual(judge_support.runner_costs(reply), {"launcher_s": 0.5, "request_s": 1.0})
        self.assertEqual(judge_support.runner_costs({"costs": [1, 2]}), {})
        self.assertEqual(judge_support.runner_costs({}), {})
        many = {"costs": {f"c{chr(97 + i % 26)}{chr(97 + i // 26)}_s": 1.0 for i in range(100)}}
        self.assertEqual(len(judge_support.runner_costs(many)), 32)


class PoisonTest(unittest.TestCase):
    def test_what_the_judge_writes_is_what_it_finds(self):
        for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.int32, torch.int64, torch.bool,
                      torch.uint8):
            t = torch.zeros(5, dtype=dtype)
            worker.Judge._poison({"t": t})
            self.assertTrue(bool(judge_support.poisoned(t).all()), dtype)
            t[2] = 1 if dtype != torch.bool else False
            self.assertEqual(judge_support.poisoned(t).tolist(), [True, True, False, True, True], dtype)


class CompareSetsTest(unittest.TestCase):
    """A round's other sets, compared after it: a subject that skips the
    work of a few sets (hoping the chosen one is not among them) leaves
    their poison, which is read wherever the places fall."""

    def test_honest_sets_pass_and_a_skipped_set_is_named(self):
        rng = random.SystemRandom()
        gen = torch.Generator().manual_seed(3)
        for numel, total in ((1000, 1 << 20), (5000, 12 * 256)):  # read whole; 256 places a set
            ref = torch.randn(13, numel, generator=gen)
            got = ref.clone()
            rows = [k for k in range(13) if k != 4]  # set 4 was the chosen one
            ok, detail, errs = judge_support.compare_sets("out", got, ref, rows, rng, (1e-5, 1e-5),
                                                          total)
            self.assertTrue(ok, detail)
            self.assertEqual(errs, (0.0, 0.0))
            got[4].fill_(float("nan"))  # the chosen set is not read here
            self.assertTrue(judge_support.compare_sets("out", got, ref, rows, rng, (1e-5, 1e-5),
                                                       total)[0])
            got[9].fill_(float("nan"))  # a set whose work was skipped: its poison left
            ok, detail, _ = judge_support.compare_sets("out", got, ref, rows, rng, (1e-5, 1e-5),
                                                       total)
            self.assertFalse(ok)
            self.assertIn("1 of 12 set(s) wrong", detail)
            self.assertIn("NaN", detail)

    def test_integer_poison_and_a_set_cut_short_are_caught(self):
        rng = random.SystemRandom()
        numel = 1 << 14
        ref = torch.arange(4 * numel, dtype=torch.int32).reshape(4, numel)
        got = ref.clone()
        got[0].fill_(torch.iinfo(torch.int32).min)
        got[3, -numel // 8:] = 0  # the work of a set cut short by an eighth
        ok, detail, _ = judge_support.compare_sets("idx", got, ref, [0, 1, 2, 3], rng, (0, 0),
                                                   4 * 1024)
        self.assertFalse(ok)
        self.assertIn("2 of 4 set(s) wrong", detail)

    def test_no_other_set_is_nothing_to_compare(self):
        empty = torch.zeros(1, 8)
        self.assertEqual(judge_support.compare_sets("out", empty, empty, [], random.SystemRandom(),
                                                    (0, 0)), (True, "", (0.0, 0.0)))


class _Runner:
    """A runner's part check() uses: whether it lives, and stopping it."""

    def __init__(self):
        self.running = True

    def alive(self):
        return self.running

    def stop(self):
        self.running = False


class BaselineCheckedAloneTest(unittest.TestCase):
    """A baseline's failed check is believed only once it fails with the
    candidate's runner stopped (a runner holding the device's memory could
    otherwise keep a configuration where the candidate is slow from being
    timed). The check itself is a stand-in here: what is tested is whom it
    runs beside."""

    def _judge(self, outcome):
        judge = worker.Judge()
        judge.runners = {"baseline": _Runner(), "candidate": _Runner()}
        judge._check_once = lambda req: outcome(judge)
        return judge

    def test_a_baseline_that_fails_only_beside_the_candidate_passes(self):
        def outcome(judge):
            if judge.runners["candidate"].alive():
                return worker.make_reply("failed", "trial 0: out of memory")
            return worker.make_reply("passed", "3 trial(s) within tolerance")
        judge = self._judge(outcome)
        reply = judge.check({"subject": "baseline"})
        self.assertEqual(reply["status"], "passed")
        self.assertFalse(judge.runners["candidate"].alive())
        self.assertIn("out of memory", reply["metrics"]["checked_again_alone"])

    def test_a_baseline_that_fails_alone_fails(self):
        judge = self._judge(lambda judge: worker.make_reply("failed", "trial 0: wrong"))
        reply = judge.check({"subject": "baseline"})
        self.assertEqual(reply["status"], "failed")
        self.assertIn("failed beside the candidate's runner", reply["metrics"]["checked_again_alone"])

    def test_the_candidate_is_not_checked_again(self):
        judge = self._judge(lambda judge: worker.make_reply("failed", "trial 0: wrong"))
        self.assertEqual(judge.check({"subject": "candidate"})["status"], "failed")
        self.assertTrue(judge.runners["candidate"].alive())


class IdleGpuTest(unittest.TestCase):
    """The idle GPU's measure, with evictions timed by a stand-in: a
    subject that keeps the GPU busy while the idle time is measured cannot
    raise the bar the next rounds wait for."""

    def test_a_busy_measure_does_not_raise_the_idle_time(self):
        times = iter([40.0, 38.0, 41.0, 39.0, 40.0] + [900.0] * 5)
        idle = worker.IdleGpu(lambda: next(times))
        self.assertEqual(idle.idle_us, 38.0)
        # Measured again with work a subject left running: still 38 us.
        self.assertEqual(idle.measure(), 38.0)
        # A quieter measure lowers it.
        times = iter([30.0] * 5)
        idle._evict = lambda: next(times)
        self.assertEqual(idle.measure(), 30.0)

    def test_waits_out_leftover_work_then_names_what_stays(self):
        times = iter([40.0] * 5 + [500.0, 300.0, 100.0])
        idle = worker.IdleGpu(lambda: next(times))
        self.assertEqual(idle.wait(limit_s=5, pause_s=0), "")  # quiet at 100 <= 2 * 40 + 50
        idle = worker.IdleGpu(lambda: 40.0)
        idle._evict = lambda: 400.0  # 0.3 ms of someone else's work, every time
        busy = idle.wait(limit_s=0.01, pause_s=0)
        self.assertIn("an L2 eviction took 400 us against 40 us when idle", busy)


if __name__ == "__main__":
    unittest.main()
