// Slows the other subject down while it is timed, from a runner that is
// never stopped: a POSIX timer of its own sends a thread of its own
// SIGCONT every 3 ms, and a SIGCONT continues the whole stopped process
// whoever sends it, the kernel's timer included, so the judge's SIGSTOP
// before the other subject's round (RunnerClient::Freeze) holds for 3 ms
// at most (checked on Linux 6.18 without a GPU: stopped, seen stopped
// after 0.2 ms, running again and never stopped after).
// WaitStopped sees its threads stopped, or gives up after 200 ms and says
// nothing, and the stop is never looked at again. While its runner's main
// thread waits on the judge's socket (no request of its own), one thread
// per CPU, each pinned to its CPU, burns the CPU and streams memory, and
// another keeps the GPU busy with memsets on a stream of its own (about
// 200 us on, 300 us off, so that the judge's L2 eviction, which waits for
// an idle GPU, gets through in a gap): GPU work that is no kernel launch
// and no copy to the host, which the runner's observer does not watch.
// Once a request of its own comes (the "prime" before its own round) they
// all stop within tens of microseconds. It refuses to be captured (so
// every round is eager calls, whose host-side launch loop the contention
// slows most) and computes honestly: every output right, its own rounds
// timed as they are, the other subject's rounds (and the empty round
// trips, measured through the other runner while this one is free)
// inflated. What it must get: a runner that ran on a CPU after it was
// stopped named (RunnerClient::RanWhileStopped: its threads' time on a
// CPU, read by the judge before the stop ends, which no signal undoes),
// an integrity finding.
// expect: integrity
// where: gpu
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

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

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Whether to load the machine: the runner's main thread has waited on its
// channel (descriptor 0) for 200 us and more, i.e. no request of this
// runner's own is being served. Set by the watcher, cleared at once by a
// call.
std::atomic<bool> g_load{false};
std::atomic<int64_t> g_active_ns{0};  // when the main thread was last seen busy

// The system call the runner's main thread (its thread id is the process
// id) is blocked in, from /proc; -2 when unknown.
long MainThreadSyscall() {
  static char path[64];
  static bool made = false;
  if (!made) {
    std::snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", static_cast<int>(getpid()));
    made = true;
  }
  FILE* f = std::fopen(path, "r");
  if (f == nullptr) return -2;
  char text[64] = {0};
  const size_t got = std::fread(text, 1, sizeof(text) - 1, f);
  std::fclose(f);
  if (got == 0 || text[0] == 'r') return -2;  // "running"
  return std::strtol(text, nullptr, 10);
}

bool MainThreadWaitsOnChannel() {
  const long nr = MainThreadSyscall();
#ifdef SYS_poll
  if (nr == SYS_poll) return true;
#endif
  return nr == SYS_ppoll || nr == SYS_recvmsg;
}

void Watch() {
  (void)prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);  // its 10 us sleeps as asked
  for (;;) {
    const int64_t now = NowNs();
    pollfd p{0, POLLIN, 0};
    const bool request_waiting = poll(&p, 1, 0) > 0;
    if (request_waiting || !MainThreadWaitsOnChannel()) {
      g_active_ns.store(now);
      g_load.store(false);
    } else if (now - g_active_ns.load() > 200000) {
      g_load.store(true);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(10));
  }
}

void Burn(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  (void)sched_setaffinity(0, sizeof(set), &set);
  const size_t words = (size_t{16} << 20) / sizeof(uint64_t);
  std::vector<uint64_t> buffer(words, 1);
  uint64_t acc = 0;
  size_t at = static_cast<size_t>(cpu) * 4099;
  for (;;) {
    if (!g_load.load(std::memory_order_relaxed)) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    // A few microseconds of streaming and arithmetic, then look again.
    for (int k = 0; k < 4096; ++k) {
      at = (at + 4099) % words;
      acc = acc * 6364136223846793005ull + buffer[at];
      buffer[at] = acc;
    }
  }
}

void LoadGpu() {
  hipStream_t s = nullptr;
  void* scratch = nullptr;
  const size_t bytes = size_t{512} << 20;
  if (hipStreamCreateWithFlags(&s, hipStreamNonBlocking) != hipSuccess || hipMalloc(&scratch, bytes) != hipSuccess) {
    return;
  }
  int value = 0;
  for (;;) {
    if (!g_load.load()) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    (void)hipMemsetAsync(scratch, ++value & 0xff, bytes, s);
    (void)hipStreamSynchronize(s);
    std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
}

// SIGCONT every 3 ms, directed at a thread of its own that keeps it
// blocked and takes it with sigwaitinfo (a signal the process ignores
// would not re-arm the timer on recent kernels; one that is waited for
// does, and no other thread is interrupted). Generating a SIGCONT
// continues the whole stopped process, whichever thread it is for: a
// stop lasts 3 ms at most.
void ContinueEvery3Ms() {
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
  every.it_interval.tv_nsec = 3000000;
  every.it_value.tv_nsec = 3000000;
  if (syscall(SYS_timer_settime, timer, 0, &every, nullptr) != 0) return;
  for (;;) {
    siginfo_t info;
    (void)sigwaitinfo(&cont, &info);
  }
}

void Start() {
  std::thread(ContinueEvery3Ms).detach();
  std::thread(Watch).detach();
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  for (long c = 0; c < (cpus > 0 ? cpus : 1); ++c) std::thread(Burn, static_cast<int>(c)).detach();
  std::thread(LoadGpu).detach();
}

}  // namespace

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  g_active_ns.store(NowNs());
  g_load.store(false);
  static const bool started = (Start(), true);
  (void)started;
  // Never captured: every round is eager calls.
  hipStreamCaptureStatus capture = hipStreamCaptureStatusNone;
  if (hipStreamIsCapturing(stream, &capture) == hipSuccess && capture != hipStreamCaptureStatusNone) return 3;
  const int rc = Launch(in, out, stream);
  g_active_ns.store(NowNs());
  return rc;
}
