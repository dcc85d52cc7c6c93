"""Replays the Triton judge's rule for the timed rounds
(judge_support.settled: a first block of FIRST_BLOCK_ROUNDS, then blocks
of NEXT_BLOCK_ROUNDS until the median ratio is settled, at most 30) on the
paired rounds of reports timed at 30 rounds, and says how many rounds it
would have timed and whether any configuration's verdict within
1.00 +- 0.02 would have changed. For A versus A (noop) reports.

    .venv/bin/python tools/gpu/blocks_replay.py REPORT [REPORT...]
"""

import gzip
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plugins",
                                "triton2triton", "harness"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plugins",
                                "common", "python"))
from judge_support import FIRST_BLOCK_ROUNDS, NEXT_BLOCK_ROUNDS, settled  # noqa: E402

MOST = 30


def main(paths):
    if not paths:
        sys.exit("usage: blocks_replay.py REPORT [REPORT...]")
    configs = rounds = same = 0
    changed = []
    for path in paths:
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            report = json.load(f)
        for task in report.get("tasks", []):
            for config in task.get("configs", []):
                timing = config.get("timing") or {}
                base, cand = timing.get("baseline_us") or [], timing.get("candidate_us") or []
                if len(base) < MOST or len(base) != len(cand):
                    continue
                n = FIRST_BLOCK_ROUNDS
                while n < MOST and not settled(base[:n], cand[:n]):
                    n += NEXT_BLOCK_ROUNDS
                within = [abs(statistics.median([b / c for b, c in zip(base[:k], cand[:k]) if c > 0]) - 1) <= 0.02
                          for k in (n, MOST)]
                configs += 1
                rounds += n
                same += within[0] == within[1]
                if within[0] != within[1]:
                    changed.append(f"{task.get('task_id')} {config.get('name')}")
    print(f"{configs} configurations timed at {MOST} rounds; by the rule {rounds / max(configs, 1):.1f} "
          f"rounds on average; verdict within 1.00 +- 0.02 the same on {same}")
    for name in changed:
        print(f"  changed: {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
