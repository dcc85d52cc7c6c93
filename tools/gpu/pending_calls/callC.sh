#!/usr/bin/env bash
# callB cut to fit 200 s: gelu_tanh (the largest outputs of call V, whose
# late windows and trials' references took 20 and 25 s there) and
# square_fp32, the references written where they are read.
RUNS="w=torch2hip/activations/gelu_tanh,torch2hip/matmul/square_fp32=200" exec bash tools/gpu/call_runs.sh
