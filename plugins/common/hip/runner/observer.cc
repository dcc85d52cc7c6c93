#include "plugins/common/hip/runner/observer.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <utility>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>

#include "plugins/common/hip/runner/cupti_launches.h"

namespace arena::hip2hip {
namespace {

using cupti::ForEachLaunchCallback;
using cupti::ForEachDeferredCallback;
using cupti::ForEachMemoryCallback;
using cupti::In;
using cupti::kDriverDeferred;
using cupti::kDriverExport;
using cupti::kDriverGraphLaunches;
using cupti::kDriverHostMemory;
using cupti::kDriverLaunches;
using cupti::kRuntimeDeferred;
using cupti::kRuntimeExport;
using cupti::kRuntimeHostMemory;
using cupti::kRuntimeLaunches;

// CUPTI's entry points, looked up in the library the runner loaded: the
// runner starts (and says why it observes nothing) where CUPTI is absent.
struct Cupti {
  decltype(&cuptiSubscribe) subscribe = nullptr;
  decltype(&cuptiEnableCallback) enable_callback = nullptr;
  decltype(&cuptiEnableDomain) enable_domain = nullptr;
  decltype(&cuptiGetCallbackState) callback_state = nullptr;
  decltype(&cuptiActivityEnable) activity_enable = nullptr;
  decltype(&cuptiActivityDisable) activity_disable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_buffers = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
};
Cupti api;
Observer* observer = nullptr;  // CUPTI's C callbacks carry no pointer of ours

constexpr size_t kCanaryBytes = 24;
constexpr size_t kBufferBytes = 1 << 20;

// Copies to the host, seen at the call as well as in the copy records.
constexpr CUpti_CallbackId kDriverToHost[] = {
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH,           CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds,   CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2,   CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz,
};

constexpr char kExportWhy[] = ": device memory exported to another process (whose work on it is not observed)";
constexpr char kDeferredWhy[] =
    ": work left to start later (a wait on a memory value or semaphore, which the judge's writes of a "
    "round's inputs would release while the runner is stopped, off the clock) or a context of its own "
    "(which the runner's wait at the end of a call does not wait for)";

// L2 kept for persisting accesses: lines a subject marks persisting stay in
// the part of the L2 set aside for them, which the judge's eviction before
// every round (ordinary writes) cannot take. Data kept there from one call
// to the next is a cache across calls, refused as any other.
// The calls PersistingCall reads, beyond the launches observed anyway.
constexpr CUpti_CallbackId kDriverPersisting[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetAttribute,
};
constexpr CUpti_CallbackId kRuntimePersisting[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetLimit_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_v11000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_ptsz_v11000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetAttribute_v11000,
};

constexpr char kPersistingWhy[] =
    " (kept in L2 past the judge's eviction between rounds: a cache across calls)";

// An access-policy window that marks accesses persisting, as the stream
// and graph-node attribute calls of both APIs pass it (the runtime's value
// types have the driver's layout and numbering).
bool Persisting(int attr, const void* value) {
  if (attr != CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW || value == nullptr) return false;
  const CUaccessPolicyWindow& w =
      static_cast<const CUlaunchAttributeValue*>(value)->accessPolicyWindow;
  return w.hitProp == CU_ACCESS_PROPERTY_PERSISTING || w.missProp == CU_ACCESS_PROPERTY_PERSISTING;
}

// A launch's own attributes (cuLaunchKernelEx, cudaLaunchKernelExC).
bool PersistingLaunch(const CUlaunchAttribute* attrs, unsigned n) {
  for (unsigned i = 0; attrs != nullptr && i < n; ++i) {
    if (Persisting(attrs[i].id, &attrs[i].value)) return true;
  }
  return false;
}

template <typename Params>
const Params& As(const void* params) {
  return *static_cast<const Params*>(params);
}

// What an API call keeps in L2 for persisting accesses ("" for nothing):
// a set-aside, or a persisting window on a stream, a graph node or a launch.
std::string PersistingCall(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* params) {
  constexpr char kSetAside[] = "L2 set aside for persisting accesses";
  constexpr char kWindow[] = "accesses marked persisting";
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (id) {
      case CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit: {
        const auto& p = As<cuCtxSetLimit_params>(params);
        return p.limit == CU_LIMIT_PERSISTING_L2_CACHE_SIZE && p.value > 0 ? kSetAside : "";
      }
      case CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute:
      case CUPTI_DRIVER_TRACE_CBID_cuStreamSetAttribute_ptsz: {
        const auto& p = As<cuStreamSetAttribute_params>(params);
        return Persisting(p.attr, p.param) ? kWindow : "";
      }
      case CUPTI_DRIVER_TRACE_CBID_cuGraphKernelNodeSetAttribute: {
        const auto& p = As<cuGraphKernelNodeSetAttribute_params>(params);
        return Persisting(p.attr, p.value) ? kWindow : "";
      }
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const auto& p = As<cuLaunchKernelEx_params>(params);
        const bool marked = p.config != nullptr && PersistingLaunch(p.config->attrs, p.config->numAttrs);
        return marked ? kWindow : "";
      }
      default:
        return "";
    }
  }
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API) return "";
  switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSetLimit_v3020: {
      const auto& p = As<cudaDeviceSetLimit_v3020_params>(params);
      return p.limit == cudaLimitPersistingL2CacheSize && p.value > 0 ? kSetAside : "";
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_v11000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSetAttribute_ptsz_v11000: {
      const auto& p = As<cudaStreamSetAttribute_v11000_params>(params);
      return Persisting(p.attr, p.param) ? kWindow : "";
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaGraphKernelNodeSetAttribute_v11000: {
      const auto& p = As<cudaGraphKernelNodeSetAttribute_v11000_params>(params);
      return Persisting(p.attr, p.value) ? kWindow : "";
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
      const auto& p = As<cudaLaunchKernelExC_v11060_params>(params);
      const bool marked =
          p.config != nullptr &&
          PersistingLaunch(reinterpret_cast<const CUlaunchAttribute*>(p.config->attrs), p.config->numAttrs);
      return marked ? kWindow : "";
    }
    default:
      return "";
  }
}

