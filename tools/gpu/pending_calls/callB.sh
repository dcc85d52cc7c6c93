#!/usr/bin/env bash
# callA cut to fit 330 s: four of its PyTorch-to-HIP tasks (gelu_tanh's
# large outputs first), the references written where they are read.
RUNS="w=torch2hip/activations/gelu_tanh,torch2hip/matmul/square_fp32,torch2hip/norms/layernorm_fp16,torch2hip/reductions/prod_dim1=330" exec bash tools/gpu/call_runs.sh
