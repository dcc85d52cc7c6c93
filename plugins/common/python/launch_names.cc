// The GPU kernels launched in a Python runner, seen through CUPTI's
// callbacks on every call of the driver and runtime APIs that starts a
// kernel or a graph, or makes host memory the GPU can reach, or exports
// device memory: whatever made the call (Triton's launcher, torch, a
// vendor library, native code), below anything Python can patch. The
// runner loads it through ctypes before the subject's code is imported;
// its reports reach the judge signed (signed_report.h), through the
// runner's Python, which the subject's code can rewrite: the judge checks
// each report's signature and number, and nothing launched goes
// unrecorded, whatever the switches below were set to (by the runner, or
// by a subject that found them): each launch is recorded with when it
// came, and the judge decides.
//
//   arena_launches_start()        0, or -1 (arena_launches_error() says why)
//   arena_launches_key(fd)        reads the judge's 16-byte key from FD and
//                                 closes it; once (0), later calls -1
//   arena_launches_watch(1) ... the subject's code ... arena_launches_watch(0)
//   arena_launches_watch(2)       between requests
//   arena_launches_allowed(1) ... an op the task allows ... arena_launches_allowed(0)
//                                 on the thread that runs it
//   arena_launches_take(buf, cap) the report of what was launched since the
//                                 last take, its length (cap >= 1 MiB):
//     arena-launches 1
//     seq N                       the takes so far, this one counted
//     off 0|1                     whether a callback was turned off
//     launch WHEN HOW HANDLE NAME one line per distinct launch: WHEN is R
//                                 (the runner's own work, on its thread), S
//                                 (the subject's code), B (between requests,
//                                 or another thread during the runner's
//                                 work), A (an op the task allows); HOW is d
//                                 (the driver's API: HANDLE the CUfunction),
//                                 r (the runtime's: HANDLE 0), g (a graph),
//                                 or, for a call that is no launch, h (host
//                                 memory the GPU can reach) or x (device
//                                 memory exported), NAME the call's
//     more 0|1                    whether launches were left out (too many)
//     mac HEX                     its signature, or "mac none" with no key
//
// CUPTI lets one subscriber in per process: a profiler the subject starts
// cannot take the place (its subscribe fails), and a subject that turns the
// callbacks off is found at the next take.
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include <cuda.h>
#include <cupti.h>

#include "plugins/common/hip/runner/cupti_launches.h"
#include "plugins/common/python/signed_report.h"

namespace {

using arena::cupti::ForEachLaunchCallback;
using arena::cupti::ForEachDeferredCallback;
using arena::cupti::ForEachMemoryCallback;
using arena::cupti::In;
using arena::cupti::kDriverDeferred;
using arena::cupti::kDriverExport;
using arena::cupti::kDriverGraphLaunches;
using arena::cupti::kDriverHostMemory;
using arena::cupti::kDriverLaunches;
using arena::cupti::kRuntimeDeferred;
using arena::cupti::kRuntimeExport;
using arena::cupti::kRuntimeHostMemory;
using arena::cupti::kRuntimeLaunches;

constexpr size_t kMaxLaunches = 1024;
constexpr size_t kMaxName = 400;
constexpr char kGraph[] = "<graph>";

decltype(&cuptiEnableCallback) enable_callback = nullptr;
decltype(&cuptiGetCallbackState) callback_state = nullptr;
CUpti_SubscriberHandle subscriber = nullptr;
std::string error = "not started";
// 0: the runner's own work, 1: the subject's code, 2: between requests.
std::atomic<int> watching{0};
thread_local bool allowed_here = false;  // this thread runs an op the task allows
pthread_t runner_thread;  // the thread that started the observer: the runner's own
bool runner_thread_known = false;
std::atomic<int64_t> takes{0};
std::mutex mu;
std::set<std::string> launches;  // guarded by mu: "WHEN HOW HANDLE NAME" lines
bool overflowed = false;         // guarded by mu
std::atomic<int> keyed{0};       // 1 once the key is read
uint8_t key[arena::signed_report::kKeyBytes];

void Seen(char when, char how, CUfunction f, const char* name) {
  std::string n = name != nullptr && name[0] != '\0' ? std::string(name).substr(0, kMaxName) : "?";
  for (char& c : n) {
    if (c == '\n' || c == '\r' || c == ' ') c = '_';
  }
  char head[40];
  std::snprintf(head, sizeof(head), "%c %c %llx ", when, how,
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(f)));
  std::string line = head + n;
  std::lock_guard<std::mutex> lock(mu);
  if (launches.size() < kMaxLaunches) {
    launches.insert(std::move(line));
  } else if (launches.count(line) == 0) {
    overflowed = true;
  }
}

// The driver's name of a launched function, where CUPTI gives none.
CUresult (*func_get_name)(const char**, CUfunction) = nullptr;

// The function a driver launch starts (nullptr for another call).
CUfunction DriverFunction(CUpti_CallbackId id, const void* params) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      return static_cast<const cuLaunchKernel_params*>(params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      return static_cast<const cuLaunchKernelEx_params*>(params)->f;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return static_cast<const cuLaunchCooperativeKernel_params*>(params)->f;
    default:
      return nullptr;
  }
}

// The driver's name of a function, where CUPTI gives none.
const char* DriverName(CUfunction f) {
  const char* name = nullptr;
  if (f == nullptr || func_get_name == nullptr || func_get_name(&name, f) != CUDA_SUCCESS) return nullptr;
  return name;
}