bool OnHost(CUmemLocationType t) { return t != CU_MEM_LOCATION_TYPE_DEVICE && t != CU_MEM_LOCATION_TYPE_INVALID; }

// A copy of either API, whatever its direction (cuMemcpy*, cudaMemcpy*).
bool CopyCall(const std::string& fn) { return fn.rfind("cuMemcpy", 0) == 0 || fn.rfind("cudaMemcpy", 0) == 0; }

void CUPTIAPI OnApi(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  if (observer == nullptr || info->callbackSite != CUPTI_API_ENTER) return;
  const std::string fn = info->functionName != nullptr ? info->functionName : "?";
  if (observer->quiet_round() && CopyCall(fn)) {
    observer->OnFinding(fn + ": a copy during a timed round of a captured graph (the round makes none; "
                        "copy records are off then)");
  }
  if (std::string what = PersistingCall(domain, id, info->functionParams); !what.empty()) {
    observer->OnFinding(fn + ": " + what + kPersistingWhy, true);
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (In(id, kDriverLaunches)) return observer->OnLaunch(false);
    if (In(id, kDriverGraphLaunches)) return observer->OnLaunch(true);
    if (In(id, kDriverHostMemory)) return observer->OnFinding(fn + ": host memory the GPU can reach", true);
    if (In(id, kDriverToHost)) return observer->OnFinding(fn + ": a copy from the GPU to the host");
    if (In(id, kDriverExport)) return observer->OnFinding(fn + kExportWhy, true);
    if (In(id, kDriverDeferred)) return observer->OnFinding(fn + kDeferredWhy, true);
    if (id == CUPTI_DRIVER_TRACE_CBID_cuMemCreate) {
      const auto* p = static_cast<const cuMemCreate_params*>(info->functionParams);
      if (p->prop != nullptr && OnHost(p->prop->location.type)) {
        observer->OnFinding(fn + ": memory placed on the host", true);
      }
    }
    if (id == CUPTI_DRIVER_TRACE_CBID_cuMemPoolCreate) {
      const auto* p = static_cast<const cuMemPoolCreate_params*>(info->functionParams);
      if (p->poolProps != nullptr && OnHost(p->poolProps->location.type)) {
        observer->OnFinding(fn + ": a memory pool on the host", true);
      }
    }
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (In(id, kRuntimeLaunches)) return observer->OnLaunch(false);
    if (In(id, kRuntimeHostMemory)) return observer->OnFinding(fn + ": host memory the GPU can reach", true);
    if (In(id, kRuntimeExport)) return observer->OnFinding(fn + kExportWhy, true);
    if (In(id, kRuntimeDeferred)) return observer->OnFinding(fn + kDeferredWhy, true);
  }
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  if (observer != nullptr) observer->OnRecords(buffer, valid);
  std::free(buffer);
}

