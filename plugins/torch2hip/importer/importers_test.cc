// `arena import kernelbench` and `arena import aka` on problems written for
// this test in those benchmarks' forms: the ones that convert become tasks
// that load, validate and pass their reference's check on the CPU (the noop
// agent's nothing is "no candidate"); the others are listed with their
// reason.
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "core/family.h"
#include "core/files.h"
#include "core/importer.h"
#include "core/pipeline.h"
#include "core/task.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kSource[] = "plugins/torch2hip/importer/testdata/kernelbench";

class KernelBenchImport : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new std::string(testing::TempDir() + "/kernelbench_import");
    ASSERT_TRUE(ResetDir(*root_ + "/tasks/torch2hip/kb").ok());
    auto importer = TaskImporterRegistry::Global().Create("kernelbench");
    ASSERT_TRUE(importer.ok()) << importer.status().message();
    ImportOptions o{kSource, *root_ + "/tasks/torch2hip/kb", fs::current_path().string(), false};
    auto outcomes = (*importer)->Import(o);
    ASSERT_TRUE(outcomes.ok()) << outcomes.status().message();
    outcomes_ = new std::map<std::string, ImportOutcome>;
    for (const auto& out : *outcomes) (*outcomes_)[fs::path(out.source).stem().string()] = out;
  }

  static Result<TaskSpec> Load(const std::string& name) {
    return LoadTask(*root_ + "/tasks", *root_ + "/tasks/torch2hip/kb/" + name + "/task.yaml");
  }

  static std::string* root_;
  static std::map<std::string, ImportOutcome>* outcomes_;
};
std::string* KernelBenchImport::root_ = nullptr;
std::map<std::string, ImportOutcome>* KernelBenchImport::outcomes_ = nullptr;

TEST_F(KernelBenchImport, WhatCannotBeConvertedIsListedWithItsReason) {
  ASSERT_EQ(outcomes_->size(), 6u);
  EXPECT_NE(outcomes_->at("30_reduce_over_dim").refused.find("is a int, not a tensor"), std::string::npos)
      << outcomes_->at("30_reduce_over_dim").refused;
  EXPECT_NE(outcomes_->at("31_no_model").refused.find("defines no Model"), std::string::npos);
  EXPECT_TRUE(outcomes_->at("30_reduce_over_dim").task_dir.empty());
  // Nothing half-written: only the three tasks, no staging folder left.
  int folders = 0;
  for (const auto& e : fs::directory_iterator(*root_ + "/tasks/torch2hip/kb")) {
    ++folders;
    EXPECT_NE(e.path().filename().string()[0], '.') << e.path();
  }
  EXPECT_EQ(folders, 4);
}

TEST_F(KernelBenchImport, SizesBecomeTuningAndDifferentHeldOutConfigurations) {
  auto task = Load("level1_21_conv_pool");
  ASSERT_TRUE(task.ok()) << task.status().message();
  EXPECT_FALSE(task->starter);
  // x, the convolution's weight, the batch norm's four tensors (not its
  // integer step count, which no forward uses).
  ASSERT_EQ(task->inputs.size(), 6u);
  EXPECT_EQ(task->inputs[0].name, "x");
  EXPECT_EQ(task->inputs[1].name, "w_conv_weight");
  EXPECT_EQ(task->inputs[5].name, "w_norm_running_var");
  ASSERT_EQ(task->outputs.size(), 1u);
  const auto tuning = task->ConfigsOfKind(ConfigKind::kTuning);
  const auto heldout = task->ConfigsOfKind(ConfigKind::kHeldout);
  ASSERT_EQ(tuning.size(), 5u);
  ASSERT_EQ(heldout.size(), 5u);
  // The problem's own sizes come first; the kernel size is never varied.
  EXPECT_EQ(tuning[0]->params["height"], 64);
  EXPECT_EQ(tuning[0]->params["batch_size"], 16);
  bool odd = false, one_row = false, height_differs_from_width = false;
  for (const Configuration* c : heldout) {
    EXPECT_EQ(c->params["kernel_size"], 3) << c->name;
    for (const Configuration* t : tuning) EXPECT_NE(c->params, t->params);
    odd |= c->params["height"].get<int>() % 8 != 0;
    one_row |= c->params["batch_size"] == 1;
    height_differs_from_width |= c->params["height"] != c->params["width"];
  }
  EXPECT_TRUE(odd);
  EXPECT_TRUE(one_row);
  EXPECT_TRUE(height_differs_from_width);
  // The weights reach the kernel as inputs, named in the family's section.
  EXPECT_EQ(task->family_json["parameters"]["w_conv_weight"], "conv.weight");
}

