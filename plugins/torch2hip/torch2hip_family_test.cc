// The torch2hip family on this machine: the candidate compiled for NVIDIA and
// AMD, the PyTorch reference checked on the CPU for the small configuration;
// on a GPU host everything is checked and timed.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/harness_worker.h"
#include "core/pipeline.h"
#include "core/registry.h"
#include "core/run.h"
#include "core/testing/family_conformance.h"
#include "plugins/common/hip/worker/tensors.h"

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

  Result<TaskResult> Evaluate(const std::string& kernel_hip, SessionReuse* reuse = nullptr,
                              bool prepare_next = false) {
    ARENA_ASSIGN_OR_RETURN(TaskSpec task, Load());
    ARENA_RETURN_IF_ERROR(WriteFileAtomic(scratch_ + "/cand/kernel.hip", kernel_hip));
    PipelineOptions o;
    o.work_dir = scratch_ + "/work";
    o.project_root = ".";
    o.stage_timeout_s = 120;
    o.reuse = reuse;
    o.prepare_next = prepare_next;
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
  EXPECT_EQ(small.candidate_check.detail, "skipped: no GPU (candidate checks need what this device lacks)");
  for (const auto& c : r->configs) {
    if (c.kind != ConfigKind::kSmall) {
      EXPECT_EQ(c.baseline_check.detail, "skipped: no GPU (only the small configuration is checked here)");
      EXPECT_EQ(c.timing.stage.detail, "skipped: no GPU");
    }
  }
  // Provenance: the compiler and the PyTorch that ran the reference.
  const Json& tools = r->provenance["toolchain"];
  EXPECT_NE(tools.value("nvcc", "").find("release"), std::string::npos) << tools.dump();
  EXPECT_FALSE(tools.value("torch", "").empty()) << tools.dump();
  EXPECT_FALSE(tools.value("python", "").empty()) << tools.dump();
  EXPECT_EQ(r->provenance["task_hash"].get<std::string>().size(), 64u);
}

// The reference worker started ahead of the next evaluation
// (prepare_next): the next one takes it, tells it its task and checks
// PyTorch eager as one started for it does; the last one asks for none, and
// one after it starts its own.
TEST_F(TorchHipTask, AReferenceWorkerStartedAheadServesTheNextEvaluation) {
  const std::string kernel = Read("kernel.hip");
  std::vector<TaskResult> results;
  for (bool prepare_next : {true, true, false, false}) {
    auto r = Evaluate(kernel, nullptr, prepare_next);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    results.push_back(*r);
  }
  const bool expected[] = {false, true, true, false};
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].baseline_compile.metrics.value("reference_started_ahead", !expected[i]), expected[i])
        << i << ": " << results[i].baseline_compile.metrics.dump();
    const ConfigResult& small = Small(results[i]);
    EXPECT_TRUE(small.baseline_check.passed()) << i << ": " << small.baseline_check.detail;
    EXPECT_EQ(small.baseline_check.metrics["fingerprints"].size(), 3u) << i;  // (each evaluation's own trials)
  }
}

