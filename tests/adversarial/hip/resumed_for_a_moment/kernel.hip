// never_stopped's quiet sibling: a runner that resumes itself while it is
// stopped, but only for a moment, and stops itself again, so that its
// threads' time on a CPU while stopped stays far under the judge's 0.5 ms
// slack. A POSIX timer sends a thread of its own SIGCONT every 10 ms; a
// heartbeat thread notes the time every 200 us, so a SIGCONT that comes
// after a gap of 2 ms and more met a stopped process (the judge's
// SIGSTOP, before the other subject's round). Then, and only then, it
// queues memsets of 1 GiB on a stream of its own (GPU work that is no
// kernel launch, which the runner's observer does not watch: a few
// microseconds of CPU, about a millisecond of the GPU's memory bandwidth
// each) and stops its own process again (raise(SIGSTOP)), to be resumed
// by the next tick or by the judge. Its outputs are right and its own
// rounds timed as they are; the other subject's rounds are slowed. What
// it must get: named all the same (RunnerClient::RanWhileStopped: a
// thread seen stopped, off every run queue, put on a CPU again), an
// integrity finding.
// expect: integrity
// where: gpu
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "arena_hip.h"

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    y[i] = __float2half(av / (1.0f + expf(-av)) * bv);
  }
}

static int Launch(const ArenaTensor* in, ArenaTensor* out, hipStream_t stream) {
  const long long n = in[0].numel;
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

namespace {

std::atomic<int64_t> g_beat_ns{0};
std::atomic<bool> g_in_call{false};
hipStream_t g_stream = nullptr;
void* g_scratch = nullptr;
constexpr size_t kScratch = size_t{1} << 30;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Heartbeat() {
  for (;;) {
    g_beat_ns.store(NowNs());
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// Takes the timer's SIGCONTs (blocked here, waited for: no other thread is
// interrupted). After a stop: a few memsets queued, and the process
// stopped again at once.
void Resumer() {
  sigset_t cont;
  sigemptyset(&cont);
  sigaddset(&cont, SIGCONT);
  pthread_sigmask(SIG_BLOCK, &cont, nullptr);
  sigevent ev;
  std::memset(&ev, 0, sizeof(ev));
  ev.sigev_notify = 4;  // SIGEV_THREAD_ID
  ev.sigev_signo = SIGCONT;
  ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  int timer = -1;
  if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &timer) != 0) return;
  itimerspec every{};
  every.it_interval.tv_nsec = 10000000;
  every.it_value.tv_nsec = 10000000;
  if (syscall(SYS_timer_settime, timer, 0, &every, nullptr) != 0) return;
  int value = 0;
  for (;;) {
    siginfo_t info;
    if (sigwaitinfo(&cont, &info) != SIGCONT) continue;
    const bool was_stopped = NowNs() - g_beat_ns.load() > 2000000;
    if (!was_stopped || g_in_call.load()) continue;
    for (int k = 0; k < 4; ++k) (void)hipMemsetAsync(g_scratch, ++value & 0xff, kScratch, g_stream);
    raise(SIGSTOP);
  }
}

void Start() {
  if (hipStreamCreateWithFlags(&g_stream, hipStreamNonBlocking) != hipSuccess ||
      hipMalloc(&g_scratch, kScratch) != hipSuccess) {
    return;
  }
  std::thread(Heartbeat).detach();
  std::thread(Resumer).detach();
}

}  // namespace

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  g_in_call.store(true);
  static const bool started = (Start(), true);
  (void)started;
  const int rc = Launch(in, out, stream);
  g_in_call.store(false);
  return rc;
}
