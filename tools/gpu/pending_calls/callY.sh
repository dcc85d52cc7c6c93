#!/usr/bin/env bash
# callX cut to what 300 s hold: one task of each HIP family.
RUNS="v=torch2hip/softmax/softmax_lastdim=150 a=hip2hip/softmax/softmax_rows=80" exec bash "$(dirname "$0")/call.sh"
