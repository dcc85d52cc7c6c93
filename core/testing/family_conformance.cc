#include "core/testing/family_conformance.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "core/family.h"
#include "core/files.h"
#include "core/pipeline.h"
#include "core/scoring.h"

namespace arena {
namespace fs = std::filesystem;

void RunFamilyConformance(const FamilyConformanceCase& c) {
  auto family = TaskFamilyRegistry::Global().Create(c.family);
  ASSERT_TRUE(family.ok()) << family.status().ToString();
  auto task = LoadTask(c.tasks_root, c.task_yaml);
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  ASSERT_TRUE(ValidateTaskSafely(**family, *task).ok());

  const std::string scratch = testing::TempDir() + "/conformance_" + c.family;
  ASSERT_TRUE(ResetDir(scratch).ok());
  DeviceDiscovery devices = DiscoverDevices();
  PipelineOptions o;
  o.device = devices.devices.empty() ? CpuDevice() : devices.devices.front();
  o.project_root = c.project_root;
  o.stage_timeout_s = 300;

  // The baseline as its own candidate: compiles, correct wherever checked.
  o.work_dir = scratch + "/baseline";
  auto same = EvaluateCandidate(*task, **family, task->dir, o);
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_TRUE(same->baseline_compile.passed()) << same->baseline_compile.detail
                                               << same->baseline_compile.log;
  EXPECT_TRUE(same->candidate_compile.passed()) << same->candidate_compile.detail;
  int checked = 0;
  for (const auto& cr : same->configs) {
    EXPECT_NE(cr.baseline_check.status, StageStatus::kFailed)
        << cr.name << ": " << cr.baseline_check.detail << "\n" << cr.baseline_check.log;
    if (cr.baseline_check.status == StageStatus::kSkipped) {
      EXPECT_FALSE(cr.baseline_check.detail.empty()) << cr.name << ": a skip must say why";
    } else {
      ++checked;
    }
    if (cr.timing.stage.status == StageStatus::kSkipped) {
      EXPECT_FALSE(cr.timing.stage.detail.empty()) << cr.name;
    }
    if (cr.timing.stage.status == StageStatus::kPassed) {
      EXPECT_GE(cr.timing.baseline.us.size(), 100u) << cr.name;
      EXPECT_EQ(cr.timing.baseline.us.size(), cr.timing.candidate.us.size());
      EXPECT_FALSE(cr.timing.method.empty());
    }
  }
  // What the family says it can check here is what it checked.
  const FamilyCapabilities caps = (*family)->Capabilities(o.device);
  const bool can_check = caps.baseline_checks != FamilyCapabilities::Checks::kNone ||
                         caps.candidate_checks != FamilyCapabilities::Checks::kNone;
  if (can_check) {
    EXPECT_GT(checked, 0) << "no configuration could be checked on this machine";
  } else {
    EXPECT_EQ(checked, 0) << "the family said it cannot check on " << o.device.Describe();
    EXPECT_FALSE(caps.why.empty()) << "a family that cannot check here must say why";
  }
  // The shipped files as the candidate: correct wherever this machine can
  // check a candidate; where it cannot (a family whose candidates need a
  // GPU), unchecked, and never counted as correct.
  const TaskScore same_score = ScoreTask(*same);
  if (same_score.configs_checked > 0) {
    EXPECT_TRUE(same_score.correct);
  } else {
    EXPECT_FALSE(same_score.correct) << "a task whose candidate was never checked counted as correct";
    EXPECT_FALSE(same_score.score.has_value());
  }

  // A broken candidate fails a gate; the family survives it.
  if (!c.broken_candidate.empty()) {
    const std::string broken_dir = scratch + "/broken_files";
    ASSERT_TRUE(CopyTree(task->dir, broken_dir).ok());
    for (const auto& [rel, text] : c.broken_candidate) {
      ASSERT_TRUE(WriteFileAtomic((fs::path(broken_dir) / rel).string(), text).ok());
    }
    o.work_dir = scratch + "/broken";
    auto broken = EvaluateCandidate(*task, **family, broken_dir, o);
    ASSERT_TRUE(broken.ok()) << broken.status().ToString();
    EXPECT_TRUE(broken->baseline_compile.passed());
    TaskScore s = ScoreTask(*broken);
    EXPECT_FALSE(s.correct) << "a broken candidate passed";
    if (caps.candidate_checks == FamilyCapabilities::Checks::kNone) {
      // Where candidates are only compiled, the broken one must not compile.
      EXPECT_EQ(broken->candidate_compile.status, StageStatus::kFailed)
          << "a compile-only family needs a broken candidate that does not compile";
    }
  }
}

}  // namespace arena
