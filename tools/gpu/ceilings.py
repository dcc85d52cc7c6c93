"""Measures the two ceilings results are placed against, on this GPU:
device memory bandwidth (a large device-to-device copy, bytes read plus bytes
written) and dense bf16 matrix-multiply throughput (random data).

  python3 tools/gpu/ceilings.py ceilings.json
"""

import json
import sys

import torch


def median_ms(fn, reps):
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def main():
    props = torch.cuda.get_device_properties(0)
    n = 1 << 28  # 1 GiB of float32 each way
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    copy_ms = median_ms(lambda: dst.copy_(src), 30)
    copy_bytes_per_s = 2 * n * 4 / (copy_ms / 1e3)

    m = 8192
    a = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        a @ b
    mm_ms = median_ms(lambda: a @ b, 30)
    flops = 2 * m ** 3 / (mm_ms / 1e3)
    out = {
        "device": props.name,
        "l2_bytes": props.L2_cache_size,
        "copy_bytes_per_s": copy_bytes_per_s,
        "bf16_matmul_flops": flops,
        "torch": torch.__version__,
    }
    print(f"ceilings on {props.name}: copy {copy_bytes_per_s / 1e12:.2f} TB/s, "
          f"bf16 matmul {flops / 1e12:.0f} TFLOP/s")
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=2)


if __name__ == "__main__":
    main()