// Sizes written inside get_inputs (32, 16) and a tuple of sizes vary like
// module-level integers: lifted into constants, the tuple's items apart.
TEST_F(KernelBenchImport, LiteralAndTupleSizesVaryToo) {
  auto task = Load("level1_44_avg_pool_literals");
  ASSERT_TRUE(task.ok()) << task.status().message();
  const auto tuning = task->ConfigsOfKind(ConfigKind::kTuning);
  ASSERT_FALSE(tuning.empty());
  const Json& p = tuning[0]->params;
  EXPECT_EQ(p["input_size_0"], 32);
  EXPECT_EQ(p["input_size_1"], 16);
  EXPECT_EQ(p["image_0"], 96);
  EXPECT_EQ(p["image_1"], 128);
  EXPECT_EQ(p["kernel_size"], 2);
  ASSERT_EQ(task->inputs[0].shape.size(), 4u);
  EXPECT_EQ(task->inputs[0].shape[0], "input_size_0");
  EXPECT_EQ(task->inputs[0].shape[2], "image_0");
  bool varied = false;
  for (const Configuration* c : task->ConfigsOfKind(ConfigKind::kHeldout)) varied |= c->params["image_1"] != 128;
  EXPECT_TRUE(varied);
}

TEST_F(KernelBenchImport, ATaskPassesItsReferenceCheckOnTheCpuAndNothingIsNoCandidate) {
  for (const char* name : {"level1_7_scaled_relu", "level1_12_linear_tanh", "level1_21_conv_pool",
                           "level1_44_avg_pool_literals"}) {
    auto task = Load(name);
    ASSERT_TRUE(task.ok()) << task.status().message();
    auto family = TaskFamilyRegistry::Global().Create("torch2hip");
    ASSERT_TRUE(family.ok());
    ASSERT_TRUE(ValidateTaskSafely(**family, *task).ok());
    const std::string cand = *root_ + "/cand_" + name;
    ASSERT_TRUE(ResetDir(cand).ok());
    PipelineOptions o;
    o.work_dir = *root_ + "/work_" + name;
    o.project_root = fs::current_path().string();
    o.stage_timeout_s = 120;
    auto r = EvaluateCandidate(*task, **family, cand, o);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->baseline_compile.passed()) << r->baseline_compile.detail << r->baseline_compile.log;
    EXPECT_EQ(r->candidate_compile.detail.rfind("no candidate", 0), 0u) << r->candidate_compile.detail;
    bool small_checked = false;
    for (const auto& c : r->configs) {
      if (c.kind != ConfigKind::kSmall) continue;
      EXPECT_EQ(c.baseline_check.status, StageStatus::kPassed) << name << ": " << c.baseline_check.detail
                                                                << c.baseline_check.log;
      small_checked = true;
    }
    EXPECT_TRUE(small_checked) << name;
  }
}

TEST_F(KernelBenchImport, AnExistingTaskIsKeptUnlessOverwriteIsAsked) {
  auto importer = TaskImporterRegistry::Global().Create("kernelbench");
  ASSERT_TRUE(importer.ok());
  ImportOptions o{kSource, *root_ + "/tasks/torch2hip/kb", fs::current_path().string(), false};
  auto again = (*importer)->Import(o);
  ASSERT_TRUE(again.ok());
  for (const auto& out : *again) {
    if (out.source.find("7_scaled_relu") != std::string::npos) {
      EXPECT_NE(out.refused.find("exists"), std::string::npos) << out.refused;
    }
  }
  EXPECT_FALSE(ImportTasksRoot(*root_ + "/tasks/kb", "torch2hip").ok());
}

