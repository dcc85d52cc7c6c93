"""Measures the two ceilings results are placed against, on this GPU:
device memory bandwidth and dense bf16 matrix-multiply throughput (random
data). A ceiling is the best the device was seen to do, so each is the
fastest of its repetitions, and the bandwidth is the best of three streams
over 1 GiB buffers: a copy (bytes read plus bytes written), a read-only sum
and a write-only fill. (A median copy alone was beaten by 1% by PyTorch's
own elementwise kernels.) The copy's figure is kept beside it.

  python3 tools/gpu/ceilings.py ceilings.json
"""

import json
import sys

import torch


def best_ms(fn, reps):
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return min(times)


def main():
    props = torch.cuda.get_device_properties(0)
    n = 1 << 28  # 1 GiB of float32 each way
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    total = torch.empty((), device="cuda")
    streams = {  # name: (one pass, bytes it moves)
        "copy": (lambda: dst.copy_(src), 2 * n * 4),
        "read": (lambda: torch.sum(src, 0, out=total), n * 4),
        "write": (lambda: dst.fill_(1.0), n * 4),
    }
    stream_bytes_per_s = {}
    for name, (fn, nbytes) in streams.items():
        for _ in range(3):
            fn()
        stream_bytes_per_s[name] = nbytes / (best_ms(fn, 30) / 1e3)
    bandwidth = max(stream_bytes_per_s.values())

    m = 8192
    a = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        a @ b
    mm_ms = best_ms(lambda: a @ b, 30)
    flops = 2 * m ** 3 / (mm_ms / 1e3)
    out = {
        "device": props.name,
        "l2_bytes": props.L2_cache_size,
        "copy_bytes_per_s": stream_bytes_per_s["copy"],
        "memory_bytes_per_s": bandwidth,
        "streams_bytes_per_s": stream_bytes_per_s,
        "bf16_matmul_flops": flops,
        "torch": torch.__version__,
    }
    print(f"ceilings on {props.name}: memory {bandwidth / 1e12:.2f} TB/s (" + ", ".join(
        f"{k} {v / 1e12:.2f}" for k, v in stream_bytes_per_s.items()) + "), "
          f"bf16 matmul {flops / 1e12:.0f} TFLOP/s")
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
