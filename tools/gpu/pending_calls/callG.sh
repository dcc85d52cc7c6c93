#!/usr/bin/env bash
# callE cut to 250 s: gelu_tanh through the arena (torch.compile per
# configuration and warmed while checked, the judge's direct reads, the
# worker's threaded writes; against reference-phases-h100-2026-12-08/w:
# 71.6 s, torch.compile 17.7 s), then the torch.compile bench on gelu_tanh
# for what time is left (now, then before).
RUNS="g=torch2hip/activations/gelu_tanh=110" bash tools/gpu/call_runs.sh
mkdir -p "$OUT/tc"
timeout 120 python3 tools/gpu/torch_compile_cost.py run torch_compile_tasks.json "$OUT/tc" \
  torch2hip/activations/gelu_tanh 2>&1 | tee "$OUT/tc.log" | tail -20
