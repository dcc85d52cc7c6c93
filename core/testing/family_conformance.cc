#include "core/testing/family_conformance.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "core/family.h"
#include "core/files.h"
#include "core/pipeline.h"
#include "core/scoring.h"
#include "core/validation.h"

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

  // The shipped files as their own candidate, through the same validation
  // as `arena tasks --validate` (core/validation.h): they compile, are
  // correct wherever checked, vary with their inputs, and are checked
  // exactly where the family's capabilities say.
  const TaskValidation v =
      ValidateTaskBaseline(*task, **family, o.device, c.project_root, scratch + "/baseline");
  ASSERT_TRUE(v.status.ok()) << v.status.ToString();
  const TaskResult* same = &v.result;
  if (task->starter) {
    ASSERT_TRUE(same->candidate_compile.passed()) << same->candidate_compile.detail;
  }
  for (const auto& cr : same->configs) {
    if (cr.timing.stage.status == StageStatus::kPassed) {
      EXPECT_GE(cr.timing.baseline.us.size(), 100u) << cr.name;
    }
  }
  const FamilyCapabilities caps = (*family)->Capabilities(o.device);
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
