// What the core itself costs per evaluation, apart from any family's work:
// reading a task, staging a subject's folder, the provenance hashes, and a
// whole evaluation through the pipeline with the test-only fake family
// (whose stages do no work), which is the arena's own overhead per task.
//
//   bazel run -c opt //core:pipeline_benchmark
#include <string>

#include <benchmark/benchmark.h>

#include "core/family.h"
#include "core/files.h"
#include "core/pipeline.h"
#include "core/provenance.h"
#include "core/task.h"

namespace arena {
namespace {

// A real task of the largest family (its folder: task.yaml, kernel, reference).
constexpr char kTasksRoot[] = "tasks";
constexpr char kTask[] = "tasks/triton2triton/norms/layernorm_fwd/task.yaml";
constexpr char kFakeRoot[] = "tests/testdata/tasks";
constexpr char kFake[] = "tests/testdata/tasks/fake/suite/alpha/task.yaml";

std::string Scratch(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/arena_pipeline_benchmark_" + name;
}

void BM_LoadTask(benchmark::State& state) {
  for (auto _ : state) {
    auto task = LoadTask(kTasksRoot, kTask);
    if (!task.ok()) state.SkipWithError(task.status().ToString().c_str());
    benchmark::DoNotOptimize(task);
  }
}
BENCHMARK(BM_LoadTask)->Unit(benchmark::kMicrosecond);

void BM_StageTaskFolder(benchmark::State& state) {
  auto task = LoadTask(kTasksRoot, kTask);
  if (!task.ok()) return state.SkipWithError(task.status().ToString().c_str());
  const std::string dest = Scratch("stage");
  for (auto _ : state) {
    if (!ResetDir(dest).ok() || !CopyTree(task->dir, dest).ok()) state.SkipWithError("copy failed");
  }
}
BENCHMARK(BM_StageTaskFolder)->Unit(benchmark::kMicrosecond);

void BM_TaskContentHash(benchmark::State& state) {
  auto task = LoadTask(kTasksRoot, kTask);
  if (!task.ok()) return state.SkipWithError(task.status().ToString().c_str());
  for (auto _ : state) benchmark::DoNotOptimize(TaskContentHash(*task));
}
BENCHMARK(BM_TaskContentHash)->Unit(benchmark::kMicrosecond);

void BM_CandidateContentHash(benchmark::State& state) {
  auto task = LoadTask(kTasksRoot, kTask);
  if (!task.ok()) return state.SkipWithError(task.status().ToString().c_str());
  for (auto _ : state) benchmark::DoNotOptimize(CandidateContentHash(*task, task->dir));
}
BENCHMARK(BM_CandidateContentHash)->Unit(benchmark::kMicrosecond);

// Every stage of a five-configuration task, each a no-op of the fake family.
void BM_EvaluateWithAFamilyThatDoesNothing(benchmark::State& state) {
  auto task = LoadTask(kFakeRoot, kFake);
  if (!task.ok()) return state.SkipWithError(task.status().ToString().c_str());
  auto family = TaskFamilyRegistry::Global().Create("fake");
  if (!family.ok()) return state.SkipWithError(family.status().ToString().c_str());
  PipelineOptions o;
  o.seed = 1;
  o.device = CpuDevice();
  o.project_root = ".";
  o.work_dir = Scratch("evaluate");
  for (auto _ : state) {
    auto r = EvaluateCandidate(*task, **family, task->dir, o);
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_EvaluateWithAFamilyThatDoesNothing)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arena

BENCHMARK_MAIN();
