#!/usr/bin/env bash
# Compiles each HIP test source for one platform, separately, and reports
# "PASS compile-<platform> <source>" or "FAIL ..." with the compiler's output.
#
#   compile_test.sh nvidia SOURCE...  nvcc for sm_90 through hip_on_cuda's
#                                     headers (all warnings are errors), for
#                                     .hip and .cu sources; .cc sources go to
#                                     the host compiler (host API only)
#   compile_test.sh amd SOURCE...     Debian's hipcc for gfx90a through
#                                     ROCm's own HIP headers
#
# Runs as a Bazel sh_test (from the runfiles tree) or by hand from the
# repository root.
set -uo pipefail

platform="${1:?usage: compile_test.sh nvidia|amd SOURCE...}"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
include="$here/../include"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export TMPDIR="$tmp"
export HOME="$tmp"  # compilers that keep caches under $HOME get a writable one

case "$platform" in
  nvidia)
    nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
    if [ ! -x "$nvcc" ]; then
      echo "FAIL: nvcc not found at $nvcc; install the CUDA toolkit at /usr/local/cuda (or set NVCC)"
      exit 1
    fi
    cxx="${CXX_FOR_HOST_CHECK:-$(command -v g++ || echo /usr/bin/g++)}"
    cuda_include="$(dirname "$nvcc")/../include"
    ;;
  amd)
    hipcc="${HIPCC:-$(command -v hipcc || true)}"
    [ -z "$hipcc" ] && [ -x /usr/bin/hipcc ] && hipcc=/usr/bin/hipcc
    if [ -z "$hipcc" ] || [ ! -x "$hipcc" ]; then
      echo "FAIL: hipcc not found: run tools/setup.sh, which installs Debian's hipcc and libamdhip64-dev"
      exit 1
    fi
    ;;
  *)
    echo "FAIL: unknown platform '$platform' (nvidia or amd)"
    exit 2
    ;;
esac

passed=0
failed=0
for src in "$@"; do
  base="$(basename "$src")"
  obj="$tmp/${platform}_${base}.o"
  case "$platform:$base" in
    nvidia:*.cc)
      what="compile-host"
      cmd=("$cxx" -std=c++17 -Wall -Wextra -Werror -I"$include" -I"$cuda_include" -c "$src" -o "$obj")
      ;;
    nvidia:*)
      what="compile-nvidia"
      cmd=("$nvcc" -x cu -std=c++17 -arch=sm_90 -I"$include" -Werror all-warnings -c "$src" -o "$obj")
      ;;
    amd:*)
      what="compile-amd"
      cmd=("$hipcc" --offload-arch=gfx90a -std=c++17 -c "$src" -o "$obj")
      ;;
  esac
  if out="$("${cmd[@]}" 2>&1)"; then
    echo "PASS $what $base"
    passed=$((passed + 1))
  else
    echo "FAIL $what $base"
    echo "  command: ${cmd[*]}"
    printf '%s\n' "$out" | sed 's/^/  | /'
    failed=$((failed + 1))
  fi
done

if [ $((passed + failed)) -eq 0 ]; then
  echo "FAIL: no sources given"
  exit 1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
