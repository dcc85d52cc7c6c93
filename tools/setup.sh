#!/usr/bin/env bash
# Installs everything the arena needs on a Debian 12 machine. Idempotent: a
# second run changes nothing and finishes in seconds.
#
#   tools/setup.sh            # system packages + the project's Python env
#   ARENA_SKIP_PYTHON=1 ...   # system packages only
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { printf '[setup] %s\n' "$*"; }

sudo_cmd=""
if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi

debian_packages=(
  bazel-bootstrap            # Bazel 4.2.3, the only Bazel usable offline
  bazel-platforms            # @platforms, which Bazel 4 cannot download here
  g++ python3 python3-venv
  libyaml-cpp-dev            # task.yaml
  libboost1.81-dev           # Boost.Process, Asio
  libboost-filesystem1.81-dev
  libgtest-dev libgmock-dev  # unit tests
  libbenchmark-dev           # benchmarks
  libsqlite3-dev sqlite3     # the results store
  nlohmann-json3-dev         # JSON
  libcli11-dev               # the arena command line
  bubblewrap                 # the agents' sandbox
  libssl-dev                 # TLS for OpenAI-compatible endpoints
  hipcc libamdhip64-dev      # HIP for AMD (compile-only checks of hip2hip's HIP layer)
  slurm-wlm munge            # Slurm: the scheduler's end-to-end test runs a one-node cluster
)

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  say "Debian packages: all present"
fi

if [ -x /usr/local/cuda/bin/nvcc ]; then
  say "CUDA toolkit: $(/usr/local/cuda/bin/nvcc --version | tail -1)"
else
  say "CUDA toolkit NOT found at /usr/local/cuda: it is not on Debian's or PyPI's"
  say "registries; install it from NVIDIA. The CUDA targets will not build without it."
fi

# The project's Python environment: torch, triton, numpy, pyyaml.
python_bin="${ARENA_SETUP_PYTHON:-python3}"
if [ "${ARENA_SKIP_PYTHON:-0}" != 1 ]; then
  if [ ! -x .venv/bin/python ]; then
    say "creating .venv with $($python_bin --version)"
    "$python_bin" -m venv .venv
  fi
  if ! .venv/bin/python -c 'import torch, triton, numpy, yaml' 2>/dev/null; then
    say "installing torch, triton, numpy, pyyaml into .venv (large download)"
    # No pip cache: torch and its CUDA libraries are about 5 GB installed,
    # and a cached copy of their wheels would need about 3 GB more.
    .venv/bin/python -m pip install -q --no-cache-dir --upgrade pip
    if ! .venv/bin/python -m pip install -q --no-cache-dir torch triton numpy pyyaml; then
      say "pip could not install torch, triton, numpy, pyyaml; they need about"
      say "6 GB free; $(df -h --output=avail . | tail -1 | tr -d ' ') is free here"
      exit 1
    fi
  fi
  say "python: $(.venv/bin/python -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)')"
fi

# Two agent CLIs that PyPI ships, for the test that runs real CLIs in the
# sandbox through the endpoint forwarder (agents/cli:real_cli_test): each in
# a virtual environment of its own (their pins differ), linked from
# .venv-agents/bin. About 0.7 GB each, a minute or two. ARENA_SKIP_AGENTS=1
# leaves them out (that test then says it skipped).
agents_bin=""
if [ "${ARENA_SKIP_AGENTS:-0}" != 1 ] && [ "${ARENA_SKIP_PYTHON:-0}" != 1 ]; then
  mkdir -p .venv-agents/bin
  for spec in "mini:mini-swe-agent==2.4.6" "aider:aider-chat==0.86.2"; do
    exe="${spec%%:*}" pkg="${spec#*:}"
    env_dir=".venv-agents/$exe"
    if [ ! -x "$env_dir/bin/$exe" ]; then
      say "installing $pkg into $env_dir"
      "$python_bin" -m venv "$env_dir"
      "$env_dir/bin/python" -m pip install -q --no-cache-dir "$pkg"
    fi
    ln -sf "$root/$env_dir/bin/$exe" ".venv-agents/bin/$exe"
  done
  agents_bin="$root/.venv-agents/bin"
  say "agent CLIs: $(ls .venv-agents/bin | tr '\n' ' ')"
fi

# Bazel finds the project's interpreter through ARENA_PYTHON: actions and
# tests read it, and the Python toolchain (@arena_python, which py_binary and
# py_test run with) is generated from it.
py_abs="python3"
[ -x "$root/.venv/bin/python" ] && py_abs="$root/.venv/bin/python"
cat > .bazelrc.user <<RC
# Written by tools/setup.sh for this checkout; not committed.
build --action_env=ARENA_PYTHON=$py_abs
build --repo_env=ARENA_PYTHON=$py_abs
test --test_env=ARENA_PYTHON=$py_abs
RC
if [ -n "$agents_bin" ]; then echo "test --test_env=ARENA_AGENT_BIN=$agents_bin" >> .bazelrc.user; fi
say "wrote .bazelrc.user (ARENA_PYTHON=$py_abs)"
say "done"
