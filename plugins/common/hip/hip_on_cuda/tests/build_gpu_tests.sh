#!/usr/bin/env bash
# Builds the hip_on_cuda run-level tests as NVIDIA executables, one per
# source, linked with the static CUDA runtime (module_rtc also with NVRTC):
#
#   build_gpu_tests.sh OUTDIR [SOURCE...]     default: every tests/*.hip
#
# Then run them on a GPU machine with run_gpu_tests.sh OUTDIR. Needs only
# nvcc (the CUDA toolkit) and this folder: carry plugins/common/hip/hip_on_cuda.
#
#   NVCC=path          nvcc to use (default: /usr/local/cuda/bin/nvcc, else PATH)
#   HIP_ON_CUDA_ARCH   target architecture (default sm_90, the H200)
set -euo pipefail

out="${1:?usage: build_gpu_tests.sh OUTDIR [SOURCE...]}"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
include="$here/../include"
arch="${HIP_ON_CUDA_ARCH:-sm_90}"

nvcc="${NVCC:-}"
if [ -z "$nvcc" ]; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; else nvcc="$(command -v nvcc || true)"; fi
fi
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  echo "build_gpu_tests: nvcc not found (set NVCC or install the CUDA toolkit)" >&2
  exit 1
fi
cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"

if [ "$#" -eq 0 ]; then
  set -- "$here"/*.hip
fi
mkdir -p "$out"
export TMPDIR="${TEST_TMPDIR:-${TMPDIR:-/tmp}}"

for src in "$@"; do
  name="$(basename "$src" .hip)"
  libs=()
  if grep -q 'hip/hiprtc.h' "$src"; then
    # NVRTC exists only as a shared library; find it where nvcc's toolkit is.
    libs=(-lnvrtc -Xlinker "-rpath=$cuda_root/lib64" -Xlinker "-rpath=$cuda_root/targets/x86_64-linux/lib")
  fi
  echo "build_gpu_tests: $name ($arch)"
  "$nvcc" -x cu -std=c++17 -arch="$arch" -O2 -I"$include" -cudart static \
    "$src" -o "$out/$name" "${libs[@]}"
done
echo "build_gpu_tests: built $# test program(s) in $out"