template <typename F>
bool Find(void* lib, const char* name, F* f) {
  *f = reinterpret_cast<F>(dlsym(lib, name));
  return *f != nullptr;
}

}  // namespace

Status Observer::Start() {
  for (const char* name : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"}) {
    cupti_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (cupti_ != nullptr) break;
  }
  if (cupti_ == nullptr) return Unavailable(std::string("CUPTI cannot be loaded: ") + dlerror());
  if (!Find(cupti_, "cuptiSubscribe", &api.subscribe) ||
      !Find(cupti_, "cuptiEnableCallback", &api.enable_callback) ||
      !Find(cupti_, "cuptiEnableDomain", &api.enable_domain) ||
      !Find(cupti_, "cuptiGetCallbackState", &api.callback_state) ||
      !Find(cupti_, "cuptiActivityEnable", &api.activity_enable) ||
      !Find(cupti_, "cuptiActivityDisable", &api.activity_disable) ||
      !Find(cupti_, "cuptiActivityRegisterCallbacks", &api.register_buffers) ||
      !Find(cupti_, "cuptiActivityGetNextRecord", &api.next_record) ||
      !Find(cupti_, "cuptiActivityFlushAll", &api.flush_all)) {
    return Unavailable("CUPTI lacks an entry point the runner needs");
  }
  observer = this;
  CUpti_SubscriberHandle sub = nullptr;
  if (CUptiResult r = api.subscribe(&sub, OnApi, nullptr); r != CUPTI_SUCCESS) {
    observer = nullptr;
    return Unavailable("CUPTI refused a subscriber (error " + std::to_string(r) + ")");
  }
  subscriber_ = sub;
  if (!EnableWatched()) return Unavailable("CUPTI refused a callback");
  if (api.register_buffers(BufferRequested, BufferCompleted) != CUPTI_SUCCESS ||
      api.activity_enable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS) {
    return Unavailable("CUPTI refused copy records");
  }
  if (cudaMalloc(&canary_, 2 * kCanaryBytes) != cudaSuccess) return Unavailable("no device memory for a canary");
  if (!CanaryCopied()) return Unavailable("CUPTI's copy records do not arrive");
  return OkStatus();
}

bool Observer::EnableWatched() {
  auto sub = static_cast<CUpti_SubscriberHandle>(subscriber_);
  auto enable = [&](CUpti_CallbackDomain d, CUpti_CallbackId id) {
    return api.enable_callback(1, sub, d, id) == CUPTI_SUCCESS;
  };
  bool ok = ForEachLaunchCallback(enable);
  ok &= ForEachMemoryCallback(enable);
  ok &= ForEachDeferredCallback(enable);
  for (auto id : kDriverToHost) ok &= enable(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (auto id : kDriverPersisting) ok &= enable(CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (auto id : kRuntimePersisting) ok &= enable(CUPTI_CB_DOMAIN_RUNTIME_API, id);
  ok &= enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemCreate);
  ok &= enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemPoolCreate);
  return ok;
}

