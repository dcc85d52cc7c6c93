"""What stopping a Triton runner and checking the stop cost the judge on
the host, per stop: freeze(True) (the stop, the wait until every thread
stopped, the tree read again, its settled account), ran_while_stopped and
freeze(False), against a runner of N threads (a Python process whose
threads sleep). Prints a markdown table.

    python3 plugins/common/python/freeze_benchmark.py
"""

import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_judge import RunnerClient  # noqa: E402  (imports no torch)

_IDLE = ("import threading, time\n"
         "for _ in range({}):\n"
         "    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()\n"
         "time.sleep(3600)\n")


def measure(threads, stops=300):
    log = tempfile.NamedTemporaryFile(delete=False)
    runner = RunnerClient("candidate", [sys.executable, "-c", _IDLE.format(threads - 1)], log.name, pool=None)
    runner.start()
    try:
        time.sleep(0.5)  # its threads started
        stop_ms, check_ms = [], []
        for _ in range(stops):
            t0 = time.perf_counter()
            runner.freeze(True)
            t1 = time.perf_counter()
            if runner.ran_while_stopped():
                raise SystemExit("a runner the judge alone stopped was named")
            t2 = time.perf_counter()
            runner.freeze(False)
            stop_ms.append((t1 - t0) * 1e3)
            check_ms.append((t2 - t1) * 1e3)
        return statistics.median(stop_ms), statistics.median(check_ms)
    finally:
        runner.stop()
        os.unlink(log.name)


def main():
    print("| runner's threads | stop, settled (ms, median) | check (ms, median) |")
    print("|---:|---:|---:|")
    for threads in (1, 25, 100):
        stop, check = measure(threads)
        print(f"| {threads} | {stop:.2f} | {check:.2f} |")


if __name__ == "__main__":
    main()
