#!/usr/bin/env bash
# The checks a change to the judges' rounds needs on a GPU, in three calls
# of under ten minutes each, from inside the bundle (tools/gpu/make_bundle.sh):
#
#   tools/gpu/recheck.sh 1 OUT_DIR   # round draws probe, Triton adversarial suite
#   tools/gpu/recheck.sh 2 OUT_DIR   # HIP adversarial subset, Triton noop run
#   tools/gpu/recheck.sh 3 OUT_DIR   # HIP noop run, HIP witnessed-call candidates
#
# Part 1: tools/gpu/probes/round_draws.py on three Triton tasks whose
# inputs come from an inputs function (every replayed round fresh, seeded,
# alike in distribution to called ones, and its time against calls), then
# every adversarial Triton candidate on gelu (tools/gpu/adversarial.sh).
# Part 2: the HIP candidates honest, sloppy_when_timed, skip_some_sets,
# launch_between_requests and slow_the_baseline
# (tools/gpu/adversarial_hip.sh, about 240 s), then a noop run of six
# Triton tasks (two with inputs functions). Part 3: a noop run of four HIP
# tasks, then the HIP candidates deferred_to_last_call and
# ahead_of_its_call (the witnessed calls). The family tables must say "stages failed with an integrity
# finding: 0" (no honest subject is wrong when timed, no false finding)
# and "launches observed in the checks by: cupti N".
# Each part leaves OUT_DIR.tgz, prints its tables last, and keeps within
# its limit (PART_LIMIT_S, default 560 s).
set -uo pipefail
part="${1:?part: 1, 2 or 3}"
out="${2:?output folder}"
limit="${PART_LIMIT_S:-560}"
start=$(date +%s)
left() { echo $(( limit - $(date +%s) + start )); }
mkdir -p "$out"
export ARENA_PYTHON="${ARENA_PYTHON:-python3}" PYTHONUNBUFFERED=1
export ARENA_BWRAP="${ARENA_BWRAP:-$PWD/bin/bwrap}"
date -u +"date: %Y-%m-%dT%H:%M:%SZ" | tee "$out/recheck.md"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$out/recheck.md"
case "$part" in
  1)
    timeout 120 python3 tools/gpu/probes/round_draws.py 256 6 \
      tasks/triton2triton/reductions/argmax_rows tasks/triton2triton/attention/paged_attention_decode \
      tasks/triton2triton/moe/moe_align_block_size >"$out/round_draws.md" 2>"$out/round_draws.log"
    echo "round_draws exit $?" | tee -a "$out/recheck.md"
    timeout $(( $(left) - 15 )) tools/gpu/adversarial.sh "$out/adv_triton" >/dev/null 2>&1
    echo "adversarial.sh exit $?" | tee -a "$out/recheck.md"
    { echo; cat "$out/round_draws.md"; echo; cat "$out/adv_triton/table.md" 2>/dev/null; } |
      tee -a "$out/recheck.md"
    ;;
  2)
    timeout 300 tools/gpu/adversarial_hip.sh "$out/adv_hip" honest sloppy_when_timed skip_some_sets \
      launch_between_requests slow_the_baseline >/dev/null 2>&1
    echo "adversarial_hip.sh exit $?" | tee -a "$out/recheck.md"
    tar xzf "$out/adv_hip.tgz" -C "$out" ./adversarial_hip.md 2>/dev/null
    tr=triton2triton/elementwise/gelu,triton2triton/reductions/argmax_rows
    tr=$tr,triton2triton/attention/paged_attention_decode,triton2triton/softmax/softmax_rows
    tr=$tr,triton2triton/norms/fused_add_rmsnorm,triton2triton/conv/conv1d
    tools/gpu/run_family.sh "$tr" "$out/triton" $(( $(left) - 15 )) >/dev/null 2>&1
    families=triton
    ;;
  3)
    hip=hip2hip/elementwise/silu_mul,hip2hip/elementwise/gelu_bias,hip2hip/softmax/log_softmax_rows
    hip=$hip,hip2hip/elementwise/bias_relu_dropout_free
    tools/gpu/run_family.sh "$hip" "$out/hip" $(( $(left) - 130 )) >/dev/null 2>&1
    timeout $(( $(left) - 15 )) tools/gpu/adversarial_hip.sh "$out/adv_hip" deferred_to_last_call \
      ahead_of_its_call >/dev/null 2>&1
    echo "adversarial_hip.sh exit $?" | tee -a "$out/recheck.md"
    tar xzf "$out/adv_hip.tgz" -C "$out" ./adversarial_hip.md 2>/dev/null
    families=hip
    ;;
  *) echo "part must be 1, 2 or 3" >&2; exit 2 ;;
esac
for f in ${families:-}; do
  mkdir -p "$out/$f.x" && tar xzf "$out/$f.tgz" -C "$out/$f.x" ./table.md ./log.txt 2>/dev/null
done
{
  [ "$part" != 1 ] && { echo; cat "$out/adversarial_hip.md" 2>/dev/null; }
  for f in ${families:-}; do
    echo; echo "## $f"; grep "arena exit" "$out/$f.x/log.txt" 2>/dev/null
    grep -E "^- " "$out/$f.x/table.md" 2>/dev/null
  done
} | tee -a "$out/recheck.md"
tar czf "${out%/}.tgz" -C "$out" . && rm -rf "$out"
