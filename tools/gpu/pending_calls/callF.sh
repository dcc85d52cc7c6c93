#!/usr/bin/env bash
# The six PyTorch-to-HIP tasks of call A (reference-phases-h100-2026-12-08,
# median 53.7 s a task) with every change since: torch.compile per
# configuration for its own shapes and its one-time costs paid while the
# task is checked, the judge reading float64 references straight into their
# values, the reference worker writing a trial's files while the next is
# computed. No finding or wrong check on the shipped HIP; the phases' cost.
RUNS="f=torch2hip/losses/mse_loss,torch2hip/norms/layernorm_fp16,torch2hip/reductions/prod_dim1,torch2hip/softmax/softmax_lastdim,torch2hip/activations/gelu_tanh,torch2hip/matmul/square_fp32=480" exec bash tools/gpu/call_runs.sh
