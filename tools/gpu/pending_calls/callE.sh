#!/usr/bin/env bash
# torch.compile in the PyTorch-to-HIP reference worker: the first
# configuration's compile (a fresh process), the later ones', and the
# compiled module's time, as the worker does it now (each configuration
# compiled for its own shapes) and as before (dynamic sizes after the first),
# with the compile in the process, and on warm caches
# (tools/gpu/torch_compile_cost.py).
mkdir -p "$OUT/tc"
timeout 480 python3 tools/gpu/torch_compile_cost.py run torch_compile_tasks.json "$OUT/tc" \
  torch2hip/activations/gelu_tanh torch2hip/norms/layernorm_fp16 2>&1 | tee "$OUT/tc.log" | tail -60
