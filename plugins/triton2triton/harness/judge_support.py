"""What the triton2triton judge's parts share (worker.py, judge_rounds.py):
the subjects' names, a tensor's slot in lent memory, where a timed call's
outputs are read and how a round's other sets are compared, how a round
is sized, integrity findings, the idle GPU's measure, and a clock of
phases."""

import concurrent.futures
import math
import re
import time

import torch

from arena_harness import compare, median

SUBJECTS = ("baseline", "candidate")
_ALIGN = 256


def _round_up(n, m=_ALIGN):
    return (n + m - 1) // m * m


def slot_bytes(dtype, shape):
    """Bytes one tensor takes in lent memory (each set 256-byte aligned)."""
    return _round_up(math.prod(int(d) for d in shape) * torch.empty((), dtype=dtype).element_size())


def each_together(items, fn):
    """{key: fn(key, value)} for ITEMS (a dict), every call on a thread of
    its own at once (the judge's requests to several runners, each a
    process of its own that works while the judge waits: their graphs
    captured, their memory mapped, side by side). Every call is waited
    for; then the first exception, in ITEMS' order, is raised."""
    if len(items) <= 1:
        return {k: fn(k, v) for k, v in items.items()}
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(items)) as pool:
        futures = {k: pool.submit(fn, k, v) for k, v in items.items()}
        concurrent.futures.wait(futures.values())
    for f in futures.values():
        if f.exception() is not None:
            raise f.exception()
    return {k: f.result() for k, f in futures.items()}


ROUND_US = 5000.0  # what the faster subject's round is sized to last
LONGEST_ROUND_US = 50000.0  # what the slower one's may last, at most


def resized_sets(count, fastest_us, slowest_us, cap):
    """(sets, far_off): the sets of a round whose faster subject's round of
    COUNT sets took FASTEST_US (its work, less the judge's round trip) and
    whose slower one's took SLOWEST_US: sized so that the faster one's
    lasts about ROUND_US, the slower one's no more than LONGEST_ROUND_US,
    within [1, CAP]. FAR_OFF says whether the rounds are worth lending and
    capturing again at that size: the faster one's under 4/5 of ROUND_US,
    where the new size is at least 1.3 times the old (a size capped near
    the old one gains too little for a second lend and capture), or the
    slower one's over LONGEST_ROUND_US."""
    resized = int(min(cap, math.ceil(count * ROUND_US / max(fastest_us, 1.0))))
    resized = max(1, min(resized, int(count * LONGEST_ROUND_US / max(slowest_us, 1.0))))
    far_off = (fastest_us < 0.8 * ROUND_US and resized >= 1.3 * count) or slowest_us > LONGEST_ROUND_US
    return resized, far_off and resized != count


_COST_NAME = re.compile(r"[a-z_]{1,40}_s")


def runner_costs(reply):
    """Where a runner says its time went (a reply's "costs": seconds by
    name), for the report alone: it comes from the subject's process, so
    only names of that form with numbers are kept, at most 32 of them."""
    costs = reply.get("costs") if isinstance(reply, dict) else None
    if not isinstance(costs, dict):
        return {}
    kept = {}
    for name, value in costs.items():
        if len(kept) < 32 and isinstance(name, str) and _COST_NAME.fullmatch(name) and \
                isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            kept[name] = round(float(value), 4)
    return kept


# Timed rounds per subject: a first block of this many, then blocks of
# NEXT_BLOCK_ROUNDS until the median of the rounds' paired ratios is
# settled, or the task's repetitions (at most 30) are reached.
FIRST_BLOCK_ROUNDS = 10
NEXT_BLOCK_ROUNDS = 5
SETTLED_HALF_WIDTH = 0.01  # of the median ratio's 95% interval, relative


def settled(baseline_us, candidate_us, half_width=SETTLED_HALF_WIDTH):
    """Whether the median of the paired rounds' ratios (baseline over
    candidate, round by round: what the speedup is) is known within
    +-HALF_WIDTH at 95%: the standard error of a median, 1.2533 times the
    spread over the square root of the count, with the spread taken
    robustly (the median absolute deviation of the log-ratios, times
    1.4826), so that a few rounds disturbed by the machine do not keep a
    configuration from settling, nor make one settle. A round that took
    no time (its work less the round trip at or under zero) is not a
    ratio; under FIRST_BLOCK_ROUNDS ratios nothing is settled."""
    logs = [math.log(b / c) for b, c in zip(baseline_us, candidate_us) if b > 0 and c > 0]
    n = len(logs)
    if n < FIRST_BLOCK_ROUNDS:
        return False
    middle = median(logs)
    spread = 1.4826 * median([abs(x - middle) for x in logs])
    return 1.96 * 1.2533 * spread / math.sqrt(n) <= math.log1p(half_width)


