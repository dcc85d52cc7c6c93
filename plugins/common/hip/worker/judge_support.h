// What the HIP judge's parts share: replies, tensors placed in lent memory,
// device buffers, sampled positions (plugins/common/hip/worker/judge.h).
#ifndef ARENA_PLUGINS_COMMON_HIP_WORKER_JUDGE_SUPPORT_H_
#define ARENA_PLUGINS_COMMON_HIP_WORKER_JUDGE_SUPPORT_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include "core/status.h"
#include "plugins/common/hip/runner/cuda_text.h"
#include "plugins/common/hip/worker/samples.h"
#include "plugins/common/hip/worker/tensors.h"

namespace arena::hip2hip {

using Json = nlohmann::json;

constexpr size_t kAlign = 256;
inline const std::vector<std::string> kSubjects = {"baseline", "candidate"};

inline size_t RoundUp(size_t n, size_t m = kAlign) { return (n + m - 1) / m * m; }

inline Json Reply(const std::string& status, const std::string& detail, Json metrics = Json::object()) {
  return {{"status", status}, {"detail", detail}, {"log", ""}, {"seconds", 0.0},
          {"metrics", metrics}};
}

// A failed stage that is an integrity finding (counted in reports).
inline Json Finding(const std::string& finding) {
  return Reply("failed", "integrity: " + finding, {{"integrity", Json::array({finding})}});
}

struct TensorSpec {
  std::string name;
  ArenaDtype dtype;
  std::vector<std::string> shape;
  Json init;
};

// The judge's own device memory (never lent).
struct DeviceBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) : bytes(n) {
    if (cudaMalloc(&ptr, std::max<size_t>(n, 1)) != cudaSuccess) ptr = nullptr;
  }
  ~DeviceBuffer() {
    if (ptr) cudaFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Fills `numel` elements at `dst` with the dtype's poison (NaN, or the
// smallest integer): a byte-uniform poison by memset, any other by one
// element copied up and doubled in place.
inline Status Poison(void* dst, ArenaDtype dtype, size_t numel) {
  const HostTensor one = Poisoned(dtype, {1});
  const size_t size = one.bytes.size(), total = numel * size;
  if (total == 0) return OkStatus();
  auto* d = static_cast<uint8_t*>(dst);
  cudaError_t e;
  if (std::all_of(one.bytes.begin(), one.bytes.end(), [&](uint8_t x) { return x == one.bytes[0]; })) {
    e = cudaMemset(d, one.bytes[0], total);
  } else {
    e = cudaMemcpy(d, one.bytes.data(), size, cudaMemcpyHostToDevice);
    for (size_t done = size; done < total && e == cudaSuccess;) {
      const size_t n = std::min(done, total - done);
      e = cudaMemcpy(d + done, d, n, cudaMemcpyDeviceToDevice);
      done += n;
    }
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return Internal("poisoning an output failed: " + CudaText(e));
  return OkStatus();
}

// Where one tensor of a request sits in a subject's lent memory: set k's
// copy at off + k * stride.
struct Placed {
  ArenaDtype dtype;
  std::vector<int64_t> shape;
  size_t bytes = 0;
  size_t off = 0;
  size_t stride = 0;
};

// Inputs and outputs of `sets` sets, tensor by tensor (each tensor's sets
// side by side, 256-byte aligned), in memory of `*total` bytes.
inline std::pair<std::vector<Placed>, std::vector<Placed>> Place(
    const std::vector<std::pair<ArenaDtype, std::vector<int64_t>>>& in,
    const std::vector<std::pair<ArenaDtype, std::vector<int64_t>>>& out, size_t sets, size_t* total) {
  size_t at = 0;
  auto place = [&](const std::vector<std::pair<ArenaDtype, std::vector<int64_t>>>& specs) {
    std::vector<Placed> placed;
    for (const auto& [dtype, shape] : specs) {
      Placed p{dtype, shape, static_cast<size_t>(Numel(shape)) * DtypeSize(dtype), at, 0};
      p.stride = RoundUp(std::max<size_t>(p.bytes, 1));
      at += p.stride * sets;
      placed.push_back(p);
    }
    return placed;
  };
  auto i = place(in);
  auto o = place(out);
  *total = std::max<size_t>(at, 1);
  return {i, o};
}

inline Json Describe(const std::vector<Placed>& tensors, int slab) {
  Json a = Json::array();
  for (const auto& t : tensors) {
    a.push_back({{"slab", slab}, {"off", t.off}, {"stride", t.stride}, {"dtype", DtypeName(t.dtype)},
                 {"shape", t.shape}});
  }
  return a;
}

// Every set of a timed round but read lightly, after it: one run of
// elements in each set, at a start drawn in secret (the same in every set),
// about 256 Ki elements over the round, at least 16 a set. A subject that
// skips the work of a few sets, betting that the one set read inside the
// round is not among them, leaves their poison where the runs fall.
struct SetRuns {
  size_t start = 0, length = 0;
};

inline SetRuns PickSetRuns(size_t n, size_t sets, std::mt19937_64& rng) {
  constexpr size_t kTotal = size_t{1} << 18, kLeast = 16;
  const size_t length = std::min(n, std::max(kLeast, kTotal / std::max<size_t>(sets, 1)));
  if (length == 0) return {};
  return {std::uniform_int_distribution<size_t>(0, n - length)(rng), length};
}

// The runs of `sets` sets laid `set_bytes` apart from `base`, packed on the
// host (one copy).
inline HostTensor DownloadSetRuns(const uint8_t* base, size_t set_bytes, size_t sets, ArenaDtype dtype,
                                  const SetRuns& r) {
  const size_t es = DtypeSize(dtype);
  HostTensor t = Poisoned(dtype, {static_cast<int64_t>(sets * r.length)});
  if (sets == 0 || r.length == 0) return t;
  if (cudaMemcpy2D(t.bytes.data(), r.length * es, base + r.start * es, set_bytes, r.length * es, sets,
                   cudaMemcpyDeviceToHost) != cudaSuccess) {
    t = Poisoned(dtype, {static_cast<int64_t>(sets * r.length)});  // never compared as if downloaded
  }
  return t;
}

inline HostTensor DownloadSample(const void* src, ArenaDtype dtype, const Sample& s) {
  const size_t es = DtypeSize(dtype);
  HostTensor t = Poisoned(dtype, {static_cast<int64_t>(s.count)});
  const auto* from = static_cast<const uint8_t*>(src) + s.start * es;
  const cudaError_t e = s.count == 0    ? cudaSuccess
                        : s.stride == 1 ? cudaMemcpy(t.bytes.data(), from, s.count * es, cudaMemcpyDeviceToHost)
                                        : cudaMemcpy2D(t.bytes.data(), es, from, s.stride * es, es, s.count,
                                                       cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    t = Poisoned(dtype, {static_cast<int64_t>(s.count)});  // never compared as if downloaded
  }
  return t;
}

inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : 0.5 * (v[(v.size() - 1) / 2] + v[v.size() / 2]);
}

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_WORKER_JUDGE_SUPPORT_H_