void CUPTIAPI OnApi(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  if (info->callbackSite != CUPTI_API_ENTER) return;
  // Every launch is kept, with when it came: the switches say what the
  // runner was doing, and a subject that set them itself only changes
  // the letter the judge reads.
  char when = 'A';
  if (!allowed_here) {
    const int mode = watching.load(std::memory_order_relaxed);
    const bool runners_thread = !runner_thread_known || pthread_equal(pthread_self(), runner_thread);
    when = mode == 1 ? 'S' : mode == 2 || !runners_thread ? 'B' : 'R';
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (In(id, kDriverLaunches)) {
      CUfunction f = DriverFunction(id, info->functionParams);
      const char* name = info->symbolName;
      Seen(when, 'd', f, name != nullptr && name[0] != '\0' ? name : DriverName(f));
    }
    if (In(id, kDriverGraphLaunches)) Seen(when, 'g', nullptr, kGraph);
    if (In(id, kDriverHostMemory)) Seen(when, 'h', nullptr, info->functionName);
    if (In(id, kDriverExport)) Seen(when, 'x', nullptr, info->functionName);
    if (In(id, kDriverDeferred)) Seen(when, 'w', nullptr, info->functionName);
  } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (In(id, kRuntimeLaunches)) Seen(when, 'r', nullptr, info->symbolName);
    if (In(id, kRuntimeHostMemory)) Seen(when, 'h', nullptr, info->functionName);
    if (In(id, kRuntimeExport)) Seen(when, 'x', nullptr, info->functionName);
    if (In(id, kRuntimeDeferred)) Seen(when, 'w', nullptr, info->functionName);
  }
}

template <typename F>
bool Find(void* lib, const char* name, F* f) {
  *f = reinterpret_cast<F>(dlsym(lib, name));
  return *f != nullptr;
}

// Every watched callback still on.
bool StillOn() {
  auto on = [](CUpti_CallbackDomain d, CUpti_CallbackId id) {
    uint32_t enabled = 0;
    return callback_state(&enabled, subscriber, d, id) == CUPTI_SUCCESS && enabled != 0;
  };
  return ForEachLaunchCallback(on) && ForEachMemoryCallback(on) && ForEachDeferredCallback(on);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int arena_launches_start() {
  if (subscriber != nullptr) return 0;
  // The CUPTI the process has loaded already (torch's), else the system's.
  void* lib = nullptr;
  for (int flags : {RTLD_NOW | RTLD_NOLOAD, RTLD_NOW | RTLD_LOCAL}) {
    for (const char* name : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
      if ((lib = dlopen(name, flags)) != nullptr) break;
    }
    if (lib != nullptr) break;
  }
  if (lib == nullptr) {
    const char* why = dlerror();
    error = std::string("CUPTI cannot be loaded: ") + (why != nullptr ? why : "not found");
    return -1;
  }
  if (void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD); driver != nullptr) {
    func_get_name = reinterpret_cast<CUresult (*)(const char**, CUfunction)>(dlsym(driver, "cuFuncGetName"));
  }
  decltype(&cuptiSubscribe) subscribe = nullptr;
  if (!Find(lib, "cuptiSubscribe", &subscribe) || !Find(lib, "cuptiEnableCallback", &enable_callback) ||
      !Find(lib, "cuptiGetCallbackState", &callback_state)) {
    error = "CUPTI lacks an entry point the launch observer needs";
    return -1;
  }
  CUpti_SubscriberHandle sub = nullptr;
  if (CUptiResult r = subscribe(&sub, OnApi, nullptr); r != CUPTI_SUCCESS) {
    error = "CUPTI refused a subscriber (error " + std::to_string(r) + ")";
    return -1;
  }
  subscriber = sub;
  runner_thread = pthread_self();
  runner_thread_known = true;
  auto enable = [sub](CUpti_CallbackDomain d, CUpti_CallbackId id) {
    return enable_callback(1, sub, d, id) == CUPTI_SUCCESS;
  };
  if (!ForEachLaunchCallback(enable) || !ForEachMemoryCallback(enable) ||
      !ForEachDeferredCallback(enable)) {
    error = "CUPTI refused a launch callback";
    return -1;
  }
  error.clear();
  return 0;
}

__attribute__((visibility("default"))) const char* arena_launches_error() { return error.c_str(); }

__attribute__((visibility("default"))) void arena_launches_watch(int mode) {
  watching.store(mode == 1 || mode == 2 ? mode : 0);
}

__attribute__((visibility("default"))) void arena_launches_allowed(int on) { allowed_here = on != 0; }

__attribute__((visibility("default"))) int arena_launches_key(int fd) {
  if (fd < 0) return -1;
  uint8_t read_key[arena::signed_report::kKeyBytes];
  size_t got = 0;
  while (got < sizeof(read_key)) {
    const ssize_t n = read(fd, read_key + got, sizeof(read_key) - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd);
  int expected = 0;
  if (got != sizeof(read_key) || !keyed.compare_exchange_strong(expected, 2)) return -1;
  std::memcpy(key, read_key, sizeof(key));
  keyed.store(1);
  return 0;
}

__attribute__((visibility("default"))) int arena_launches_take(char* buf, int cap) {
  const int64_t seq = takes.fetch_add(1) + 1;
  const bool on = subscriber != nullptr && StillOn();
  std::string text = "arena-launches 1\nseq " + std::to_string(seq) + "\noff " + (on ? "0" : "1") + "\n";
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const std::string& line : launches) text += "launch " + line + "\n";
    text += std::string("more ") + (overflowed ? "1" : "0") + "\n";
    launches.clear();
    overflowed = false;
  }
  text = keyed.load() == 1 ? arena::signed_report::Sign(key, text) : text + "mac none\n";
  if (cap <= 0 || text.size() > static_cast<size_t>(cap)) return -1;
  std::memcpy(buf, text.data(), text.size());
  return static_cast<int>(text.size());
}

}  // extern "C"
