// The torch2hip family on this machine: the candidate compiled for NVIDIA and
// AMD, the PyTorch reference checked on the CPU for the small configuration;
// on a GPU host everything is checked and timed.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/pipeline.h"
#include "core/registry.h"
#include "core/testing/family_conformance.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kTasks[] = "tasks";
constexpr char kLinear[] = "tasks/torch2hip/fused/linear_bias_relu/task.yaml";
constexpr char kTaskDir[] = "tasks/torch2hip/fused/linear_bias_relu";

TEST(TorchHipFamily, Conformance) {
  FamilyConformanceCase c;
  c.family = "torch2hip";
  c.tasks_root = kTasks;
  c.task_yaml = kLinear;
  c.broken_candidate = {{"kernel.hip", "extern \"C\" int arena_run( { return 0; }\n"}};
  RunFamilyConformance(c);
}

class TorchHipTask : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = testing::TempDir() + "/torch2hip_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(scratch_).ok());
    ASSERT_TRUE(CopyTree(kTaskDir, scratch_ + "/tasks/torch2hip/fused/linear_bias_relu").ok());
    family_ = std::move(*TaskFamilyRegistry::Global().Create("torch2hip"));
  }

  // Rewrites a file of the copied task.
  void Write(const std::string& name, const std::string& text) {
    ASSERT_TRUE(WriteFileAtomic(scratch_ + "/tasks/torch2hip/fused/linear_bias_relu/" + name, text).ok());
  }

  std::string Read(const std::string& name) {
    std::ifstream in(std::string(kTaskDir) + "/" + name);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  Result<TaskSpec> Load() {
    return LoadTask(scratch_ + "/tasks", scratch_ + "/tasks/torch2hip/fused/linear_bias_relu/task.yaml");
  }

  Result<TaskResult> Evaluate(const std::string& kernel_hip) {
    ARENA_ASSIGN_OR_RETURN(TaskSpec task, Load());
    ARENA_RETURN_IF_ERROR(WriteFileAtomic(scratch_ + "/cand/kernel.hip", kernel_hip));
    PipelineOptions o;
    o.work_dir = scratch_ + "/work";
    o.project_root = ".";
    o.stage_timeout_s = 120;
    return EvaluateCandidate(task, *family_, scratch_ + "/cand", o);
  }

  static const ConfigResult& Small(const TaskResult& r) {
    for (const auto& c : r.configs) {
      if (c.kind == ConfigKind::kSmall) return c;
    }
    ADD_FAILURE() << "no small configuration";
    return r.configs.front();
  }

  std::string scratch_;
  std::unique_ptr<TaskFamily> family_;
};

TEST_F(TorchHipTask, ParametersMustNameInterfaceInputs) {
  std::string yaml = Read("task.yaml");
  yaml.replace(yaml.find("{weight: linear.weight"), 6, "{wieght");
  Write("task.yaml", yaml);
  auto t = Load();
  ASSERT_TRUE(t.ok()) << t.status().ToString();  // the core schema is fine
  Status s = family_->ValidateTask(*t);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("task.yaml:"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("torch2hip.parameters.wieght"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("not one of the interface's inputs"), std::string::npos) << s.message();
}

TEST_F(TorchHipTask, UnknownSectionFieldIsNamed) {
  Write("task.yaml", Read("task.yaml") + "  eager_only: true\n");
  auto t = Load();
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  Status s = family_->ValidateTask(*t);
  EXPECT_NE(s.message().find("torch2hip.eager_only: unknown field"), std::string::npos) << s.message();
}

TEST_F(TorchHipTask, ReferenceRunsOnTheCpuAndTheShippedKernelBuildsForBothPlatforms) {
  auto r = Evaluate(Read("kernel.hip"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->baseline_compile.passed()) << r->baseline_compile.detail << r->baseline_compile.log;
  ASSERT_TRUE(r->candidate_compile.passed()) << r->candidate_compile.detail << r->candidate_compile.log;
  EXPECT_EQ(r->candidate_compile.metrics.value("nvidia_arch", ""), "sm_90");
  if (fs::exists("/usr/bin/hipcc")) {
    EXPECT_EQ(r->candidate_compile.metrics.value("amd", ""), "gfx90a");
  }
  const ConfigResult& small = Small(*r);
  // PyTorch eager in fp32 against the float64 module: a real check.
  EXPECT_TRUE(small.baseline_check.passed()) << small.baseline_check.detail;
  EXPECT_EQ(small.baseline_check.metrics["fingerprints"].size(), 3u);
  EXPECT_EQ(small.candidate_check.status, StageStatus::kSkipped);
  EXPECT_EQ(small.candidate_check.detail, "skipped: no GPU");
  for (const auto& c : r->configs) {
    if (c.kind != ConfigKind::kSmall) {
      EXPECT_EQ(c.baseline_check.detail, "skipped: no GPU");
    }
  }
}

TEST_F(TorchHipTask, CompilerErrorsReachTheCandidateVerbatim) {
  auto r = Evaluate("#include <hip/hip_runtime.h>\nextern \"C\" int arena_run() { return undefined_name; }\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(r->candidate_compile.log.find("undefined_name"), std::string::npos) << r->candidate_compile.log;
}

TEST_F(TorchHipTask, AReferenceDisagreeingWithTheInterfaceFailsTheBaseline) {
  // get_inputs draws float64 where the interface says float32: the task is
  // wrong, and the baseline's check says exactly what.
  std::string ref = Read("reference.py");
  ref.replace(ref.find("generator=generator)]"), 21, "generator=generator, dtype=torch.float64)]");
  Write("reference.py", ref);
  auto r = Evaluate(Read("kernel.hip"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ConfigResult& small = Small(*r);
  EXPECT_EQ(small.baseline_check.status, StageStatus::kFailed);
  EXPECT_NE(small.baseline_check.detail.find("'x' is float64[8, 32], the interface says float32[8, 32]"),
            std::string::npos)
      << small.baseline_check.detail;
}

TEST_F(TorchHipTask, ABrokenReferenceFailsTheBaselineCompile) {
  Write("reference.py", "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x\n");
  auto r = Evaluate(Read("kernel.hip"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->baseline_compile.status, StageStatus::kFailed);
  EXPECT_NE((r->baseline_compile.detail + r->baseline_compile.log).find("get_init_inputs"),
            std::string::npos)
      << r->baseline_compile.detail << r->baseline_compile.log;
}

}  // namespace
}  // namespace arena
