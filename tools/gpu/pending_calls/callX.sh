#!/usr/bin/env bash
# callW cut to what 420 s hold (no Triton).
RUNS="v=torch2hip/losses/mse_loss,torch2hip/softmax/softmax_lastdim,torch2hip/activations/gelu_tanh=200 a=hip2hip/topk/topk_rows,hip2hip/transpose/transpose_2d,hip2hip/softmax/softmax_rows,hip2hip/scan/segmented_sum,hip2hip/softmax/log_softmax_rows,hip2hip/losses/cross_entropy=165" exec bash "$(dirname "$0")/call.sh"
