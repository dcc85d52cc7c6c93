#!/usr/bin/env bash
# torch.compile in the PyTorch-to-HIP reference worker: the first
# configuration's compile (a fresh process), the later ones', and the
# compiled module's time, as the worker does it now (each configuration
# compiled for its own shapes) and as before (dynamic sizes after the first),
# with the compile in the process, and on warm caches
# (tools/gpu/torch_compile_cost.py, gelu_tanh); then gelu_tanh and
# layernorm_fp16 through the arena, with the compiler warmed while the task
# is checked (against reference-phases-h100-2026-12-08/w: 71.6 and 59.4 s,
# torch.compile 17.7 and 22.9 s).
mkdir -p "$OUT/tc"
timeout 190 python3 tools/gpu/torch_compile_cost.py run torch_compile_tasks.json "$OUT/tc" \
  torch2hip/activations/gelu_tanh 2>&1 | tee "$OUT/tc.log" | tail -30
RUNS="e=torch2hip/activations/gelu_tanh,torch2hip/norms/layernorm_fp16=150" bash tools/gpu/call_runs.sh
