#!/usr/bin/env bash
# One call, from inside the bundle: the freeze check that counts a stopped
# thread's times on a CPU (c95dece). The HIP candidates that resume
# themselves (resumed_for_a_moment, never_stopped) against the honest
# control, then five tasks' noop runs (as call X of
# hip-trials-h200-2026-12-07), where no honest runner may be named.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 230 tools/gpu/adversarial_hip.sh "$OUT/adv_hip" honest resumed_for_a_moment never_stopped >/dev/null 2>&1
echo "adversarial_hip exit $?"
tar xzf "$OUT/adv_hip.tgz" -C "$OUT" ./adversarial_hip.md ./runs.txt 2>/dev/null || cp "$OUT"/adv_hip/{adversarial_hip.md,runs.txt} "$OUT/"
cat "$OUT/runs.txt" "$OUT/adversarial_hip.md"
tasks=hip2hip/elementwise/silu_mul,hip2hip/losses/cross_entropy,hip2hip/softmax/softmax_rows
tasks=$tasks,hip2hip/norms/layernorm,hip2hip/norms/fused_add_rmsnorm
rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
timeout 200 tools/gpu/run_family.sh "$tasks" "$OUT/five" 185 >/dev/null 2>&1
mkdir -p "$OUT/five.x" && tar xzf "$OUT/five.tgz" -C "$OUT/five.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/five.x/log.txt"
grep -E "integrity|checked wrong|A versus A|wall time per" "$OUT/five.x/table.md" | cut -c1-200
grep -o "tampering[^\"]*" "$OUT/five.x/report.json" | head -5
