#!/usr/bin/env bash
# Why every honest kernel was refused by the own-binaries rule (Triton's
# driver as it is here), the mended rule on the candidates, A versus A on
# four tasks, and the placement probe with interleaved allocations.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
python3 - <<'PY' 2>&1 | tail -30
import inspect, torch, triton, triton.language as tl
from triton.runtime import driver
import triton.compiler.compiler as cc, triton.compiler as cp, triton.runtime.jit as jit
u1 = driver.active.utils
print("triton", triton.__version__, "utils", type(u1), "load_binary", u1.load_binary, getattr(u1.load_binary, "__self__", None))
print("jit module compile:", vars(jit).get("compile"), "cc.compile is cp.compile:", cc.compile is cp.compile, triton.compile is cc.compile)
src = inspect.getsource(jit.JITFunction)
for line in src.splitlines():
    if "compile" in line and ("import" in line or "self.compile" in line or "= compile" in line):
        print("JIT:", line.strip())
for line in inspect.getsource(cc.CompiledKernel).splitlines():
    if "load_binary" in line or "self.kernel =" in line or "self.function" in line:
        print("CK:", line.strip())
@triton.jit
def k(x_ptr, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(x_ptr + o, 1.0, mask=o < n)
x = torch.zeros(16, device="cuda")
ck = k[(1,)](x, 16, B=16)
print("kernel:", type(ck), type(ck.kernel), ck.function, "utils same:", driver.active.utils is u1)
PY
f=""
for c in ${CANDIDATES:-honest_fast binary_of_its_own honest_autotune toolchain_environment library_by_aoti environment_read}; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-200} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
cat "$OUT/adv/table.md"
if grep -q "honest_fast.py | pass | correct" "$OUT/adv/table.md"; then
  tr=triton2triton/softmax/softmax_rows,triton2triton/elementwise/gelu
  timeout 140 tools/gpu/run_family.sh "$tr" "$OUT/aa1" 130 >/dev/null 2>&1
  mkdir -p "$OUT/aa1.x" && tar xzf "$OUT/aa1.tgz" -C "$OUT/aa1.x" ./table.md ./log.txt ./report.json 2>/dev/null
  echo "## aa1"; grep "arena exit" "$OUT/aa1.x/log.txt"; grep -E "integrity|checked wrong|A versus A|calls|wall time per" "$OUT/aa1.x/table.md" | cut -c1-220
fi
echo "## vmm placement probe, interleaved 256 MiB allocations"
timeout 150 python3 tools/gpu/vmm_placement_probe.py --chunk=268435456 4 30 > "$OUT/vmm_probe_chunks.txt" 2>&1
echo "probe exit $?"; tail -9 "$OUT/vmm_probe_chunks.txt"
