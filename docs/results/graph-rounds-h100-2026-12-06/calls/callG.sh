#!/usr/bin/env bash
# Commit 9ab04cc's lent pieces on the GPU: the candidates that work on the
# lent sets, honest controls; the graph-chain probe; A versus A on 4 tasks.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
timeout 150 python3 tools/gpu/graph_chain_probe.py 30 4096:4096 1048576:553 > "$OUT/graph_chain_probe.txt" 2>&1
echo "probe exit $?"; tail -9 "$OUT/graph_chain_probe.txt"
f=""
for c in honest_fast honest_autotune ahead_of_its_call skip_some_sets cache_by_address inputs_modified_when_timed deferred_to_last_call; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout 200 tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"; tail -12 "$OUT/adv/table.md" | cut -c1-260
rm -f runs/arena.db* /tmp/arena-gpu-state/arena.db*
tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d
timeout 230 tools/gpu/run_family.sh "$tr" "$OUT/aa" 220 >/dev/null 2>&1
mkdir -p "$OUT/aa.x" && tar xzf "$OUT/aa.tgz" -C "$OUT/aa.x" ./table.md ./log.txt ./report.json 2>/dev/null
grep "arena exit" "$OUT/aa.x/log.txt"; grep -E "integrity|checked wrong|A versus A|calls|wall time per" "$OUT/aa.x/table.md" | cut -c1-220
