// What signing one launch report costs the launch observer in a Triton
// runner (bazel run -c opt ...): a report of a few launches, as a call's
// usually is, and one of the most the observer keeps.
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#include "plugins/common/python/signed_report.h"

namespace arena::signed_report {
namespace {

std::string Report(int launches) {
  std::string text = "arena-launches 1\nseq 12\noff 0\n";
  for (int i = 0; i < launches; ++i) {
    text += "launch S d 7f3a" + std::to_string(100000 + i) + " _gelu_kernel_variant_" + std::to_string(i) + "\n";
  }
  return text + "more 0\n";
}

void BM_Sign(benchmark::State& state) {
  const uint8_t key[kKeyBytes] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const std::string text = Report(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Sign(key, text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
  state.counters["report_bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_Sign)->Arg(3)->Arg(1024);

}  // namespace
}  // namespace arena::signed_report

BENCHMARK_MAIN();
