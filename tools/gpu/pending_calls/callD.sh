#!/usr/bin/env bash
# callC cut to fit 150 s: gelu_tanh alone (the largest outputs of call V,
# whose late windows and trials' references took 20 and 25 s there).
RUNS="w=torch2hip/activations/gelu_tanh=150" exec bash tools/gpu/call_runs.sh
