// A versus A of a launch-bound graph between two processes, with the HIP
// judge's round ingredients switched on one at a time.
//
// The judge (this process, a CUDA context of its own) times rounds of two
// runner processes (children, one context each) that run the same CUDA graph
// of K launches of a kernel touching a few hundred bytes per call, each
// call on its own set: a byte on a pipe starts a round, the runner replays
// and synchronizes, a byte back ends it, on the judge's clock. Rounds
// alternate between the runners (ABBA ...). Each variant adds one thing the
// arena does around a round:
//   self     the runner evicts the L2 itself before replaying (no other
//            context touches the GPU between rounds)
//   judge    the judge evicts the L2 in its own context before each round
//   prime    judge, and the runner then writes 4 bytes of its own on the
//            GPU (a round trip before the timed one, as the arena's "prime"):
//            the switch from the judge's context is paid outside the round
//   stop     judge, and the idle runner is stopped (SIGSTOP) during the
//            other's round, resumed after
//   gap      judge, and the GPU idles 20 ms before each round's eviction
//   cupti    prime, and each runner has CUPTI subscribed to its API calls
//            with copy records on (as the arena's observer)
//   callbacks  prime, and each runner has CUPTI's API callbacks only
//   records  prime, and each runner has CUPTI's copy records only
//   paused   cupti, with the copy records switched off by the prime and on
//            again after the round, outside it
//   quiet    paused, and the graph also captured and instantiated with the
//            copy records off
//   silent   paused, and every callback off too from the prime to the end
//            of the round (the subscriber kept)
//   loaded   prime, and CUPTI's library loaded in each runner, nothing
//            subscribed or recorded (does its presence alone cost?)
//   detached cupti, unsubscribed and the records off from the prime to the
//            end of the round, subscribed again after it
//   finalized  detached, and CUPTI finalized (detached from the process)
//            for the round, attached again after it
//   pinned   quiet, and both runners on the same two CPU cores (2 and 3):
//            is CUPTI's per-launch cost host work that differs between
//            the cores each runner happens to run on?
// Per variant and repetition (fresh runners each time): the median us per
// launch of each runner, the spread of its rounds (p90/p10) and the ratio of
// the two medians (A versus A). A variant whose ratios leave 1.00 +- 0.02
// where `self` stays inside names what makes the arena's rounds noisy.
//
//   aa_rounds [REPETITIONS=6] [ROUNDS=30] [VARIANT,...]
#include <cuda_runtime.h>
#include <cupti.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "probe.cuh"

namespace {

constexpr int kLaunches = 1500;

using probe::Check;
using probe::kSetBytes;
using probe::Tiny;

// CUPTI as the arena's runner loads it: launch callbacks, copy records.
void CUPTIAPI OnApi(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}
void CUPTIAPI Requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, 1 << 20));
  *size = 1 << 20;
  *max_records = 0;
}
void CUPTIAPI Completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t) { std::free(buffer); }

// CUPTI: $ARENA_CUPTI (a path), else by name on the loader's path.
void* LoadCupti() {
  if (const char* path = std::getenv("ARENA_CUPTI"); path != nullptr && *path != '\0') {
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
  for (const char* name : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
    if (void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL); lib != nullptr) return lib;
  }
  return nullptr;
}

decltype(&cuptiActivityEnable) activity_on = nullptr;
decltype(&cuptiActivityDisable) activity_off = nullptr;
decltype(&cuptiEnableDomain) domain_on = nullptr;
decltype(&cuptiSubscribe) subscribe_fn = nullptr;
decltype(&cuptiUnsubscribe) unsubscribe_fn = nullptr;
decltype(&cuptiFinalize) finalize_fn = nullptr;
decltype(&cuptiActivityRegisterCallbacks) register_fn = nullptr;
CUpti_SubscriberHandle subscriber = nullptr;