void Observer::OnLaunch(bool graph) {
  (graph ? graph_launches_ : launches_).fetch_add(1);
  if (!subject_running_.load()) {
    OnFinding(std::string("work between requests: a ") + (graph ? "graph" : "kernel") +
              " was launched while the runner ran none of the subject's code (a thread the subject left "
              "running)");
  }
}

void Observer::OnFinding(std::string what, bool sticky) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string>& to = sticky ? sticky_ : findings_;
  if (to.size() < 16) to.push_back(std::move(what));
}

void Observer::OnRecords(uint8_t* buffer, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (api.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_MEMCPY) continue;
    const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
    if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD && copy->bytes == kCanaryBytes) {
      canaries_.fetch_add(1);
    } else if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ||
               copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_ATOH) {
      OnFinding("a copy of " + std::to_string(copy->bytes) + " bytes from the GPU to the host");
    }
  }
}

bool Observer::CanaryCopied() {
  const int64_t before = canaries_.load();
  auto* c = static_cast<char*>(canary_);
  if (cudaMemcpy(c + kCanaryBytes, c, kCanaryBytes, cudaMemcpyDeviceToDevice) != cudaSuccess) return false;
  cudaDeviceSynchronize();
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  return canaries_.load() > before;
}

bool Observer::BeginQuietRound() {
  if (subscriber_ == nullptr) return false;
  auto sub = static_cast<CUpti_SubscriberHandle>(subscriber_);
  // Every call watched first, then the records off: no moment without one.
  if (api.enable_domain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS ||
      api.enable_domain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API) != CUPTI_SUCCESS) {
    EndQuietRound();
    return false;
  }
  quiet_.store(true);
  if (api.activity_disable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS) {
    EndQuietRound();
    return false;
  }
  return true;
}

void Observer::RecordCopies(bool on) {
  if (subscriber_ == nullptr) return;
  if (on) {
    if (api.activity_enable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS) {
      OnFinding("the runner's copy records could not be switched on again");
    }
  } else {
    api.activity_disable(CUPTI_ACTIVITY_KIND_MEMCPY);
  }
}

void Observer::EndQuietRound() {
  auto sub = static_cast<CUpti_SubscriberHandle>(subscriber_);
  // Still watching every copy call, as BeginQuietRound left it?
  uint32_t driver = 0, runtime = 0;
  if (quiet_.load() &&
      (api.callback_state(&driver, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemcpy) !=
           CUPTI_SUCCESS ||
       api.callback_state(&runtime, sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020) !=
           CUPTI_SUCCESS ||
       driver == 0 || runtime == 0)) {
    OnFinding("the runner's observation of copy calls was switched off during a timed round");
  }
  // The records on first, then the watch narrowed again.
  RecordCopies(true);
  quiet_.store(false);
  api.enable_domain(0, sub, CUPTI_CB_DOMAIN_DRIVER_API);
  api.enable_domain(0, sub, CUPTI_CB_DOMAIN_RUNTIME_API);
  if (!EnableWatched()) OnFinding("the runner's launch observation could not be switched on again");
}

namespace {

// Memory a copy or set node in a captured graph writes or reads: device
// memory of the GPU (or a CUDA array), not the host's.
bool OnDevice(cudaArray_t array, const void* ptr) {
  if (array != nullptr) return true;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice;
}

}  // namespace

void Observer::InspectGraph(cudaGraph_t graph) {
  if (subscriber_ != nullptr) Inspect(graph, 0);
}

