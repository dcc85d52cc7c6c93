#!/usr/bin/env python3
"""How noisy a HIP run's timing rounds were, from its results databases.

    round_noise.py LABEL=arena.db[.gz] [LABEL=...]

One row per database: the timed configurations, the share of rounds that
took over 1.5x the fastest round of their subject and configuration (work
beside the rounds), the median p90/p10 of the baseline's rounds (their
noise), and A versus A within 1.00 +- 0.02, over all configurations and
over those whose call takes 10 us or more, by two estimators: the ratio of
the two subjects' medians, and the median over rounds of each round's
ratio (the two subjects' samples of one round taken one after the other;
only where both have one sample per round).
"""
import gzip
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile


def quantile(xs, p):
    xs = sorted(xs)
    return xs[int(p * (len(xs) - 1))]


def share(k, n):
    return f"{k}/{n} = {100 * k / max(n, 1):.1f}%"


def load(path):
    if path.endswith(".gz"):
        tmp = tempfile.NamedTemporaryFile(suffix=".db", delete=False)
        with gzip.open(path, "rb") as src, tmp:
            shutil.copyfileobj(src, tmp)
        path = tmp.name
    db = sqlite3.connect(path)
    rows = db.execute("SELECT task_id, config, subject, samples_json FROM timings").fetchall()
    db.close()
    if path.startswith(tempfile.gettempdir()):
        os.unlink(path)
    return {(t, c, s): json.loads(x) for t, c, s, x in rows}


def main(argv):
    if not argv:
        sys.exit(__doc__)
    print("| run | timed | rounds > 1.5x fastest | p90/p10 of rounds | A/A within 2% | A/A, calls >= 10 us "
          "| paired: A/A within 2% | paired: calls >= 10 us |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for arg in argv:
        label, _, path = arg.partition("=")
        d = load(path)
        keys = [(t, c) for (t, c, s) in d if s == "baseline" and (t, c, "candidate") in d]
        rounds = [x / min(v) for v in d.values() if v for x in v]
        slow = sum(1 for r in rounds if r > 1.5) / max(len(rounds), 1)
        noise = statistics.median(quantile(d[k + ("baseline",)], 0.9) / quantile(d[k + ("baseline",)], 0.1)
                                  for k in keys)
        ok = long_ok = long_n = 0
        pok = plong_ok = paired_n = plong_n = 0
        for k in keys:
            b, c = d[k + ("baseline",)], d[k + ("candidate",)]
            within = abs(statistics.median(b) / statistics.median(c) - 1) <= 0.02
            long = statistics.median(b) >= 10
            ok += within
            long_n += long
            long_ok += within and long
            if len(b) == len(c):
                paired = abs(statistics.median(x / y for x, y in zip(b, c)) - 1) <= 0.02
                paired_n += 1
                pok += paired
                plong_n += long
                plong_ok += paired and long
        print(f"| {label} | {len(keys)} | {100 * slow:.2f}% | {noise:.3f} | {share(ok, len(keys))} "
              f"| {share(long_ok, long_n)} | {share(pok, paired_n)} | {share(plong_ok, plong_n)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
