"""Does the memory a runner is lent, or the runner's process, move a
memory-bound kernel's time? (Two processes, as the arena's Triton judge
times two subjects.)

A versus A on softmax_rows 8192x8192 (the task's own three-sweep kernel,
fp16) has a tight per-run offset, 0.97 to 1.13, that changes from run to
run. tools/gpu/placement_probe.py found none between buffers torch
allocates in one process. Here the memory is lent as the judge lends it:
allocated with cuMemCreate in this process (the judge's part), exported as
file descriptors and mapped in two child processes (the runners' part),
each timing rounds of SETS calls on its own slab (CUDA events), in turns.

Epochs: each starts two fresh processes, P and Q. In "A|B" P maps slab A
and Q slab B; in "B|A" the other way round, and so on; a last one, "A|A",
maps slab A in both. A ratio P/Q that
follows the slabs (flips sign when they swap) is the memory's placement;
one that changes between fresh pairs whatever they map is the process's.
ALIGN: the address the runners reserve for the mapping is aligned to 0
(the driver's choice, as CudaVmm does) or to that many bytes. CHUNK
(--chunk=BYTES): each slab is made of allocations of that size, made in
turns for A and B (so that the two slabs' memory is interleaved; with
--separate, all of A's first) and mapped one after the other at one
address; 0, one allocation per slab.

    python3 tools/gpu/vmm_placement_probe.py [--chunk=BYTES [--separate]] [EPOCHS] [ROUNDS] [ALIGN...]

Prints a table (markdown) last.
"""

import ctypes
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "plugins", "common", "python"))

TASK_KERNEL = os.path.join(HERE, "..", "..", "tasks", "triton2triton", "softmax", "softmax_rows", "kernel.py")
ROWS, COLS, SETS = 8192, 8192, 23
SET_BYTES = ROWS * COLS * 2  # fp16
SLAB_BYTES = 2 * SETS * SET_BYTES  # every set's input, then every set's output


def child(fds, chunk, size, align):
    import importlib.util
    import torch
    from arena_buffers import CudaVmm, _CudaArray
    # The task's own baseline kernel.
    spec = importlib.util.spec_from_file_location("softmax_rows_kernel", TASK_KERNEL)
    task = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(task)

    def softmax(x, y):
        task._softmax_kernel[(ROWS,)](x, y, COLS, BLOCK=task.BLOCK_N, num_warps=task.NUM_WARPS)

    torch.cuda.init()
    torch.zeros(1, device="cuda")
    vmm = CudaVmm(0)
    ptr = ctypes.c_uint64()
    vmm._check("cuMemAddressReserve", ctypes.byref(ptr), ctypes.c_size_t(size), ctypes.c_size_t(align),
               ctypes.c_uint64(0), ctypes.c_uint64(0))
    for i, fd in enumerate(fds):
        handle = ctypes.c_uint64()
        vmm._check("cuMemImportFromShareableHandle", ctypes.byref(handle), ctypes.c_void_p(fd),
                   ctypes.c_int(vmm._POSIX_FD))
        vmm._check("cuMemMap", ctypes.c_uint64(ptr.value + i * chunk), ctypes.c_size_t(chunk), ctypes.c_size_t(0),
                   ctypes.c_uint64(handle.value), ctypes.c_uint64(0))
    vmm._check("cuMemSetAccess", ptr, ctypes.c_size_t(size), ctypes.byref(vmm.access), ctypes.c_size_t(1))
    whole = torch.as_tensor(_CudaArray(ptr.value, size), device="cuda")
    views = whole[:SLAB_BYTES].view(torch.float16).view(2, SETS, ROWS, COLS)
    xs, ys = views[0], views[1]
    softmax(xs[0], ys[0])
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    print(f"ready {ptr.value:#x}", flush=True)
    for line in sys.stdin:
        if line.strip() != "round":
            break
        start.record()
        for k in range(SETS):
            softmax(xs[k], ys[k])
        end.record()
        end.synchronize()
        print(f"{start.elapsed_time(end) * 1000.0 / SETS:.3f}", flush=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child([int(f) for f in sys.argv[2].split(",")], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return
    args = [a for a in sys.argv[1:] if not a.startswith("--chunk=") and a != "--separate"]
    separate = "--separate" in sys.argv[1:]
    chunk = int(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--chunk=")), "0"))
    epochs = int(args[0]) if len(args) > 0 else 4
    rounds = int(args[1]) if len(args) > 1 else 30
    aligns = [int(a) for a in args[2:]] or [0]
    import torch
    from arena_buffers import CudaVmm, _CudaArray
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    vmm = CudaVmm(0)
    slabs = {"A": [], "B": []}  # (handle, size, address) of each allocation, in mapping order
    pieces = 1 if chunk <= 0 else -(-SLAB_BYTES // chunk)
    # In turns (interleaved), or all of A's first (--separate).
    order = [name for name in ("A", "B") for _ in range(pieces)] if separate else \
        [name for _ in range(pieces) for name in ("A", "B")]
    for name in order:
        handles, size, ptr = vmm.create(SLAB_BYTES if chunk <= 0 else chunk)
        t = torch.as_tensor(_CudaArray(ptr, size), device="cuda")
        t.view(torch.float16).normal_(0, 2)
        slabs[name].append((handles[0], size, ptr))
    torch.cuda.synchronize()
    print(f"date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}")
    print(f"slabs: {pieces} allocation(s) of {slabs['A'][0][1] >> 20} MiB each, A's first at "
          f"{slabs['A'][0][2]:#x}, B's at {slabs['B'][0][2]:#x}", flush=True)
    rows = []
    for align in aligns:
        # The last epoch maps one slab in both: the processes alone.
        for n in range(epochs + 1):
            order = ("A", "A") if n == epochs else ("A", "B") if n % 2 == 0 else ("B", "A")
            procs = []
            for name in order:
                fds = [vmm.export(handle) for handle, _, _ in slabs[name]]
                piece = slabs[name][0][1]
                p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", ",".join(map(str, fds)),
                                      str(piece), str(piece * len(fds)), str(align)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, pass_fds=fds)
                for fd in fds:
                    os.close(fd)
                procs.append(p)
            where = [p.stdout.readline().split()[-1] for p in procs]
            times = ([], [])
            for r in range(rounds + 1):
                for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                    procs[i].stdin.write("round\n")
                    procs[i].stdin.flush()
                    us = float(procs[i].stdout.readline())
                    if r > 0:
                        times[i].append(us)
            for p in procs:
                p.stdin.close()
                p.wait()
            ratios = [a / b for a, b in zip(*times)]
            rows.append((align, n + 1, "|".join(order), where, statistics.median(times[0]),
                         statistics.median(times[1]), statistics.median(ratios), min(ratios), max(ratios)))
            print(rows[-1], flush=True)
    print()
    print(f"chunk: {chunk or 'one allocation per slab'}{', separate' if separate and chunk else ''}")
    print("| align | epoch | P's slab, Q's | P us | Q us | median P/Q | min | max | mapped at (P, Q) |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for align, n, order, where, a, b, r, lo, hi in rows:
        print(f"| {align} | {n} | {order} | {a:.1f} | {b:.1f} | {r:.3f} | {lo:.3f} | {hi:.3f} | "
              f"{where[0]}, {where[1]} |")


if __name__ == "__main__":
    main()
