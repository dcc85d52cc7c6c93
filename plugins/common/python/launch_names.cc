// The names of the GPU kernels launched in a Python runner while its
// subject's code runs, seen through CUPTI's callbacks on every call of the
// driver and runtime APIs that starts a kernel or a graph: whatever made
// the call (Triton's launcher, torch, a vendor library, native code), below
// anything Python can patch. The runner loads it through ctypes before the
// subject's code is imported, and the judge compares the names with the
// subject's own Triton kernels.
//
//   arena_launches_start()        0, or -1 (arena_launches_error() says why)
//   arena_launches_watch(1) ... the subject's code ... arena_launches_watch(0)
//   arena_launches_watch(2)       between requests: what is launched then is
//                                 a thread's the subject left running
//   (While the runner does its own work, watch 0, a launch from any other
//   thread than the one that started the observer is one of those too.)
//   arena_launches_allowed(1) ... an op the task allows ... arena_launches_allowed(0)
//                                 on the thread that runs it: its launches
//                                 are not kept
//   arena_launches_take(buf, cap) the distinct names seen while watched since
//                                 the last take, one per line ("<graph>" for a
//                                 graph's launch, "<between> NAME" for one
//                                 seen between requests); -1 when the
//                                 callbacks were turned off since the start
//   arena_launches_takes()        how many takes there were: the judge counts
//                                 the runner's, so a take by anyone else (the
//                                 names seen, dropped) shows
//
// CUPTI lets one subscriber in per process: a profiler the subject starts
// cannot take the place (its subscribe fails), and a subject that turns the
// callbacks off is found at the next take.
#include <dlfcn.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include <cuda.h>
#include <cupti.h>

#include "plugins/common/hip/runner/cupti_launches.h"

namespace {

using arena::cupti::ForEachLaunchCallback;
using arena::cupti::In;
using arena::cupti::kDriverGraphLaunches;
using arena::cupti::kDriverLaunches;
using arena::cupti::kRuntimeLaunches;

constexpr size_t kMaxNames = 256;
constexpr size_t kMaxName = 1024;
constexpr char kGraph[] = "<graph>";

decltype(&cuptiEnableCallback) enable_callback = nullptr;
decltype(&cuptiGetCallbackState) callback_state = nullptr;
CUpti_SubscriberHandle subscriber = nullptr;
std::string error = "not started";
// 0: the runner's own work (nothing kept), 1: the subject's code, 2: between
// requests.
std::atomic<int> watching{0};
thread_local bool allowed_here = false;  // this thread runs an op the task allows
pthread_t runner_thread;  // the thread that started the observer: the runner's own
bool runner_thread_known = false;
std::atomic<int64_t> takes{0};
std::mutex mu;
std::set<std::string> names;  // guarded by mu
bool overflowed = false;      // guarded by mu

void Seen(const char* name, bool between) {
  std::string n = name != nullptr && name[0] != '\0' ? std::string(name).substr(0, kMaxName) : "?";
  if (between) n = "<between> " + n;
  for (char& c : n) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::lock_guard<std::mutex> lock(mu);
  if (names.size() < kMaxNames) {
    names.insert(std::move(n));
  } else if (names.count(n) == 0) {
    overflowed = true;
  }
}

// The driver's name of a launched function, where CUPTI gives none.
CUresult (*func_get_name)(const char**, CUfunction) = nullptr;

const char* DriverName(CUpti_CallbackId id, const void* params) {
  CUfunction f = nullptr;
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      f = static_cast<const cuLaunchKernel_params*>(params)->f;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      f = static_cast<const cuLaunchKernelEx_params*>(params)->f;
      break;
    default:
      return nullptr;
  }
  const char* name = nullptr;
  if (f == nullptr || func_get_name == nullptr || func_get_name(&name, f) != CUDA_SUCCESS) return nullptr;
  return name;
}

void CUPTIAPI OnApi(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  if (info->callbackSite != CUPTI_API_ENTER || allowed_here) return;
  int mode = watching.load(std::memory_order_relaxed);
  if (mode == 0) {
    // The runner's own work, on its own thread; another thread's launch
    // meanwhile is the subject's, outside any call.
    if (!runner_thread_known || pthread_equal(pthread_self(), runner_thread)) return;
    mode = 2;
  }
  const bool between = mode == 2;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (In(id, kDriverLaunches)) {
      const char* name = info->symbolName;
      Seen(name != nullptr && name[0] != '\0' ? name : DriverName(id, info->functionParams), between);
    }
    if (In(id, kDriverGraphLaunches)) Seen(kGraph, between);
  } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && In(id, kRuntimeLaunches)) {
    Seen(info->symbolName, between);
  }
}

template <typename F>
bool Find(void* lib, const char* name, F* f) {
  *f = reinterpret_cast<F>(dlsym(lib, name));
  return *f != nullptr;
}

// Every watched callback still on.
bool StillOn() {
  return ForEachLaunchCallback([](CUpti_CallbackDomain d, CUpti_CallbackId id) {
    uint32_t enabled = 0;
    return callback_state(&enabled, subscriber, d, id) == CUPTI_SUCCESS && enabled != 0;
  });
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
  if (!ForEachLaunchCallback([sub](CUpti_CallbackDomain d, CUpti_CallbackId id) {
        return enable_callback(1, sub, d, id) == CUPTI_SUCCESS;
      })) {
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

__attribute__((visibility("default"))) int64_t arena_launches_takes() { return takes.load(); }

__attribute__((visibility("default"))) int arena_launches_take(char* buf, int cap) {
  takes.fetch_add(1);
  if (subscriber == nullptr || !StillOn()) return -1;
  std::string out;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const std::string& n : names) out += n + "\n";
    if (overflowed) out += "<more names than kept>\n";
    names.clear();
    overflowed = false;
  }
  if (cap <= 0) return 0;
  const size_t n = std::min(out.size(), static_cast<size_t>(cap));
  std::memcpy(buf, out.data(), n);
  return static_cast<int>(n);
}

}  // extern "C"
