"""What the triton2triton judge's parts share (worker.py, judge_rounds.py):
the subjects' names, a tensor's slot in lent memory, where a timed call's
outputs are read, integrity findings, and a clock of phases."""

import math
import time

import torch

SUBJECTS = ("baseline", "candidate")
_ALIGN = 256


def _round_up(n, m=_ALIGN):
    return (n + m - 1) // m * m


def slot_bytes(dtype, shape):
    """Bytes one tensor takes in lent memory (each set 256-byte aligned)."""
    return _round_up(math.prod(int(d) for d in shape) * torch.empty((), dtype=dtype).element_size())


SAMPLE_ELEMENTS = 1 << 16  # elements of a tensor read to verify a timed call


def sample_index(numel, rng, device):
    """Where a tensor is read: all of it up to SAMPLE_ELEMENTS elements, else
    SAMPLE_ELEMENTS places drawn in secret (None: everywhere)."""
    if numel <= SAMPLE_ELEMENTS:
        return None
    gen = torch.Generator(device=device)
    gen.manual_seed(rng.getrandbits(62))
    return torch.randint(0, numel, (SAMPLE_ELEMENTS,), generator=gen, device=device)


def gather(t, idx):
    flat = t.reshape(-1)
    return flat.clone() if idx is None else flat[idx]


class IntegrityFailure(Exception):
    def __init__(self, findings):
        super().__init__("integrity: " + "; ".join(findings))
        self.findings = findings


class Phases:
    """Wall seconds per phase of a stage, reported with it."""

    def __init__(self):
        self.seconds = {}
        self._mark = time.perf_counter()

    def lap(self, phase):
        now = time.perf_counter()
        self.seconds[phase] = self.seconds.get(phase, 0.0) + now - self._mark
        self._mark = now
