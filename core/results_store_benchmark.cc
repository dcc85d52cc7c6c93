// What storing results costs: one task's result (10 configurations, 30
// samples per subject each, logs of a few KB) saved into the results
// database (one transaction: the result, its configurations and stages),
// and a run of such tasks read back for a report.
//
//   bazel run -c opt //core:results_store_benchmark
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "core/files.h"
#include "core/results_store.h"

namespace arena {
namespace {

TaskResult MakeResult(const std::string& id) {
  TaskResult r;
  r.task_id = id;
  r.family = "hip2hip";
  r.seed = 42;
  r.baseline_compile = StageOutcome::Passed("built");
  r.candidate_compile = StageOutcome::Passed("built");
  r.candidate_compile.log = std::string(4000, 'c');
  r.integrity = StageOutcome::Passed("harness untouched");
  for (int i = 0; i < 10; ++i) {
    ConfigResult c;
    c.name = "tuning_rows" + std::to_string(1 << i);
    c.bytes = 1e9;
    c.baseline_check = StageOutcome::Passed("3 trial(s) within tolerance");
    c.candidate_check = StageOutcome::Passed("3 trial(s) within tolerance");
    c.timing.stage = StageOutcome::Passed("judge-clock");
    for (int k = 0; k < 30; ++k) {
      c.timing.baseline.us.push_back(100.0 + k);
      c.timing.candidate.us.push_back(90.0 + k);
    }
    r.configs.push_back(c);
  }
  r.wall_s = 12.5;
  return r;
}

std::string Folder() {
  const std::string dir = "/tmp/arena-store-bench-" + std::to_string(getpid());
  (void)ResetDir(dir);
  return dir;
}

// A fresh database in `dir` holding one run, "bench".
std::unique_ptr<ResultsStore> BenchStore(const std::string& dir) {
  auto store = ResultsStore::Open(dir + "/arena.db");
  RunInfo run;
  run.run_id = "bench";
  run.agent = "noop";
  run.created_at = "2026-12-01T00:00:00Z";
  (void)(*store)->CreateRun(run);
  return std::move(*store);
}

void BM_SaveTask(benchmark::State& state) {
  const std::string dir = Folder();
  auto store = BenchStore(dir);
  int n = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(store->SaveTask("bench", MakeResult("t" + std::to_string(n++))).ok());
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_SaveTask)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LoadRun(benchmark::State& state) {
  const std::string dir = Folder();
  auto store = BenchStore(dir);
  for (int i = 0; i < state.range(0); ++i) (void)store->SaveTask("bench", MakeResult("t" + std::to_string(i)));
  for (auto _ : state) {
    auto tasks = store->LoadTasks("bench");
    benchmark::DoNotOptimize(tasks.ok());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_LoadRun)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace arena