// AgentKernelArena folders: the PyTorch module of torch2hip and hip2hip
// ones (a class of any name, one input set per yielded case), each case a
// tuning configuration and a held-out one at other sizes; other task types
// are listed, not converted.
TEST(AkaImport, ModulesWithCasesBecomeTasksAndOtherTypesAreListed) {
  const std::string root = testing::TempDir() + "/aka_import";
  ASSERT_TRUE(ResetDir(root + "/tasks/torch2hip/aka").ok());
  auto importer = TaskImporterRegistry::Global().Create("aka");
  ASSERT_TRUE(importer.ok()) << importer.status().message();
  ImportOptions o{"plugins/torch2hip/importer/testdata/aka", root + "/tasks/torch2hip/aka",
                  fs::current_path().string(), false};
  auto outcomes = (*importer)->Import(o);
  ASSERT_TRUE(outcomes.ok()) << outcomes.status().message();
  // gelu_any_rank's cases have 1-D, 2-D and 3-D inputs: a task per rank.
  ASSERT_EQ(outcomes->size(), 6u);
  std::map<std::string, ImportOutcome> by;
  for (const auto& out : *outcomes) {
    const std::string key = fs::path(out.source).filename().string();
    by[key == "gelu_any_rank" ? fs::path(out.task_dir).filename().string() : key] = out;
  }
  for (const char* rank : {"1d", "2d", "3d"}) {
    const std::string name = std::string("tasks_hip2hip_samples_gelu_any_rank_") + rank;
    ASSERT_TRUE(by.count(name)) << name;
    auto t = LoadTask(root + "/tasks", by.at(name).task_dir + "/task.yaml");
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_EQ(t->inputs[0].shape.size(), static_cast<size_t>(rank[0] - '0'));
  }
  EXPECT_NE(by.at("add_one").refused.find("task_type 'triton2triton'"), std::string::npos)
      << by.at("add_one").refused;
  ASSERT_TRUE(by.at("softplus_rows").refused.empty()) << by.at("softplus_rows").refused;
  ASSERT_TRUE(by.at("row_max").refused.empty()) << by.at("row_max").refused;
  auto task = LoadTask(root + "/tasks", by.at("softplus_rows").task_dir + "/task.yaml");
  ASSERT_TRUE(task.ok()) << task.status().message();
  EXPECT_NE(task->description.find("AgentKernelArena tasks/torch2hip/samples/softplus_rows"), std::string::npos);
  ASSERT_EQ(task->inputs.size(), 2u);
  EXPECT_EQ(task->inputs[0].name, "x");  // the forward's own argument names
  EXPECT_EQ(task->inputs[1].name, "w");
  const auto tuning = task->ConfigsOfKind(ConfigKind::kTuning);
  const auto heldout = task->ConfigsOfKind(ConfigKind::kHeldout);
  ASSERT_EQ(tuning.size(), 3u);  // the module's three cases, at their sizes
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(tuning[k]->params["case"], k);
  EXPECT_EQ(tuning[1]->params["x_d0"], 1024);
  EXPECT_EQ(tuning[1]->name, "tuning_case1_1024x4096");  // named by its case and first input
  EXPECT_EQ(tuning[1]->params["x_d1"], 4096);
  ASSERT_GE(heldout.size(), 3u);
  for (const Configuration* h : heldout) {
    for (const Configuration* t : tuning) {
      if (h->params["case"] == t->params["case"]) {
        EXPECT_NE(h->params["x_d1"], t->params["x_d1"]);
      }
    }
  }
  // The reference (the module under its own name, the case picked from
  // the generator) passes its check on the CPU; nothing is no candidate.
  auto family = TaskFamilyRegistry::Global().Create("torch2hip");
  ASSERT_TRUE(family.ok());
  ASSERT_TRUE(ValidateTaskSafely(**family, *task).ok());
  // row_max's module takes keyword arguments ([args, {kwargs}]): they reach
  // it (keepdim=False: the output is one value per row).
  auto row_max = LoadTask(root + "/tasks", by.at("row_max").task_dir + "/task.yaml");
  ASSERT_TRUE(row_max.ok()) << row_max.status().message();
  ASSERT_EQ(row_max->outputs.size(), 1u);
  EXPECT_EQ(row_max->outputs[0].shape.size(), 1u);
  for (const TaskSpec* t : {&*task, &*row_max}) {
    ASSERT_TRUE(ResetDir(root + "/cand").ok());
    PipelineOptions p;
    p.work_dir = root + "/work";
    p.project_root = fs::current_path().string();
    p.stage_timeout_s = 120;
    auto r = EvaluateCandidate(*t, **family, root + "/cand", p);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->candidate_compile.detail.rfind("no candidate", 0), 0u);
    for (const auto& c : r->configs) {
      if (c.kind == ConfigKind::kSmall) {
        EXPECT_EQ(c.baseline_check.status, StageStatus::kPassed)
            << t->id << ": " << c.baseline_check.detail << c.baseline_check.log;
      }
    }
  }
}

}  // namespace
}  // namespace arena
