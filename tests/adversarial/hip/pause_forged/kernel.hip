// Takes its work off the judge's clock through witnesses it asks for
// itself. The runner's channel to the judge is its descriptor 0, pinned
// against being closed or replaced, not against being written to or read:
// from inside arena_run the subject writes a frame {"pause": 0} there, as
// the runner does when it draws a witness after a call, and reads the
// judge's {"op": "resume"} back before the runner ever sees it. The judge
// (RunnerClient::Request) takes any number of pauses inside a "call"
// request of several sets, witnesses each one (copies set 0's outputs,
// reads and poisons again the later sets at a secret place) and takes the
// time it spent doing so off the subject's round (witness_us, timing.cc).
// So: captures are refused (every round is eager calls); a round's first
// call computes its own set, then every later set into memory of its own
// in one launch, and while that runs it asks for witness after witness of
// call 0, each true (set 0 is written, the later sets still hold their
// poison) and each one's time taken off the clock, until the batch is
// done. Each later call copies its set from that memory into its outputs,
// so that every call has done its own set's work when it returns and the
// runner's own witnesses pass too. Every output is right; what the clock
// sees of the round is set 0, the copies and the frames' round trips (its
// gain is the batched compute, bounded for this memory-bound kernel by
// what a copy costs against the compute; the whole of it for a kernel
// bound by its arithmetic). Now no witness's time is taken off a round
// (a round with a pause is not timed, and rounds go on until each subject
// has its timed ones), and a pause must follow a call of the request's,
// each call's once and in order: its second pause at call 0 breaks the
// protocol, as does a pause in a check's request of one set: "integrity:
// candidate: broke the protocol: a witness out of place" (on an H100,
// docs/results/stop-pause-toolchain-h100-2026-12-06).
// expect: integrity
// where: gpu
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <sys/socket.h>
#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "arena_hip.h"

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    y[i] = __float2half(av / (1.0f + expf(-av)) * bv);
  }
}

// Sets 1..sets-1 of a round (set_elements apart in the judge's layout),
// packed into `y` (n apart).
__global__ void silu_mul_later(const __half* a, const __half* b, __half* y, long long n, long long later,
                               long long set_elements) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n * later) return;
  const long long set = i / n + 1, e = i % n;
  const long long at = set * set_elements + e;
  const float av = __half2float(a[at]);
  y[i] = __float2half(av / (1.0f + expf(-av)) * __half2float(b[at]));
}

__global__ void copy_set(const __half* from, __half* to, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) to[i] = from[i];
}

static unsigned Blocks(long long n) { return static_cast<unsigned>((n + 255) / 256); }

// One frame on the runner's channel: a 4-byte little-endian length, then
// JSON.
static bool SendFrame(const std::string& text) {
  std::string frame(4, '\0');
  const auto n = static_cast<uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) frame[static_cast<size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xff);
  frame += text;
  size_t sent = 0;
  while (sent < frame.size()) {
    const ssize_t w = send(0, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
    if (w <= 0) return false;
    sent += static_cast<size_t>(w);
  }
  return true;
}

static bool ReceiveFrame(std::string* text) {
  unsigned char head[4];
  if (recv(0, head, 4, MSG_WAITALL) != 4) return false;
  const uint32_t n = head[0] | (head[1] << 8) | (head[2] << 16) | (static_cast<uint32_t>(head[3]) << 24);
  if (n > (1u << 20)) return false;
  text->assign(n, '\0');
  return n == 0 || recv(0, &(*text)[0], n, MSG_WAITALL) == static_cast<ssize_t>(n);
}

// A witness of call `k` asked for, as the runner asks: the judge answers
// "resume" once it has taken it.
static bool Pause(long long k) {
  char body[64];
  std::snprintf(body, sizeof(body), "{\"pause\":%lld}", k);
  std::string answer;
  return SendFrame(body) && ReceiveFrame(&answer) && answer.find("resume") != std::string::npos;
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static uintptr_t last_a = 0, first_a = 0;
  static long long call = 0, round_sets = 0;  // in the round
  static __half* mine = nullptr;              // the later sets' outputs, computed ahead
  static size_t mine_bytes = 0;
  static hipEvent_t first_done = nullptr, later_done = nullptr;
  hipStreamCaptureStatus capture = hipStreamCaptureStatusNone;
  if (hipStreamIsCapturing(stream, &capture) == hipSuccess && capture != hipStreamCaptureStatusNone) return 3;
  const long long n = in[0].numel;
  const auto* a = static_cast<const __half*>(in[0].data);
  const auto* b = static_cast<const __half*>(in[1].data);
  auto* y = static_cast<__half*>(out[0].data);
  const auto at = reinterpret_cast<uintptr_t>(in[0].data);
  const uintptr_t stride = (static_cast<uintptr_t>(n) * 2 + 255) / 256 * 256;
  const uintptr_t b_at = reinterpret_cast<uintptr_t>(in[1].data);
  const long long sets = b_at > at && (b_at - at) % stride == 0 ? static_cast<long long>((b_at - at) / stride) : 1;
  call = at == last_a + stride ? call + 1 : 0;
  last_a = at;
  auto honest = [&] {
    hipLaunchKernelGGL(silu_mul_kernel, dim3(Blocks(n)), dim3(256), 0, stream, a, b, y, n);
    return hipGetLastError() == hipSuccess ? 0 : 1;
  };
  if (sets < 2 || sets > 65536 || call >= sets || n < 1) return honest();
  if (call > 0) {
    // Its set, computed by the round's first call: copied into its outputs.
    if (round_sets != sets || at != first_a + static_cast<uintptr_t>(call) * stride) return honest();
    hipLaunchKernelGGL(copy_set, dim3(Blocks(n)), dim3(256), 0, stream, mine + (call - 1) * n, y, n);
    return hipGetLastError() == hipSuccess ? 0 : 1;
  }
  // The round's first call.
  round_sets = 0;
  first_a = at;
  const size_t need = static_cast<size_t>(sets - 1) * static_cast<size_t>(n) * sizeof(__half);
  if (mine_bytes < need) {
    if (mine != nullptr) (void)hipFree(mine);
    mine = nullptr;
    mine_bytes = 0;
    if (hipMalloc(reinterpret_cast<void**>(&mine), need) != hipSuccess) return honest();
    mine_bytes = need;
  }
  if (first_done == nullptr && (hipEventCreateWithFlags(&first_done, hipEventDisableTiming) != hipSuccess ||
                                hipEventCreateWithFlags(&later_done, hipEventDisableTiming) != hipSuccess)) {
    return honest();
  }
  if (honest() != 0) return 1;
  (void)hipEventRecord(first_done, stream);
  const long long later = sets - 1;
  hipLaunchKernelGGL(silu_mul_later, dim3(Blocks(n * later)), dim3(256), 0, stream, a, b, mine, n, later,
                     static_cast<long long>(stride / 2));
  if (hipGetLastError() != hipSuccess) return 1;
  (void)hipEventRecord(later_done, stream);
  round_sets = sets;
  // Set 0 written, the later sets' outputs untouched: witnesses of call 0
  // hold, and the batch runs while the judge takes them.
  if (hipEventSynchronize(first_done) != hipSuccess) return 1;
  for (int k = 0; k < 4096 && hipEventQuery(later_done) == hipErrorNotReady; ++k) {
    if (!Pause(0)) return 7;
  }
  return 0;
}
