// The hip2hip family against the family conformance kit: on a machine
// without a GPU both subjects are compiled (nvcc through the HIP-on-CUDA
// layer, and hipcc for AMD gfx90a where installed) and every check and
// timing says why it is skipped; on a GPU machine, everything.
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/family.h"
#include "core/files.h"
#include "core/task.h"
#include "core/testing/family_conformance.h"
#include "plugins/common/hip/build/hip_build.h"

namespace arena {
namespace {

TEST(HipFamily, Conformance) {
  FamilyConformanceCase c;
  c.family = "hip2hip";
  c.tasks_root = "tasks";
  c.task_yaml = "tasks/hip2hip/elementwise/silu_mul/task.yaml";
  c.broken_candidate = {{"kernel.hip", "extern \"C\" int arena_run( { return 0; }\n"}};
  RunFamilyConformance(c);
}

// Runtime compilation asked (ARENA_HIP_RTC=1): a candidate the split
// refuses (a triple-chevron launch) is built by nvcc, and so is the
// baseline, built again; the candidate cannot choose how it is built
// against how the baseline was.
TEST(HipFamily, BothSubjectsAreBuiltTheSameWay) {
  namespace fs = std::filesystem;
  setenv("ARENA_HIP_RTC", "1", 1);
  setenv("ARENA_HIP_CACHE", "off", 1);
  auto family = TaskFamilyRegistry::Global().Create("hip2hip");
  ASSERT_TRUE(family.ok()) << family.status().ToString();
  auto task = LoadTask("tasks", "tasks/hip2hip/elementwise/silu_mul/task.yaml");
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  const std::string root = testing::TempDir() + "/same_way";
  ASSERT_TRUE(ResetDir(root).ok());
  EvaluationContext ctx;
  ctx.task = &*task;
  ctx.baseline_dir = root + "/baseline";
  ctx.candidate_dir = root + "/candidate";
  ctx.work_dir = root + "/work";
  ctx.device = CpuDevice();
  ctx.project_root = fs::current_path().string();
  ASSERT_TRUE(CopyTree(task->dir, ctx.baseline_dir).ok());
  ASSERT_TRUE(CopyTree(task->dir, ctx.candidate_dir).ok());
  ASSERT_TRUE(ResetDir(ctx.work_dir).ok());
  const std::string kernel = ctx.candidate_dir + "/kernel.hip";
  auto text = ReadFile(kernel);
  ASSERT_TRUE(text.ok());
  ASSERT_TRUE(WriteFileAtomic(kernel, *text +
                                          "\n__global__ void unused_kernel() {}\n"
                                          "void launch_unused(hipStream_t s) { unused_kernel<<<1, 1, 0, s>>>(); }\n")
                  .ok());
  auto session = (*family)->Open(ctx);
  ASSERT_TRUE(session.ok()) << session.status().ToString();

  StageOutcome b = (*session)->Compile(Subject::kBaseline);
  ASSERT_TRUE(b.passed()) << b.detail << b.log;
  EXPECT_EQ(b.metrics.value("rtc", ""), "nvrtc+g++") << b.metrics.dump();
  EXPECT_TRUE(fs::exists(ctx.work_dir + "/baseline.cubin"));

  StageOutcome c = (*session)->Compile(Subject::kCandidate);
  ASSERT_TRUE(c.passed()) << c.detail << c.log;
  EXPECT_TRUE(FellBackToNvcc(c)) << c.metrics.dump();
  EXPECT_EQ(c.metrics.value("rebuilt_by_nvcc", ""), "baseline") << c.metrics.dump();
  EXPECT_FALSE(fs::exists(ctx.work_dir + "/baseline.cubin")) << "the baseline kept its NVRTC build";

  // The next candidate of the session (feedback) is built by nvcc too.
  StageOutcome again = (*session)->Compile(Subject::kCandidate);
  ASSERT_TRUE(again.passed()) << again.detail;
  EXPECT_EQ(again.metrics.value("rtc", "").rfind("not used: the other subject was built by nvcc", 0), 0u)
      << again.metrics.dump();
  unsetenv("ARENA_HIP_RTC");
}

// On an AMD GPU (a ROCm device; this machine need not have one: the build
// only compiles) the library a runner loads is hipcc's for that GPU, nvcc
// checks that the source still builds for NVIDIA, and the family runs
// everything there with the kit's ROCm judge and runner.
TEST(HipFamily, OnAnAmdGpuTheLibraryIsHipccsForThatGpu) {
  namespace fs = std::filesystem;
  if (FindHipcc().empty()) GTEST_SKIP() << "hipcc is not installed";
  DeviceInfo amd;
  amd.platform = "rocm";
  amd.index = 0;
  amd.name = "an AMD GPU";
  amd.arch = "gfx90a";
  auto family = TaskFamilyRegistry::Global().Create("hip2hip");
  ASSERT_TRUE(family.ok()) << family.status().ToString();
  const FamilyCapabilities can = (*family)->Capabilities(amd);
  EXPECT_TRUE(can.time) << can.why;
  EXPECT_EQ(KitBinary(amd, "hip_runner"), "plugins/common/hip/hip_runner_rocm");
  EXPECT_EQ(KitBinary(CpuDevice(), "hip_judge"), "plugins/common/hip/hip_judge");
  EXPECT_TRUE(fs::exists(KitBinary(amd, "hip_judge")));
  EXPECT_TRUE(fs::exists(KitBinary(amd, "hip_runner")));

  const std::string work = testing::TempDir() + "/amd", source = testing::TempDir() + "/amd_source";
  ASSERT_TRUE(ResetDir(work).ok());
  ASSERT_TRUE(ResetDir(source).ok());
  auto kernel = ReadFile("tasks/hip2hip/elementwise/silu_mul/kernel.hip");
  ASSERT_TRUE(kernel.ok());
  ASSERT_TRUE(WriteFileAtomic(source + "/kernel.hip", *kernel).ok());
  HipBuildOptions o;
  o.project_root = fs::current_path().string();
  o.work_dir = work;
  o.device = amd;
  o.editable = {"kernel.hip"};
  std::string library;
  StageOutcome built = BuildHip(o, source + "/kernel.hip", "candidate", &library);
  ASSERT_TRUE(built.passed()) << built.detail << built.log;
  EXPECT_EQ(built.metrics.value("amd", ""), "gfx90a") << built.metrics.dump();
  EXPECT_EQ(library, work + "/candidate.so");
  auto bytes = ReadFile(library);
  ASSERT_TRUE(bytes.ok());
  EXPECT_NE(bytes->find("amdgcn-amd-amdhsa"), std::string::npos) << "not an AMD build";
  if (!FindNvcc().empty()) {
    EXPECT_EQ(built.metrics.value("nvidia_arch", ""), "sm_90") << built.metrics.dump();
  }
}

}  // namespace
}  // namespace arena