// Callbacks of both domains and the copy records, on (again).
bool Attach() {
  return subscribe_fn(&subscriber, OnApi, nullptr) == CUPTI_SUCCESS &&
         domain_on(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS &&
         domain_on(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) == CUPTI_SUCCESS &&
         register_fn(Requested, Completed) == CUPTI_SUCCESS &&
         activity_on(CUPTI_ACTIVITY_KIND_MEMCPY) == CUPTI_SUCCESS;
}

// Unsubscribed and the records off; finalized too when `finalize`.
void Detach(bool finalize) {
  activity_off(CUPTI_ACTIVITY_KIND_MEMCPY);
  unsubscribe_fn(subscriber);
  subscriber = nullptr;
  if (finalize) finalize_fn();
}

// mode: 'c' callbacks, 'r' copy records, 'b' both ('q': both, the graph
// made with the records off).
bool StartCupti(char mode) {
  void* lib = LoadCupti();
  if (lib == nullptr) return false;
  auto subscribe = reinterpret_cast<decltype(&cuptiSubscribe)>(dlsym(lib, "cuptiSubscribe"));
  auto enable_domain = reinterpret_cast<decltype(&cuptiEnableDomain)>(dlsym(lib, "cuptiEnableDomain"));
  auto register_buffers =
      reinterpret_cast<decltype(&cuptiActivityRegisterCallbacks)>(dlsym(lib, "cuptiActivityRegisterCallbacks"));
  auto activity = reinterpret_cast<decltype(&cuptiActivityEnable)>(dlsym(lib, "cuptiActivityEnable"));
  activity_on = activity;
  activity_off = reinterpret_cast<decltype(&cuptiActivityDisable)>(dlsym(lib, "cuptiActivityDisable"));
  if (!subscribe || !enable_domain || !register_buffers || !activity || !activity_off) return false;
  domain_on = enable_domain;
  subscribe_fn = subscribe;
  register_fn = register_buffers;
  unsubscribe_fn = reinterpret_cast<decltype(&cuptiUnsubscribe)>(dlsym(lib, "cuptiUnsubscribe"));
  finalize_fn = reinterpret_cast<decltype(&cuptiFinalize)>(dlsym(lib, "cuptiFinalize"));
  if (!unsubscribe_fn || !finalize_fn) return false;
  if (mode == 'l') return true;  // loaded, nothing on
  CUpti_SubscriberHandle& sub = subscriber;
  if (mode != 'r' && (subscribe(&sub, OnApi, nullptr) != CUPTI_SUCCESS ||
                      enable_domain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API) != CUPTI_SUCCESS ||
                      enable_domain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS)) {
    return false;
  }
  return mode == 'c' || (register_buffers(Requested, Completed) == CUPTI_SUCCESS &&
                         activity(CUPTI_ACTIVITY_KIND_MEMCPY) == CUPTI_SUCCESS);
}

struct Evictor {
  char* buffer = nullptr;
  size_t bytes = 0;
  void Init() {
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    bytes = 2 * static_cast<size_t>(l2);
    Check(cudaMalloc(&buffer, bytes), "evict buffer");
  }
  void Run() {
    Check(cudaMemset(buffer, 0x5a, bytes), "evict");
    Check(cudaDeviceSynchronize(), "sync");
  }
};