SAMPLE_ELEMENTS = 1 << 16  # elements of a tensor read to verify a timed call


def sample_index(numel, rng, device):
    """Where a tensor is read: all of it up to SAMPLE_ELEMENTS elements, else
    SAMPLE_ELEMENTS places drawn in secret (None: everywhere)."""
    if numel <= SAMPLE_ELEMENTS:
        return None
    gen = torch.Generator(device=device)
    gen.manual_seed(rng.getrandbits(62))
    return torch.randint(0, numel, (SAMPLE_ELEMENTS,), generator=gen, device=device)


def poison_value(dtype):
    """What the judge writes into outputs before a call: NaN, True, or the
    integer type's least value (a kernel that writes nothing leaves it)."""
    if dtype.is_floating_point:
        return float("nan")
    if dtype == torch.bool:
        return True
    return torch.iinfo(dtype).min


def poisoned(t):
    """Where T holds the poison (NaN for floating types: NaN is no value)."""
    return torch.isnan(t) if t.is_floating_point() else t == poison_value(t.dtype)


def gather(t, idx):
    flat = t.reshape(-1)
    return flat.clone() if idx is None else flat[idx]


OTHER_SETS_SAMPLES = 1 << 20  # places read over a round's other sets, per output


def compare_sets(name, got, ref, rows, rng, tol, total=OTHER_SETS_SAMPLES):
    """One output of a round's sets, the candidate's (`got`) against the
    baseline's on the same inputs (`ref`), both [sets, elements] (the lent
    slabs), over the sets `rows`: each at total / len(rows) places of its own
    drawn in secret (at least 64; all of it where it is smaller), in one
    comparison. A subject that skips the work of some sets leaves their
    poison behind wherever they are read. Returns compare()'s
    (ok, detail, (max_abs, max_rel)), the detail saying how many sets were
    wrong."""
    if not rows:
        return True, "", (0.0, 0.0)
    device = got.device
    numel = got.shape[1]
    per = max(64, total // len(rows))
    picked = torch.tensor(rows, device=device)
    if numel <= per:
        g, r = got[picked], ref[picked]
    else:
        gen = torch.Generator(device=device)
        gen.manual_seed(rng.getrandbits(62))
        cols = torch.randint(0, numel, (len(rows), per), generator=gen, device=device)
        g, r = got[picked[:, None], cols], ref[picked[:, None], cols]
    ok, detail, errs = compare(name, g, r, tol)
    if not ok:  # a finding: which sets, by compare() itself (once per evaluation)
        wrong = sum(1 for k in range(len(rows)) if not compare(name, g[k], r[k], tol)[0])
        detail = f"{wrong} of {len(rows)} set(s) wrong: {detail}"
    return ok, detail, errs


class IntegrityFailure(Exception):
    def __init__(self, findings):
        super().__init__("integrity: " + "; ".join(findings))
        self.findings = findings


class IdleGpu:
    """When the GPU is free of work a subject left running, told by how long
    the judge's L2 eviction takes (`evict()`, microseconds on the host's
    clock: while another context's kernels hold the GPU, the judge's work
    waits for its time slice). A subject's leftover work can only make an
    eviction slower, so the idle time is the least ever measured,
    including before any subject's code ran (`first`): a subject that keeps
    the GPU busy while the idle time is measured cannot raise the bar the
    next subject's rounds wait for."""

    def __init__(self, evict, first=5):
        self._evict = evict
        self.idle_us = min(evict() for _ in range(first)) if first else math.inf

    def measure(self, times=5):
        """The idle time, with this many more evictions (every runner
        stopped) taken into account."""
        self.idle_us = min([self.idle_us] + [self._evict() for _ in range(times)])
        return self.idle_us

    def wait(self, limit_s=2.0, pause_s=0.0005):
        """Evicts until an eviction takes what it takes on an idle GPU
        (twice that and 50 us: the noise of one); "" once quiet, else what
        the last one took after `limit_s`."""
        deadline = time.perf_counter() + limit_s
        while True:
            us = self._evict()
            if us <= 2.0 * self.idle_us + 50.0:
                return ""
            if time.perf_counter() > deadline:
                return f"an L2 eviction took {us:.0f} us against {self.idle_us:.0f} us when idle"
            time.sleep(pause_s)


class Phases:
    """Wall seconds per phase of a stage, reported with it."""

    def __init__(self):
        self.seconds = {}
        self._mark = time.perf_counter()

    def lap(self, phase):
        now = time.perf_counter()
        self.seconds[phase] = self.seconds.get(phase, 0.0) + now - self._mark
        self._mark = now
