#!/usr/bin/env bash
# callU and callV cut to one call: the HIP tasks once, the Triton tasks,
# three PyTorch-to-HIP tasks.
RUNS="a=hip2hip/topk/topk_rows,hip2hip/transpose/transpose_2d,hip2hip/softmax/softmax_rows,hip2hip/scan/segmented_sum,hip2hip/softmax/log_softmax_rows,hip2hip/losses/cross_entropy=170 t=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d=110 v=torch2hip/losses/mse_loss,torch2hip/softmax/softmax_lastdim,torch2hip/activations/gelu_tanh=230" exec bash "$(dirname "$0")/call.sh"
