// Host-side throughput of a HIP check: drawing seeded inputs, widening to
// double for the CPU reference, comparing, fingerprinting and poisoning, on
// all cores of the machine, a reference's loop on one core and on all, and
// the page faults of a buffer's first writes, and a reference file read
// back.
// A check of a configuration of N elements does each of these about once
// per trial and tensor (the draw only where the device generator has no
// room: MakeTrial).
//
//   bazel run -c opt //plugins/common/hip:tensors_benchmark
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "plugins/common/hip/worker/tensors.h"

namespace arena::hip2hip {
namespace {

constexpr int64_t kElements = int64_t{1} << 24;  // 16M: a mid-sized configuration

void SetBytes(benchmark::State& state, ArenaDtype dtype) {
  state.SetItemsProcessed(state.iterations() * kElements);
  state.SetBytesProcessed(state.iterations() * kElements * static_cast<int64_t>(DtypeSize(dtype)));
}

void BM_DrawNormal(benchmark::State& state) {
  const auto dtype = static_cast<ArenaDtype>(state.range(0));
  uint64_t seed = 1;
  for (auto _ : state) {
    auto t = DrawInput(dtype, {kElements}, {{"dist", "normal"}}, seed++);
    benchmark::DoNotOptimize(t->bytes.data());
  }
  SetBytes(state, dtype);
}
BENCHMARK(BM_DrawNormal)->Arg(ARENA_FLOAT32)->Arg(ARENA_FLOAT16)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Widen(benchmark::State& state) {
  const auto dtype = static_cast<ArenaDtype>(state.range(0));
  auto t = DrawInput(dtype, {kElements}, {{"dist", "normal"}}, 7);
  for (auto _ : state) {
    auto w = Widen(*t);
    benchmark::DoNotOptimize(w.data());
  }
  SetBytes(state, dtype);
}
BENCHMARK(BM_Widen)->Arg(ARENA_FLOAT32)->Arg(ARENA_FLOAT16)->Unit(benchmark::kMillisecond)->UseRealTime();

// A reference's outputs before it runs: NaNs on all cores (NaNs), against
// what the judge did before (one std::vector filled on one core).
void BM_NaNs(benchmark::State& state) {
  for (auto _ : state) {
    Doubles d = NaNs(kElements);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(state.iterations() * kElements * 8);
}
BENCHMARK(BM_NaNs)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_NaNsOnOneCore(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<double> d(kElements, std::numeric_limits<double>::quiet_NaN());
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(state.iterations() * kElements * 8);
}
BENCHMARK(BM_NaNsOnOneCore)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Compare(benchmark::State& state) {
  auto t = DrawInput(ARENA_FLOAT16, {kElements}, {{"dist", "normal"}}, 7);
  const Doubles ref = Widen(*t);
  for (auto _ : state) {
    Comparison c = Compare("y", *t, ref, 1e-2, 1e-2);
    benchmark::DoNotOptimize(c.ok);
  }
  SetBytes(state, ARENA_FLOAT16);
}
BENCHMARK(BM_Compare)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Fingerprint(benchmark::State& state) {
  auto t = DrawInput(ARENA_FLOAT32, {kElements}, {{"dist", "normal"}}, 7);
  for (auto _ : state) benchmark::DoNotOptimize(Fingerprint(*t));
  SetBytes(state, ARENA_FLOAT32);
}
BENCHMARK(BM_Fingerprint)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Poisoned(benchmark::State& state) {
  for (auto _ : state) {
    HostTensor t = Poisoned(ARENA_BFLOAT16, {kElements});
    benchmark::DoNotOptimize(t.bytes.data());
  }
  SetBytes(state, ARENA_BFLOAT16);
}
BENCHMARK(BM_Poisoned)->Unit(benchmark::kMillisecond)->UseRealTime();

// A task's reference, in double, as silu_mul's computes it: on one core
// (Arg 0), and spread over every core by OpenMP (Arg 1), as the judge
// builds references now (`#pragma omp parallel for` in the task's file).
void BM_ReferenceLoop(benchmark::State& state) {
  const bool spread = state.range(0) != 0;
  auto a = DrawInput(ARENA_FLOAT16, {kElements}, {{"dist", "normal"}, {"std", 2}}, 7);
  auto b = DrawInput(ARENA_FLOAT16, {kElements}, {{"dist", "normal"}}, 8);
  const Doubles wa = Widen(*a), wb = Widen(*b);
  Doubles y = NaNs(kElements);
  const double* x = wa.data();
  const double* g = wb.data();
  double* out = y.data();
  for (auto _ : state) {
    if (spread) {
#pragma omp parallel for
      for (int64_t i = 0; i < kElements; ++i) out[i] = x[i] / (1.0 + std::exp(-x[i])) * g[i];
    } else {
      for (int64_t i = 0; i < kElements; ++i) out[i] = x[i] / (1.0 + std::exp(-x[i])) * g[i];
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kElements);
}
BENCHMARK(BM_ReferenceLoop)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// A check's host buffer of 128 MiB (16 Mi doubles) written once on every
// core and given back: its page faults, in 4 KiB pages from the C++ heap
// (Arg 0), and from AllocateHostBuffer, offered to transparent huge pages
// (Arg 1), as the harness's buffers are.
void BM_FirstTouch(benchmark::State& state) {
  const bool huge = state.range(0) != 0;
  const size_t bytes = static_cast<size_t>(kElements) * sizeof(double);
  for (auto _ : state) {
    void* p = huge ? AllocateHostBuffer(bytes) : ::operator new(bytes);
    auto* d = static_cast<double*>(p);
#pragma omp parallel for
    for (int64_t i = 0; i < kElements; ++i) d[i] = 1.0;
    benchmark::DoNotOptimize(d);
    if (huge) {
      FreeHostBuffer(p, bytes);
    } else {
      ::operator delete(p);
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
}
BENCHMARK(BM_FirstTouch)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// A float64 reference file of 128 MiB (16 Mi values; the files the
// PyTorch-to-HIP reference worker hands over, in the page cache as they are
// just written) read back as values: into a zeroed tensor whose bytes are
// then copied into them (Arg 0, how the judge read them before
// ReadFloat64File), and straight into them (Arg 1, ReadFloat64File).
void BM_ReadReference(benchmark::State& state) {
  const std::string path = "/tmp/arena_tensors_benchmark_reference.bin";
  {
    HostTensor t = Empty(ARENA_FLOAT64, {kElements});
    for (int64_t i = 0; i < kElements; ++i) reinterpret_cast<double*>(t.bytes.data())[i] = 0.5 * i;
    if (!WriteTensorFile(path, t).ok()) {
      state.SkipWithError("cannot write the reference file");
      return;
    }
  }
  for (auto _ : state) {
    Doubles values;
    if (state.range(0) == 0) {
      HostTensor t = Empty(ARENA_FLOAT64, {kElements});  // zeroed, then read into
      FILE* f = std::fopen(path.c_str(), "rb");
      benchmark::DoNotOptimize(std::fread(t.bytes.data(), 1, t.bytes.size(), f));
      std::fclose(f);
      values.resize(static_cast<size_t>(kElements));
      std::memcpy(values.data(), t.bytes.data(), t.bytes.size());
    } else {
      values = *ReadFloat64File(path, {kElements});
    }
    benchmark::DoNotOptimize(values.data());
  }
  std::remove(path.c_str());
  state.SetBytesProcessed(state.iterations() * kElements * static_cast<int64_t>(sizeof(double)));
}
BENCHMARK(BM_ReadReference)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace arena::hip2hip