TEST_F(TorchHipTask, CompilerErrorsReachTheCandidateVerbatim) {
  auto r = Evaluate("#include <hip/hip_runtime.h>\nextern \"C\" int arena_run() { return undefined_name; }\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(r->candidate_compile.log.find("undefined_name"), std::string::npos) << r->candidate_compile.log;
}

TEST_F(TorchHipTask, AReusedSessionBuildsEachNewCandidate) {
  // An agent's feedback calls share the reference worker; each call's
  // kernel.hip is built afresh and its errors are its own.
  SessionReuse reuse;
  auto good = Evaluate(Read("kernel.hip"), &reuse);
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_TRUE(good->candidate_compile.passed()) << good->candidate_compile.log;
  auto broken = Evaluate("#include <hip/hip_runtime.h>\nextern \"C\" int arena_run() { return nope; }\n",
                         &reuse);
  ASSERT_TRUE(broken.ok()) << broken.status().ToString();
  EXPECT_EQ(broken->candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(broken->candidate_compile.log.find("nope"), std::string::npos);
  EXPECT_TRUE(broken->baseline_compile.metrics.value("compiled_by_an_earlier_evaluation", false));
  auto again = Evaluate(Read("kernel.hip"), &reuse);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again->candidate_compile.passed()) << again->candidate_compile.log;
  // Eager passed on the small configuration in the first call, on the
  // session's one seed, and is not checked there again.
  EXPECT_TRUE(Small(*again).baseline_check.passed()) << Small(*again).baseline_check.detail;
  EXPECT_EQ(again->seed, good->seed) << "a session's calls share its first call's seed";
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

// The data path the GPU relies on, end to end on the CPU: the reference worker
// writes a trial's inputs (native dtype) and its float64 outputs as raw files,
// the HIP side reads them bit for bit, and the outputs are what the module
// computes from exactly those inputs.
TEST(TorchHipReferenceWorker, TrialFilesCrossBitForBit) {
  auto task = LoadTask(kTasks, kLinear);
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  const std::string dir = testing::TempDir() + "/torch2hip_files";
  ASSERT_TRUE(ResetDir(dir).ok());
  ProcessOptions o;
  o.argv = {HarnessPython("."), "-u", "plugins/torch2hip/harness/reference_worker.py"};
  o.env["CUDA_VISIBLE_DEVICES"] = "";
  auto worker = WorkerProcess::Start(o);
  ASSERT_TRUE(worker.ok()) << worker.status().ToString();
  ASSERT_TRUE(InitializeWorker(**worker,
                               {{"op", "init"},
                                {"task", task->ToJson()},
                                {"reference", std::string(kTaskDir) + "/reference.py"},
                                {"device", "cpu"},
                                {"data_dir", dir + "/trials"}},
                               120, "reference worker")
                  .ok())
      << (*worker)->StderrTail();
  const Configuration* small = task->FindConfig("small");
  ASSERT_NE(small, nullptr);
  auto reply = (*worker)->Request(Json({{"op", "prepare"},
                                        {"config", {{"name", "small"}, {"params", small->params}}},
                                        {"seed", 7},
                                        {"trials", 2},
                                        {"reference", true},
                                        {"check_eager", true}})
                                      .dump(),
                                  120);
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  Json r = Json::parse(*reply);
  ASSERT_EQ(r["status"], "passed") << r.dump();
  ASSERT_EQ(r["data"].size(), 2u);
  // small: M 8, K 32, N 16; inputs x [M, K], weight [N, K], bias [N]; y [M, N].
  std::vector<hip2hip::Doubles> in;
  for (const auto& spec : r["data"][0]["inputs"]) {
    auto dtype = hip2hip::ParseDtype(spec["dtype"]);
    ASSERT_TRUE(dtype.ok());
    EXPECT_EQ(*dtype, ARENA_FLOAT32);
    auto t = hip2hip::ReadTensorFile(spec["path"], *dtype, spec["shape"]);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    in.push_back(hip2hip::Widen(*t));
  }
  ASSERT_EQ(in.size(), 3u);
  const Json& y_spec = r["data"][0]["reference"][0];
  EXPECT_EQ(y_spec["shape"], Json::array({8, 16}));
  auto y = hip2hip::ReadTensorFile(y_spec["path"], ARENA_FLOAT64, y_spec["shape"]);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  const hip2hip::Doubles got = hip2hip::Widen(*y);
  double worst = 0;
  for (int m = 0; m < 8; ++m) {
    for (int n = 0; n < 16; ++n) {
      double acc = in[2][static_cast<size_t>(n)];
      for (int k = 0; k < 32; ++k) {
        acc += in[0][static_cast<size_t>(m * 32 + k)] * in[1][static_cast<size_t>(n * 32 + k)];
      }
      worst = std::max(worst, std::fabs(std::max(acc, 0.0) - got[static_cast<size_t>(m * 16 + n)]));
    }
  }
  EXPECT_LT(worst, 1e-12) << "the float64 reference is relu(x W^T + b) of exactly these inputs";
  // The second trial draws other inputs.
  auto x1 = hip2hip::ReadTensorFile(r["data"][1]["inputs"][0]["path"], ARENA_FLOAT32, {8, 32});
  ASSERT_TRUE(x1.ok());
  EXPECT_NE(hip2hip::Widen(*x1), in[0]);
}

// A task that ships no HIP: the agent writes kernel.hip from scratch. The
// reference is checked as ever; the noop agent's submission (nothing) is
// "no candidate", a failed compile, never a pass.
TEST_F(TorchHipTask, ATaskWithoutStartingCodeJudgesNoCandidateAsNoCandidate) {
  std::string yaml = Read("task.yaml");
  const size_t files = yaml.find("  editable: [kernel.hip]");
  ASSERT_NE(files, std::string::npos);
  yaml.insert(files, "  starter: false\n");
  const size_t tunables = yaml.find("tunables:");
  const size_t instructions = yaml.find("instructions:");
  ASSERT_LT(tunables, instructions);
  yaml.erase(tunables, instructions - tunables);
  Write("task.yaml", yaml);
  // While kernel.hip is still shipped, the task says one thing and does another.
  auto shipped = Load();
  ASSERT_FALSE(shipped.ok());
  EXPECT_NE(shipped.status().message().find("files.starter is false"), std::string::npos)
      << shipped.status().message();
  fs::remove(scratch_ + "/tasks/torch2hip/fused/linear_bias_relu/kernel.hip");
  auto task = Load();
  ASSERT_TRUE(task.ok()) << task.status().message();
  EXPECT_FALSE(task->starter);
  EXPECT_TRUE(ValidateTaskSafely(*family_, *task).ok());
  // The workspace has nothing to start from, and says so.
  const std::string ws = scratch_ + "/workspace";
  ASSERT_TRUE(PrepareWorkspace(*task, ws).ok());
  EXPECT_FALSE(fs::exists(ws + "/kernel.hip"));
  std::ifstream in(ws + "/INSTRUCTIONS.md");
  const std::string text(std::istreambuf_iterator<char>(in), {});
  EXPECT_NE(text.find("No starting code is shipped"), std::string::npos) << text;
  // Evaluated as the noop agent leaves it: the reference passes, no candidate.
  ASSERT_TRUE(ResetDir(scratch_ + "/cand").ok());
  PipelineOptions o;
  o.work_dir = scratch_ + "/work";
  o.project_root = ".";
  o.stage_timeout_s = 120;
  auto r = EvaluateCandidate(*task, *family_, scratch_ + "/cand", o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->baseline_compile.passed()) << r->baseline_compile.detail;
  EXPECT_EQ(r->candidate_compile.status, StageStatus::kFailed);
  EXPECT_EQ(r->candidate_compile.detail.rfind("no candidate", 0), 0u) << r->candidate_compile.detail;
  EXPECT_EQ(Small(*r).baseline_check.status, StageStatus::kPassed) << Small(*r).baseline_check.detail;
  EXPECT_NE(Small(*r).candidate_check.status, StageStatus::kPassed);
  // A family that times its shipped files as the baseline refuses such a task.
  auto hip = TaskFamilyRegistry::Global().Create("hip2hip");
  ASSERT_TRUE(hip.ok()) << hip.status().message();
  Status s = ValidateTaskSafely(**hip, *task);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("files.starter: false"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace arena
