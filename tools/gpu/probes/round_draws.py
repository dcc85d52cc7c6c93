"""A timing stage's rounds of inputs drawn through a task's inputs function,
by calls (one per set, every round) and by a captured round replayed
(RoundDraws), on this GPU, for each named Triton task's configurations:

  python3 tools/gpu/probes/round_draws.py SETS ROUNDS tasks/triton2triton/S/T ...

For each configuration it checks, on the replayed rounds, what the timing
rounds rely on, and prints one table row (a check that fails says so in its
column and the exit status is 1):
  graph     RoundDraws used the captured round (not a fallback to calls)
  fresh     no two sets of any replayed round, nor of two rounds, are the same
            (every input that varies between called sets)
  seeded    the same seed replays the same sets; another seed, other sets
  like      each floating input's mean and standard deviation over a replayed
            round are within 5% (of the standard deviation) of a called
            round's, and integer inputs cover the same range
and the milliseconds one round takes drawn each way (the GPU waited for;
called: a round after the first, replayed: the median of the rounds after
both slabs' captures).
"""

import math
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", "..", ".."))
sys.path[:0] = [os.path.join(root, "plugins", "triton2triton", "harness"),
                os.path.join(root, "plugins", "common", "python")]

_TABLE = sys.stdout  # the harness imported below sends prints to stderr

import torch  # noqa: E402
import yaml  # noqa: E402

import worker  # noqa: E402
from arena_harness import bitwise_equal, fingerprint  # noqa: E402


def _judge(task_dir):
    with open(os.path.join(task_dir, "task.yaml")) as f:
        spec = yaml.safe_load(f)
    judge = worker.Judge()
    judge.device = "cuda"
    judge.task = {"inputs": spec["interface"]["inputs"],
                  "outputs": spec["interface"].get("outputs", [])}
    ref = spec["triton2triton"].get("inputs")
    judge.make_inputs = worker._resolve(ref, task_dir, "inputs") if ref else None
    configs = [(f"tuning[{i}]", c) for i, c in enumerate(spec["configs"].get("tuning", []))]
    configs += [(f"heldout[{i}]", c) for i, c in enumerate(spec["configs"].get("heldout", []))]
    return judge, configs


def _slabs(judge, params, count):
    probe = judge.draw_inputs(params, 1)
    return {name: torch.empty((count, t.numel()), dtype=t.dtype, device="cuda")
            for name, t in probe.items()}


def _ms(fn):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3


def _rows(slab):
    return {fingerprint(slab[k]) for k in range(slab.shape[0])}


def _like(called, replayed):
    for name, a in called.items():
        b = replayed[name]
        if a.is_floating_point():
            a64, b64 = a.double(), b.double()
            sd = float(a64.std()) or 1.0
            if abs(float(a64.mean()) - float(b64.mean())) > 0.05 * sd or \
                    abs(float(a64.std()) - float(b64.std())) > 0.05 * sd:
                return f"no: {name} mean/std {float(a64.mean()):.3g}/{float(a64.std()):.3g} " \
                       f"vs {float(b64.mean()):.3g}/{float(b64.std()):.3g}"
        elif a.dtype != torch.bool and a.numel() > 1000:
            # A sample's extremes: within 1% of the range (or 1) of each other.
            slack = max(1, (int(a.max()) - int(a.min())) // 100)
            if abs(int(a.min()) - int(b.min())) > slack or abs(int(a.max()) - int(b.max())) > slack:
                return f"no: {name} range {int(a.min())}..{int(a.max())} vs " \
                       f"{int(b.min())}..{int(b.max())}"
    return "yes"


def main():
    sets, rounds = int(sys.argv[1]), int(sys.argv[2])  # sets: at most, a round
    failed = False
    print("| task | config | sets | graph | fresh | seeded | like | called ms/round | replayed ms/round |",
          file=_TABLE)
    print("|---|---|---|---|---|---|---|---|---|", file=_TABLE)
    for task_dir in sys.argv[3:]:
        judge, configs = _judge(task_dir)
        if judge.make_inputs is None:
            print(f"| {task_dir} | - | - | no inputs function | | | | | |", file=_TABLE)
            continue
        for config_name, params in configs:
            # As the judge sizes rounds: at most 2 GiB of sets per slab.
            per_set = sum(t.numel() * t.element_size()
                          for t in judge.draw_inputs(params, 1).values())
            count = max(2, min(sets, (2 << 30) // max(per_set, 1)))
            slabs = [_slabs(judge, params, count), _slabs(judge, params, count)]
            draws = worker.RoundDraws(judge, params, count)
            draws.draw(slabs[0], 11)  # by calls: the first round
            called = _ms(lambda: judge.draw_sets(slabs[1], params, 12, count))  # warm
            first = {n: t.clone() for n, t in slabs[0].items()}
            seen = {n: _rows(t) for n, t in slabs[0].items()}
            varies = dict(draws.varies)
            # An input with fewer values than a round has sets (a 1 x 1
            # table of 8 experts) repeats among called sets too: not a
            # question freshness can answer.
            few = sorted(n for n in seen if varies[n] and len(seen[n]) < count)
            times, fresh = [], "yes" if not few else f"yes (repeat when called too: {', '.join(few)})"
            for i in range(1, rounds + 1):
                times.append(_ms(lambda: draws.draw(slabs[i % 2], 1000 + 7919 * i)))
                for name, slab in slabs[i % 2].items():
                    if not varies[name] or name in few:
                        continue
                    rows = _rows(slab)
                    if len(rows) != count or rows & seen[name]:
                        fresh = f"no: {name} in round {i}"
                    seen[name] |= rows
            # The captured round itself, past RoundDraws's guard against
            # repeated rounds.
            replay = draws.replays.get(tuple(slabs[1][n].data_ptr() for n in draws.names))
            if replay is None:
                replay = lambda seed: draws.draw(slabs[1], seed)  # noqa: E731  (shows in "graph")
            replay(554)
            a = {n: t.clone() for n, t in slabs[1].items()}
            replay(555)
            b = {n: t.clone() for n, t in slabs[1].items()}
            replay(555)
            same = all(bitwise_equal(b[n], slabs[1][n]) for n in b)
            other = any(not bitwise_equal(a[n], b[n]) for n in b if varies[n])
            seeded = "yes" if same and other else f"no: same seed same sets {same}, other seed other {other}"
            like = _like(first, slabs[1])
            graph = "yes" if draws.how == "graph" else draws.how
            ok = graph == "yes" and fresh.startswith("yes") and seeded == like == "yes"
            failed |= not ok
            # Each slab's first replay captures it first: the rounds after
            # both captures are what a timing stage's later rounds cost.
            steady = times[2:] or times
            replayed = sorted(steady)[len(steady) // 2] if steady else math.nan
            print(f"| {os.path.basename(task_dir)} | {config_name} | {count} | {graph} | {fresh} "
                  f"| {seeded} | {like} | {called:.1f} | {replayed:.2f} |", file=_TABLE, flush=True)
            draws.close()
            del slabs
            torch.cuda.empty_cache()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