void Observer::Inspect(cudaGraph_t graph, int depth) {
  constexpr char kIn[] = "the graph captured for timing ";
  size_t n = 0;
  std::vector<cudaGraphNode_t> nodes;
  bool read = cudaGraphGetNodes(graph, nullptr, &n) == cudaSuccess;
  if (read && n > 0) {
    nodes.resize(n);
    read = cudaGraphGetNodes(graph, nodes.data(), &n) == cudaSuccess;
  }
  if (!read) {
    (void)cudaGetLastError();
    return OnFinding(std::string(kIn) + "cannot be inspected");
  }
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    if (cudaGraphNodeGetType(node, &type) != cudaSuccess) {
      (void)cudaGetLastError();
      OnFinding(std::string(kIn) + "holds a node whose kind cannot be read");
      continue;
    }
    switch (type) {
      case cudaGraphNodeTypeKernel:
      case cudaGraphNodeTypeEmpty:
      case cudaGraphNodeTypeWaitEvent:
      case cudaGraphNodeTypeEventRecord:
      case cudaGraphNodeTypeMemAlloc:
      case cudaGraphNodeTypeMemFree:
        break;
      case cudaGraphNodeTypeMemcpy: {
        // Copies into device memory only: one into the host is the way
        // host computation gets its inputs.
        cudaMemcpy3DParms p{};
        if (cudaGraphMemcpyNodeGetParams(node, &p) != cudaSuccess || !OnDevice(p.dstArray, p.dstPtr.ptr)) {
          (void)cudaGetLastError();
          OnFinding(std::string(kIn) + "copies from the GPU to the host");
        }
        break;
      }
      case cudaGraphNodeTypeMemset: {
        cudaMemsetParams p{};
        if (cudaGraphMemsetNodeGetParams(node, &p) != cudaSuccess || !OnDevice(nullptr, p.dst)) {
          (void)cudaGetLastError();
          OnFinding(std::string(kIn) + "sets host memory");
        }
        break;
      }
      case cudaGraphNodeTypeHost:
        OnFinding(std::string(kIn) + "runs a host function (cudaLaunchHostFunc or a host node)");
        break;
      case cudaGraphNodeTypeGraph: {
        cudaGraph_t child = nullptr;
        if (depth < 8 && cudaGraphChildGraphNodeGetGraph(node, &child) == cudaSuccess) {
          Inspect(child, depth + 1);
        } else {
          (void)cudaGetLastError();
          OnFinding(std::string(kIn) + "holds a child graph that cannot be inspected");
        }
        break;
      }
      default:
        OnFinding(std::string(kIn) + "holds a node of a kind the judge does not inspect (" +
                  std::to_string(static_cast<int>(type)) + ")");
    }
  }
}

Observation Observer::Take() {
  Observation o;
  if (subscriber_ == nullptr) return o;
  if (quiet_.load()) EndQuietRound();
  // Still on: the callbacks enabled, and the copy records still coming.
  uint32_t on = 0;
  if (api.callback_state(&on, static_cast<CUpti_SubscriberHandle>(subscriber_), CUPTI_CB_DOMAIN_RUNTIME_API,
                         CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000) != CUPTI_SUCCESS ||
      on == 0 ||
      api.callback_state(&on, static_cast<CUpti_SubscriberHandle>(subscriber_), CUPTI_CB_DOMAIN_DRIVER_API,
                         CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) != CUPTI_SUCCESS ||
      on == 0) {
    OnFinding("the runner's launch observation (CUPTI callbacks) was switched off");
  }
  if (!CanaryCopied()) OnFinding("the runner's copy observation (CUPTI records) was switched off");
  o.launches = launches_.exchange(0);
  o.graph_launches = graph_launches_.exchange(0);
  std::lock_guard<std::mutex> lock(mu_);
  o.findings = sticky_;
  o.findings.insert(o.findings.end(), findings_.begin(), findings_.end());
  findings_.clear();
  return o;
}

}  // namespace arena::hip2hip
