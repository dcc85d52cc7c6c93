// Warp-level HIP: warpSize as a constant, __shfl / __shfl_up / __shfl_down /
// __shfl_xor (HIP's signatures: no mask, optional width), __ballot (64-bit),
// __any, __all, __lane_id, __activemask (NVIDIA), and atomics, including the
// float/double atomicMax/atomicMin and unsafeAtomicAdd that CUDA lacks.
#include <hip/hip_runtime.h>

#include <vector>

#include "hip_test_util.h"

// warpSize in constant expressions, as HIP code writes it.
constexpr int kBlock = 256;
constexpr int kWarpsPerBlock = kBlock / warpSize;

// Block sum: a __shfl_xor butterfly in each warp, then warp 0 combines.
__global__ void block_sum_xor(const int* in, int* out) {
  __shared__ int partial[kWarpsPerBlock];
  int v = in[blockIdx.x * kBlock + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kWarpsPerBlock; ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}

// One value per warp: the __shfl_down tree sum in float and double.
__global__ void warp_sum_down(const float* in, float* out_f, double* out_d) {
  float f = in[threadIdx.x];
  double d = static_cast<double>(in[threadIdx.x]) * 2.0;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    f += __shfl_down(f, offset);
    d += __shfl_down(d, static_cast<unsigned int>(offset), warpSize);
  }
  if (threadIdx.x % warpSize == 0) {
    out_f[threadIdx.x / warpSize] = f;
    out_d[threadIdx.x / warpSize] = d;
  }
}

// Inclusive scan with __shfl_up; broadcasts with __shfl (whole warp, and
// segments of 8 through the width argument); long long through __shfl_xor.
__global__ void scan_and_broadcast(int* scan, int* from_lane0, int* from_seg0,
                                   long long* swapped) {
  const int lane = threadIdx.x % warpSize;
  int v = lane + 1;
  for (int d = 1; d < warpSize; d *= 2) {
    const int up = __shfl_up(v, static_cast<unsigned int>(d));
    if (lane >= d) v += up;
  }
  scan[threadIdx.x] = v;
  from_lane0[threadIdx.x] = __shfl(lane * 10 + 7, 0);
  from_seg0[threadIdx.x] = __shfl(lane * 10 + 7, 0, 8);
  const long long big = (static_cast<long long>(lane) << 40) + lane;
  swapped[threadIdx.x] = __shfl_xor(big, 1);
}

// Votes and lane ids.
__global__ void votes(unsigned long long* ballots, int* any_all, unsigned int* lanes,
                      unsigned int* active) {
  const int lane = threadIdx.x % warpSize;
  const unsigned long long b = __ballot(lane % 3 == 0);
  const int any_big = __any(lane == warpSize - 1);
  const int any_none = __any(0);
  const int all_true = __all(lane >= 0);
  const int all_false = __all(lane < warpSize - 1);
  lanes[threadIdx.x] = __lane_id();
#if defined(__HIP_PLATFORM_NVIDIA__)
  active[threadIdx.x] = __activemask();  // HIP 5.2 on AMD has no __activemask
#else
  active[threadIdx.x] = 0xffffffffu;
#endif
  if (lane == 0) {
    const int w = threadIdx.x / warpSize;
    ballots[w] = b;
    any_all[w * 4 + 0] = any_big;
    any_all[w * 4 + 1] = any_none;
    any_all[w * 4 + 2] = all_true;
    any_all[w * 4 + 3] = all_false;
  }
}

struct AtomicResults {
  int add_i;
  unsigned int cas_winners;
  int exch_seen_initial;
  int max_i;
  int min_i;
  float add_f;
  double add_d;
  float max_f;
  float min_f;
  double max_d;
  double min_d;
  float unsafe_add_f;
  double safe_add_d;
};

__global__ void atomics(AtomicResults* r) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&r->add_i, 1);
  if (atomicCAS(&r->cas_winners, 0u, static_cast<unsigned int>(t + 1)) == 0u) {
    // exactly one thread sees the initial 0
  }
  if (atomicExch(&r->exch_seen_initial, t + 1) == 0) atomicAdd(&r->add_i, 1000);
  atomicMax(&r->max_i, t);
  atomicMin(&r->min_i, -t);
  atomicAdd(&r->add_f, 0.5f);
  atomicAdd(&r->add_d, 0.25);
  const float fv = static_cast<float>((t * 37) % 1001) - 500.0f;
  atomicMax(&r->max_f, fv);
  atomicMin(&r->min_f, fv);
  atomicMax(&r->max_d, static_cast<double>(fv) * 2.0);
  atomicMin(&r->min_d, static_cast<double>(fv) * 2.0);
  unsafeAtomicAdd(&r->unsafe_add_f, 1.0f);
  safeAtomicAdd(&r->safe_add_d, 0.5);
}