// A runner: waits for a byte, replays (after evicting, if asked), answers.
[[noreturn]] void Runner(int in, int out, bool self_evict, char cupti) {
  if (cupti != '0' && !StartCupti(cupti)) {
    std::fprintf(stderr, "runner: CUPTI cannot be loaded\n");
    _exit(3);
  }
  cudaStream_t stream;
  Check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  char* pool;
  Check(cudaMalloc(&pool, kLaunches * kSetBytes), "sets");
  Check(cudaMemset(pool, 0, kLaunches * kSetBytes), "zero");
  Evictor evict;
  if (self_evict) evict.Init();
  if (cupti == 'q') activity_off(CUPTI_ACTIVITY_KIND_MEMCPY);
  cudaGraph_t graph;
  Check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "capture");
  for (int k = 0; k < kLaunches; ++k) {
    char* s = pool + k * kSetBytes;
    Tiny<<<1, 64, 0, stream>>>(reinterpret_cast<const float*>(s), reinterpret_cast<float*>(s + 512));
  }
  Check(cudaStreamEndCapture(stream, &graph), "end capture");
  cudaGraphExec_t exec;
  Check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
  if (cupti == 'q') activity_on(CUPTI_ACTIVITY_KIND_MEMCPY);
  Check(cudaGraphLaunch(exec, stream), "warm");
  Check(cudaStreamSynchronize(stream), "warm sync");
  char c = 1;
  if (write(out, &c, 1) != 1) _exit(2);  // ready
  while (read(in, &c, 1) == 1) {
    if (c == 'e') {  // evict, outside the round
      evict.Run();
    } else if (c == 'q') {  // copy records (and callbacks) back on, outside the round
      activity_on(CUPTI_ACTIVITY_KIND_MEMCPY);
      domain_on(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
      domain_on(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    } else if (c == 'R') {  // attached again, outside the round
      if (!Attach()) _exit(4);
    } else if (c == 'D' || c == 'F') {  // detached, then the prime
      Detach(c == 'F');
      Check(cudaMemsetAsync(pool, 0, 4, stream), "prime");
      Check(cudaStreamSynchronize(stream), "prime sync");
    } else if (c == 'p' || c == 'P' || c == 'S') {  // prime: 4 bytes of its own, outside the round
      if (c != 'p') activity_off(CUPTI_ACTIVITY_KIND_MEMCPY);
      if (c == 'S') {
        domain_on(0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
        domain_on(0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
      }
      Check(cudaMemsetAsync(pool, 0, 4, stream), "prime");
      Check(cudaStreamSynchronize(stream), "prime sync");
    } else {
      Check(cudaGraphLaunch(exec, stream), "launch");
      Check(cudaStreamSynchronize(stream), "sync");
    }
    if (write(out, &c, 1) != 1) break;
  }
  _exit(0);
}

struct Child {
  pid_t pid;
  int to, from;
};

Child Spawn(bool self_evict, char cupti, bool pinned) {
  // Close-on-exec everywhere: a runner that inherited the other runner's
  // pipe would keep it open, and that runner would never see its end.
  int down[2], up[2];
  if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0) std::exit(1);
  const pid_t pid = fork();
  if (pid == 0) {
    if (pinned) {
      cpu_set_t cpus;
      CPU_ZERO(&cpus);
      CPU_SET(2, &cpus);
      CPU_SET(3, &cpus);
      if (sched_setaffinity(0, sizeof(cpus), &cpus) != 0) _exit(126);
    }
    fcntl(down[0], F_SETFD, 0);
    fcntl(up[1], F_SETFD, 0);
    // A fresh image: a forked copy of a process that holds a CUDA context
    // may not use CUDA.
    close(down[1]);
    close(up[0]);
    const std::string in = std::to_string(down[0]), out = std::to_string(up[1]);
    execl("/proc/self/exe", "aa_rounds", "--runner", in.c_str(), out.c_str(), self_evict ? "1" : "0",
          std::string(1, cupti).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(down[0]);
  close(up[1]);
  char c;
  if (read(up[0], &c, 1) != 1) {
    std::fprintf(stderr, "a runner did not start\n");
    std::exit(1);
  }
  return {pid, down[1], up[0]};
}

bool Ask(const Child& ch, char what) {
  char c = what;
  return write(ch.to, &c, 1) == 1 && read(ch.from, &c, 1) == 1;
}

double Quantile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * (v.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 6 && std::strcmp(argv[1], "--runner") == 0) {
    Runner(std::atoi(argv[2]), std::atoi(argv[3]), argv[4][0] == '1', argv[5][0]);
  }
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 6;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 30;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("| variant | rep | A us/launch | B us/launch | A p90/p10 | B p90/p10 | A/A |\n|---|---:|---:|---:|---:|---:|---:|\n");
  std::vector<std::string> summary;
  std::vector<std::string> variants = {"self",   "judge", "prime",  "stop",   "gap",
                                       "cupti",  "callbacks", "records", "paused", "quiet",
                                       "silent", "loaded", "detached", "finalized", "pinned"};
  if (argc > 3) {  // a comma-separated choice of them
    variants.clear();
    std::string list = argv[3];
    for (size_t at = 0; at <= list.size();) {
      const size_t end = std::min(list.find(',', at), list.size());
      variants.push_back(list.substr(at, end - at));
      at = end + 1;
    }
  }
  for (const std::string& variant : variants) {
    const bool self_evict = variant == "self";
    const bool detached = variant == "detached" || variant == "finalized";
    const bool paused =
        variant == "paused" || variant == "quiet" || variant == "silent" || variant == "pinned";
    const char cupti = variant == "quiet" || variant == "pinned"  ? 'q'
                       : variant == "cupti" || paused || detached ? 'b'
                       : variant == "callbacks"                   ? 'c'
                       : variant == "records"                     ? 'r'
                       : variant == "loaded"                      ? 'l'
                                                                  : '0';
    const bool primed = variant == "prime" || cupti != '0';
    if (cupti != '0' && LoadCupti() == nullptr) {
      summary.push_back(variant + ": skipped, CUPTI cannot be loaded (set ARENA_CUPTI to its path)");
      continue;
    }
    int inside = 0;
    std::vector<double> ratios;
    for (int rep = 0; rep < repetitions; ++rep) {
      const bool pinned = variant == "pinned";
      Child runners[2] = {Spawn(self_evict, cupti, pinned), Spawn(self_evict, cupti, pinned)};
      static Evictor judge;
      if (judge.buffer == nullptr) judge.Init();
      std::vector<double> us[2];
      for (int round = 0; round <= rounds; ++round) {
        for (int turn = 0; turn < 2; ++turn) {
          const int r = (round % 2 == 0) ? turn : 1 - turn;
          const Child& other = runners[1 - r];
          if (variant == "gap") std::this_thread::sleep_for(std::chrono::milliseconds(20));
          if (self_evict) {
            Ask(runners[r], 'e');
          } else {
            judge.Run();
          }
          if (variant == "stop") kill(other.pid, SIGSTOP);
          if (primed) {
            Ask(runners[r], variant == "finalized" ? 'F'
                            : detached             ? 'D'
                            : variant == "silent"  ? 'S'
                            : paused               ? 'P'
                                                   : 'p');
          }
          const auto t0 = std::chrono::steady_clock::now();
          if (!Ask(runners[r], 'r')) {
            std::fprintf(stderr, "a runner died\n");
            return 1;
          }
          const double t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
          if (variant == "stop") kill(other.pid, SIGCONT);
          if (paused) Ask(runners[r], 'q');
          if (detached && !Ask(runners[r], 'R')) {
            std::fprintf(stderr, "a runner could not attach CUPTI again\n");
            return 1;
          }
          if (round > 0) us[r].push_back(t / kLaunches);
        }
      }
      for (auto& ch : runners) {
        close(ch.to);
        close(ch.from);
      }
      for (auto& ch : runners) waitpid(ch.pid, nullptr, 0);
      const double a = Quantile(us[0], 0.5), b = Quantile(us[1], 0.5);
      ratios.push_back(a / b);
      inside += a / b >= 0.98 && a / b <= 1.02;
      std::printf("| %s | %d | %.4f | %.4f | %.3f | %.3f | %.3f |\n", variant.c_str(), rep, a, b,
                  Quantile(us[0], 0.9) / Quantile(us[0], 0.1), Quantile(us[1], 0.9) / Quantile(us[1], 0.1), a / b);
      std::fflush(stdout);
    }
    char line[160];
    std::snprintf(line, sizeof line, "%s: A/A within 2%% in %d of %d, ratios %.3f to %.3f", variant.c_str(), inside,
                  repetitions, *std::min_element(ratios.begin(), ratios.end()),
                  *std::max_element(ratios.begin(), ratios.end()));
    summary.push_back(line);
  }
  for (const auto& s : summary) std::printf("%s\n", s.c_str());
  return 0;
}
