#!/usr/bin/env bash
# The six PyTorch-to-HIP tasks of call V, with the late windows' references
# written at the places read alone and the verified trials' references at
# 16 phases: what the timing's phases take now, and no finding on the
# shipped HIP.
RUNS="w=torch2hip/losses/mse_loss,torch2hip/norms/layernorm_fp16,torch2hip/reductions/prod_dim1,torch2hip/softmax/softmax_lastdim,torch2hip/activations/gelu_tanh,torch2hip/matmul/square_fp32=540" exec bash tools/gpu/call_runs.sh
