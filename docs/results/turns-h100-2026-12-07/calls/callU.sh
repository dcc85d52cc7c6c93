#!/usr/bin/env bash
# With the lent pieces in the Thue-Morse turns, call Q's six HIP tasks twice
# (a, b) and call S's four Triton tasks (t): do the per-configuration A
# versus A offsets of 10 us and more go? HIP's polled rounds, and both
# families' graphs captured at once, run here first too.
RUNS="a=hip2hip/topk/topk_rows,hip2hip/transpose/transpose_2d,hip2hip/softmax/softmax_rows,hip2hip/scan/segmented_sum,hip2hip/softmax/log_softmax_rows,hip2hip/losses/cross_entropy=180 b=hip2hip/topk/topk_rows,hip2hip/transpose/transpose_2d,hip2hip/softmax/softmax_rows,hip2hip/scan/segmented_sum,hip2hip/softmax/log_softmax_rows,hip2hip/losses/cross_entropy=180 t=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu,triton2triton/attention/attention_decode,triton2triton/conv/conv1d=120" exec bash tools/gpu/call_runs.sh
