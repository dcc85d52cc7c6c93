#!/usr/bin/env bash
# One call, from inside the bundle: five HIP tasks of callV.sh's second
# and third runs again (the run cut at 200 s), with a configuration's held
# sets drawn in the background, both runners launched side by side, a
# device-drawn trial's inputs drawn again on the device rather than
# uploaded, and a stopped runner's time read once settled.
echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1); defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>&1)"
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
tasks=hip2hip/elementwise/silu_mul,hip2hip/losses/cross_entropy,hip2hip/softmax/softmax_rows
tasks=$tasks,hip2hip/norms/layernorm,hip2hip/norms/fused_add_rmsnorm
rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
timeout 215 tools/gpu/run_family.sh "$tasks" "$OUT/six" 200 >/dev/null 2>&1
mkdir -p "$OUT/six.x" && tar xzf "$OUT/six.tgz" -C "$OUT/six.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/six.x/log.txt"
grep -E "integrity|checked wrong|A versus A|wall time per" "$OUT/six.x/table.md" | cut -c1-200
python3 tools/gpu/task_times.py "$OUT/six.x/report.json" > "$OUT/six.task_times.md" 2>&1
grep "^| hip2hip\|^median" "$OUT/six.task_times.md" | cut -c1-260