namespace {

bool test_warp_size_constant() {
  const char* name = "warpSize is a compile-time constant matching the device";
  bool ok = true;
  static_assert(warpSize > 0 && (warpSize & (warpSize - 1)) == 0, "a power of two");
  int device = 0, attr = 0;
  HT_CALL(hipGetDevice(&device));
  HT_CALL(hipDeviceGetAttribute(&attr, hipDeviceAttributeWarpSize, device));
  hipDeviceProp_t prop;
  HT_CALL(hipGetDeviceProperties(&prop, device));
  std::printf("  warpSize %d, device %d, hipDeviceProp_t %d\n", warpSize, attr, prop.warpSize);
  HT_EXPECT(attr == warpSize);
  HT_EXPECT(prop.warpSize == warpSize);
  return hiptest::report(name, ok);
}

bool test_shfl_xor_block_sum() {
  const char* name = "__shfl_xor block reduction equals the CPU sum";
  bool ok = true;
  const int blocks = 16, n = blocks * kBlock;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 1000 - 300;
  int *in = nullptr, *out = nullptr;
  HT_REQUIRE(hipMalloc(&in, n * sizeof(int)));
  HT_REQUIRE(hipMalloc(&out, blocks * sizeof(int)));
  HT_CALL(hipMemcpy(in, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(block_sum_xor, dim3(blocks), dim3(kBlock), 0, 0, in, out);
  std::vector<int> sums(blocks);
  HT_CALL(hipMemcpy(sums.data(), out, blocks * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int expect = 0;
    for (int i = 0; i < kBlock; ++i) expect += h[b * kBlock + i];
    HT_EXPECT(sums[b] == expect);
  }
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out));
  return hiptest::report(name, ok);
}

bool test_shfl_down_float_double() {
  const char* name = "__shfl_down sums in float and double";
  bool ok = true;
  float* in = nullptr;
  float* out_f = nullptr;
  double* out_d = nullptr;
  std::vector<float> h(kBlock);
  for (int i = 0; i < kBlock; ++i) h[i] = static_cast<float>(i % 13) * 0.5f;  // exact sums
  HT_REQUIRE(hipMalloc(&in, kBlock * sizeof(float)));
  HT_REQUIRE(hipMalloc(&out_f, kWarpsPerBlock * sizeof(float)));
  HT_REQUIRE(hipMalloc(&out_d, kWarpsPerBlock * sizeof(double)));
  HT_CALL(hipMemcpy(in, h.data(), kBlock * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(warp_sum_down, dim3(1), dim3(kBlock), 0, 0, in, out_f, out_d);
  std::vector<float> rf(kWarpsPerBlock);
  std::vector<double> rd(kWarpsPerBlock);
  HT_CALL(hipMemcpy(rf.data(), out_f, kWarpsPerBlock * sizeof(float), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(rd.data(), out_d, kWarpsPerBlock * sizeof(double), hipMemcpyDeviceToHost));
  for (int w = 0; w < kWarpsPerBlock; ++w) {
    float expect = 0.0f;
    for (int l = 0; l < warpSize; ++l) expect += h[w * warpSize + l];
    HT_EXPECT(rf[w] == expect);
    HT_EXPECT(rd[w] == 2.0 * expect);
  }
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out_f));
  HT_CALL(hipFree(out_d));
  return hiptest::report(name, ok);
}

bool test_scan_and_broadcast() {
  const char* name = "__shfl_up scan, __shfl broadcast (with width), __shfl_xor on long long";
  bool ok = true;
  int *scan = nullptr, *lane0 = nullptr, *seg0 = nullptr;
  long long* swapped = nullptr;
  HT_REQUIRE(hipMalloc(&scan, kBlock * sizeof(int)));
  HT_REQUIRE(hipMalloc(&lane0, kBlock * sizeof(int)));
  HT_REQUIRE(hipMalloc(&seg0, kBlock * sizeof(int)));
  HT_REQUIRE(hipMalloc(&swapped, kBlock * sizeof(long long)));
  hipLaunchKernelGGL(scan_and_broadcast, dim3(1), dim3(kBlock), 0, 0, scan, lane0, seg0, swapped);
  std::vector<int> s(kBlock), l0(kBlock), sg(kBlock);
  std::vector<long long> sw(kBlock);
  HT_CALL(hipMemcpy(s.data(), scan, kBlock * sizeof(int), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(l0.data(), lane0, kBlock * sizeof(int), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(sg.data(), seg0, kBlock * sizeof(int), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(sw.data(), swapped, kBlock * sizeof(long long), hipMemcpyDeviceToHost));
  for (int t = 0; t < kBlock; ++t) {
    const int lane = t % warpSize;
    HT_EXPECT(s[t] == (lane + 1) * (lane + 2) / 2);
    HT_EXPECT(l0[t] == 7);
    HT_EXPECT(sg[t] == (lane / 8) * 8 * 10 + 7);
    const long long partner = lane ^ 1;
    HT_EXPECT(sw[t] == (partner << 40) + partner);
  }
  HT_CALL(hipFree(scan));
  HT_CALL(hipFree(lane0));
  HT_CALL(hipFree(seg0));
  HT_CALL(hipFree(swapped));
  return hiptest::report(name, ok);
}

bool test_votes() {
  const char* name = "__ballot (64-bit), __any, __all, __lane_id, __activemask";
  bool ok = true;
  unsigned long long* ballots = nullptr;
  int* any_all = nullptr;
  unsigned int *lanes = nullptr, *active = nullptr;
  HT_REQUIRE(hipMalloc(&ballots, kWarpsPerBlock * sizeof(unsigned long long)));
  HT_REQUIRE(hipMalloc(&any_all, kWarpsPerBlock * 4 * sizeof(int)));
  HT_REQUIRE(hipMalloc(&lanes, kBlock * sizeof(unsigned int)));
  HT_REQUIRE(hipMalloc(&active, kBlock * sizeof(unsigned int)));
  hipLaunchKernelGGL(votes, dim3(1), dim3(kBlock), 0, 0, ballots, any_all, lanes, active);
  std::vector<unsigned long long> b(kWarpsPerBlock);
  std::vector<int> aa(kWarpsPerBlock * 4);
  std::vector<unsigned int> ln(kBlock), act(kBlock);
  HT_CALL(hipMemcpy(b.data(), ballots, b.size() * sizeof(b[0]), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(aa.data(), any_all, aa.size() * sizeof(int), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(ln.data(), lanes, ln.size() * sizeof(unsigned int), hipMemcpyDeviceToHost));
  HT_CALL(hipMemcpy(act.data(), active, act.size() * sizeof(unsigned int), hipMemcpyDeviceToHost));
  unsigned long long expect = 0;
  for (int l = 0; l < warpSize; ++l) {
    if (l % 3 == 0) expect |= 1ull << l;
  }
  for (int w = 0; w < kWarpsPerBlock; ++w) {
    HT_EXPECT(b[w] == expect);
    HT_EXPECT(aa[w * 4 + 0] != 0);
    HT_EXPECT(aa[w * 4 + 1] == 0);
    HT_EXPECT(aa[w * 4 + 2] != 0);
    HT_EXPECT(aa[w * 4 + 3] == 0);
  }
  for (int t = 0; t < kBlock; ++t) {
    HT_EXPECT(ln[t] == static_cast<unsigned int>(t % warpSize));
    HT_EXPECT(act[t] == 0xffffffffu);
  }
  HT_CALL(hipFree(ballots));
  HT_CALL(hipFree(any_all));
  HT_CALL(hipFree(lanes));
  HT_CALL(hipFree(active));
  return hiptest::report(name, ok);
}

bool test_atomics() {
  const char* name = "atomics: Add/CAS/Exch/Max/Min on int, float, double; unsafeAtomicAdd, safeAtomicAdd";
  bool ok = true;
  const int blocks = 8, threads = 128, n = blocks * threads;
  AtomicResults init{};
  init.max_i = -1;
  init.min_i = 1;
  init.max_f = -1e30f;
  init.min_f = 1e30f;
  init.max_d = -1e300;
  init.min_d = 1e300;
  AtomicResults* d = nullptr;
  HT_REQUIRE(hipMalloc(&d, sizeof(AtomicResults)));
  HT_CALL(hipMemcpy(d, &init, sizeof(init), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(atomics, dim3(blocks), dim3(threads), 0, 0, d);
  AtomicResults r{};
  HT_CALL(hipMemcpy(&r, d, sizeof(r), hipMemcpyDeviceToHost));
  float max_f = -1e30f, min_f = 1e30f;
  for (int t = 0; t < n; ++t) {
    const float fv = static_cast<float>((t * 37) % 1001) - 500.0f;
    max_f = fv > max_f ? fv : max_f;
    min_f = fv < min_f ? fv : min_f;
  }
  HT_EXPECT(r.add_i == n + 1000);  // every thread, plus the first exchanger
  HT_EXPECT(r.cas_winners >= 1u && r.cas_winners <= static_cast<unsigned int>(n));
  HT_EXPECT(r.exch_seen_initial >= 1 && r.exch_seen_initial <= n);
  HT_EXPECT(r.max_i == n - 1);
  HT_EXPECT(r.min_i == -(n - 1));
  HT_EXPECT(r.add_f == 0.5f * n);
  HT_EXPECT(r.add_d == 0.25 * n);
  HT_EXPECT(r.max_f == max_f);
  HT_EXPECT(r.min_f == min_f);
  HT_EXPECT(r.max_d == 2.0 * max_f);
  HT_EXPECT(r.min_d == 2.0 * min_f);
  HT_EXPECT(r.unsafe_add_f == static_cast<float>(n));
  HT_EXPECT(r.safe_add_d == 0.5 * n);
  HT_CALL(hipFree(d));
  return hiptest::report(name, ok);
}

}  // namespace

int main() {
  if (!hiptest::gpu_available()) return hiptest::finish_without_gpu("warp");
  test_warp_size_constant();
  test_shfl_xor_block_sum();
  test_shfl_down_float_double();
  test_scan_and_broadcast();
  test_votes();
  test_atomics();
  return hiptest::finish("warp");
}
