#!/usr/bin/env bash
# Six PyTorch-to-HIP tasks (torch.compile timed too): the timing's phases,
# the reference worker started ahead, the candidate held while PyTorch is
# timed and the decoys of its rounds timed alone, on a GPU first.
RUNS="v=torch2hip/losses/mse_loss,torch2hip/norms/layernorm_fp16,torch2hip/reductions/prod_dim1,torch2hip/softmax/softmax_lastdim,torch2hip/activations/gelu_tanh,torch2hip/matmul/square_fp32=420" exec bash tools/gpu/call_runs.sh
