"""Does where a buffer lies in device memory move a memory-bound kernel's time?

A question the A versus A runs raised: softmax_rows 8192x8192 (fp32, 512
MiB a call, rounds of 23 sets: 12 GiB lent to each subject) is outside
1.00 +- 0.02 in every run, in either direction, with each run's rounds
tightly around its own offset. Each subject works on memory of its own
(two allocations each), so the offset may be where the allocations lie.

This times one Triton row softmax over two groups of buffers, A and B, of
the same sizes, allocated one after the other, in alternating rounds (23
calls on 23 sets each, CUDA events): per "epoch", the median time of A's
rounds and of B's, and their ratio. Epochs: allocate, time; time again
with A and B swapped (the same buffers under the other name: a ratio that
follows the buffers, not the names, is the memory's); free everything
and allocate again (another placement); and so on.

    python3 tools/gpu/placement_probe.py [EPOCHS] [ROUNDS]

Prints a table (markdown) last.
"""

import statistics
import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_rows(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * cols + offs, e / tl.sum(e, axis=0), mask=mask)


ROWS, COLS, SETS = 8192, 8192, 23


def group():
    """A group of buffers as one subject is lent them: one allocation for
    every set's input, one for every set's output."""
    x = torch.empty((SETS, ROWS * COLS), device="cuda", dtype=torch.float32)
    y = torch.empty((SETS, ROWS * COLS), device="cuda", dtype=torch.float32)
    x.normal_()
    return x, y


def round_us(buffers):
    x, y = buffers
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for k in range(SETS):
        _softmax_rows[(ROWS,)](x[k], y[k], COLS, BLOCK=COLS)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / SETS


def epoch(a, b, rounds):
    times = {"A": [], "B": []}
    for _ in range(rounds):
        times["A"].append(round_us(a))
        times["B"].append(round_us(b))
    ma, mb = statistics.median(times["A"]), statistics.median(times["B"])
    ratios = [x / y for x, y in zip(times["A"], times["B"])]
    return ma, mb, statistics.median(ratios), min(ratios), max(ratios)


def main():
    epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    print(f"date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}, triton {triton.__version__}")
    rows = []
    for n in range(epochs):
        a, b = group(), group()
        round_us(a)  # compile, warm
        for label, first, second in (("A, B", a, b), ("swapped", b, a)):
            ma, mb, r, lo, hi = epoch(first, second, rounds)
            rows.append((n + 1, label, ma, mb, r, lo, hi))
            print(rows[-1], flush=True)
        del a, b
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
    print()
    print(f"| allocation | order | first us | second us | median ratio | min | max |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for n, label, ma, mb, r, lo, hi in rows:
        print(f"| {n} | {label} | {ma:.1f} | {mb:.1f} | {r:.3f} | {lo:.3f} | {hi:.3f} |")


if __name__ == "__main__":
    main()
