#!/usr/bin/env bash
# One call, from inside the bundle: six Triton tasks evaluated twice on the
# same machine, first with every judge started when its evaluation opens
# (ARENA_TRITON_PRESTART=0), then with the next task's judge and runners
# started ahead (the default). Each run gets a kept-kernel cache and a
# launchers' folder of its own, empty at its start (ARENA_TRITON_CACHE),
# so that neither gains from what the other compiled. Then call Z's
# candidates (stop-slices-2026-12-07), for the stop checks landed since.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d,triton2triton/norms/rmsnorm_fwd,triton2triton/matmul/gemm_fp16
for mode in 0 1; do
  rm -rf runs/arena.db* /tmp/arena-gpu-state/arena.db* "/tmp/kept-$mode"
  mkdir -p "/tmp/kept-$mode"
  ARENA_TRITON_CACHE="/tmp/kept-$mode" ARENA_TRITON_PRESTART=$mode \
    timeout 215 tools/gpu/run_family.sh "$tr" "$OUT/p$mode" 205 >/dev/null 2>&1
  mkdir -p "$OUT/p$mode.x" && tar xzf "$OUT/p$mode.tgz" -C "$OUT/p$mode.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## prestart=$mode"; grep "arena exit" "$OUT/p$mode.x/log.txt"
  grep -E "integrity|checked wrong|A versus A|wall time per|runners stopped" "$OUT/p$mode.x/table.md" | cut -c1-200
  python3 tools/gpu/task_times.py "$OUT/p$mode.x/report.json" > "$OUT/p$mode.task_times.md" 2>&1
  grep "^| triton2triton.*[0-9] |$\|^median" "$OUT/p$mode.task_times.md" | grep -v "| baseline |\|| candidate |" | cut -c1-120
  python3 - "$OUT/p$mode.x/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tasks = r.get("tasks") or r.get("results") or []
for t in tasks:
    m = (t.get("baseline_compile") or {}).get("metrics", {})
    print(t.get("task_id"), "started ahead:", m.get("judge_started_ahead"),
          "harness_s %.2f" % (t.get("phases") or {}).get("harness_s", -1))
PY
  echo "kept kernels: $(find "/tmp/kept-$mode" -mindepth 2 -maxdepth 2 | wc -l) entries in $(find "/tmp/kept-$mode" -mindepth 1 -maxdepth 1 | wc -l) folders"
done
echo "spare folders left: $(ls -d /tmp/arena-judge-* 2>/dev/null | wc -l)"
f=""
for c in honest_fast honest_autotune work_between_requests own_kernel_between_requests; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout 140 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -5 "$OUT/adv/table.md" | cut -c1-200
