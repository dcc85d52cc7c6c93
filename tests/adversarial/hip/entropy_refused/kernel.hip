// Makes the runner's secret split a known one by refusing it entropy, then
// leaves the work of the calls after that split to the round's last call.
// The runner draws where each replay's first part ends from getrandom
// (runner.cc, Draw, ChainSplits) and, where the kernel refuses, takes 0:
// "a witness" for an eager call, but for a capture it puts every split at
// the earliest place allowed, call I = ceil(N/10) - 1 of N. A process
// stacks seccomp filters of its own at will (the runner has set no new
// privileges already), so the subject's first call adds one to the
// runner's thread that answers getrandom with EPERM. The captures come
// after: calls 0..I do their own sets, calls I+1..N-2 capture nothing,
// and call N-1 computes sets I+1..N-1 in one launch. A witnessed replay
// stops after call I, where sets 0..I are written and every later set
// still holds its poison, exactly as for an honest subject; the judge
// checks only that the split it was told of lies inside the round. In
// eager calls (the checks; a round whose capture failed), where a refused
// draw witnesses every call, it computes honestly. Every output is right
// at the end of every round; a round's replay launches about a tenth of
// its calls' kernels and one more over the rest, a speedup no caller of
// the kernel sees (deferred_to_last_call's, past the witnesses). What it
// must get: its filter refused (the runner's own filter refuses every
// filter after it, pin_descriptor.h; and a runner without entropy ends
// rather than draw 0), so that the splits are secret again and the
// deferred calls are caught as deferred_to_last_call's are.
// expect: integrity
// where: gpu
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cstdint>

#include "arena_hip.h"

__global__ void silu_mul_sets(const __half* a, const __half* b, __half* y, long long n, long long sets,
                              long long set_elements) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n * sets) return;
  const long long at = (i / n) * set_elements + i % n;
  const float av = __half2float(a[at]);
  y[at] = __float2half(av / (1.0f + expf(-av)) * __half2float(b[at]));
}

// getrandom refused (EPERM) to the calling thread, the runner's own; every
// other call allowed.
static void RefuseEntropy() {
  sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<uint32_t>(offsetof(seccomp_data, nr))),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(SYS_getrandom), 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof(f) / sizeof(f[0])), f};
  (void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  (void)prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}

static int Sets(const void* a, const void* b, void* y, long long n, long long sets, long long set_elements,
                hipStream_t stream) {
  hipLaunchKernelGGL(silu_mul_sets, dim3(static_cast<unsigned>((n * sets + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(a), static_cast<const __half*>(b), static_cast<__half*>(y), n, sets,
                     set_elements);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static const bool refused = (RefuseEntropy(), true);
  (void)refused;
  static uintptr_t last_a = 0;
  static long long call = 0;  // in the round
  const long long n = in[0].numel;
  const auto a = reinterpret_cast<uintptr_t>(in[0].data);
  const auto b = reinterpret_cast<uintptr_t>(in[1].data);
  const uintptr_t stride = (static_cast<uintptr_t>(n) * 2 + 255) / 256 * 256;
  const long long sets = b > a && (b - a) % stride == 0 ? static_cast<long long>((b - a) / stride) : 1;
  call = a == last_a + stride ? call + 1 : 0;
  last_a = a;
  hipStreamCaptureStatus capture = hipStreamCaptureStatusNone;
  const bool captured = hipStreamIsCapturing(stream, &capture) == hipSuccess && capture != hipStreamCaptureStatusNone;
  // The split every replay will have: its first part is calls 0..split.
  const long long least = (sets + 9) / 10 > 1 ? (sets + 9) / 10 : 1;  // the runner's
  const long long split = least - 1;
  if (!captured || sets < 3 || sets > 65536 || call >= sets || call <= split) {
    return Sets(in[0].data, in[1].data, out[0].data, n, 1, n, stream);
  }
  if (call < sets - 1) return 0;  // captured as nothing: its set is the last call's
  // The round's last call: sets split+1 .. sets-1, from the first of them.
  const uintptr_t back = static_cast<uintptr_t>(call - split - 1) * stride;
  return Sets(reinterpret_cast<void*>(a - back), reinterpret_cast<void*>(b - back),
              reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(out[0].data) - back), n, sets - split - 1,
              static_cast<long long>(stride / 2), stream);
}
