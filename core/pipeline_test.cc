// The gated pipeline, driven by the test-only fake family.
#include "core/pipeline.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kRoot[] = "tests/testdata/tasks";

class PipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto t = LoadTask(kRoot, std::string(kRoot) + "/fake/suite/alpha/task.yaml");
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    task_ = *t;
    auto f = TaskFamilyRegistry::Global().Create("fake");
    ASSERT_TRUE(f.ok());
    family_ = std::move(*f);
    scratch_ = testing::TempDir() + "/pipeline_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(scratch_).ok());
  }

  TaskResult Evaluate(const std::string& kernel_fake) {
    const std::string cand = scratch_ + "/cand";
    EXPECT_TRUE(MakeDirs(cand).ok());
    std::ofstream(cand + "/kernel.fake") << kernel_fake;
    PipelineOptions o;
    o.work_dir = scratch_ + "/work";
    o.seed = 42;
    auto r = EvaluateCandidate(task_, *family_, cand, o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return *r;
  }

  TaskSpec task_;
  std::unique_ptr<TaskFamily> family_;
  std::string scratch_;
};

TEST_F(PipelineTest, CorrectAndFaster) {
  TaskResult r = Evaluate("time_us: 50\n");
  EXPECT_EQ(r.seed, 42u);
  ASSERT_EQ(r.configs.size(), 5u);  // small + 2 tuning + 2 held-out
  for (const auto& c : r.configs) {
    EXPECT_TRUE(c.candidate_check.passed()) << c.name;
    if (c.kind == ConfigKind::kSmall) {
      EXPECT_EQ(c.timing.stage.status, StageStatus::kSkipped) << "the small one is never timed";
      continue;
    }
    ASSERT_TRUE(c.speedup().has_value()) << c.name;
    EXPECT_NEAR(*c.speedup(), 2.0, 1e-9);
    EXPECT_EQ(c.timing.baseline.us.size(), 100u);
  }
  TaskScore s = ScoreTask(r);
  EXPECT_TRUE(s.correct);
  EXPECT_NEAR(*s.score, 320, 1e-6);
  EXPECT_TRUE(r.integrity.passed());
}

TEST_F(PipelineTest, CompileFailureStopsLaterStages) {
  TaskResult r = Evaluate("compile: \"error: expected ';'\"\n");
  EXPECT_EQ(r.candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(r.candidate_compile.log.find("expected ';'"), std::string::npos);
  for (const auto& c : r.configs) {
    EXPECT_EQ(c.candidate_check.status, StageStatus::kSkipped) << c.name;
    EXPECT_TRUE(c.baseline_check.passed()) << "the baseline is still checked";
    EXPECT_NE(c.timing.stage.status, StageStatus::kPassed);
  }
  EXPECT_DOUBLE_EQ(*ScoreTask(r).score, 0);
}

TEST_F(PipelineTest, WrongOnHeldOutIsRegressedAndUntimedThere) {
  TaskResult r = Evaluate("wrong_on: [heldout]\ntime_us: 10\n");
  for (const auto& c : r.configs) {
    if (c.kind == ConfigKind::kHeldout) {
      EXPECT_EQ(c.candidate_check.status, StageStatus::kFailed);
      EXPECT_EQ(c.timing.stage.status, StageStatus::kSkipped);
    } else if (c.kind == ConfigKind::kTuning) {
      EXPECT_TRUE(c.speedup().has_value()) << "configurations where both pass are still timed";
    }
  }
  TaskScore s = ScoreTask(r);
  EXPECT_FALSE(s.correct);
  EXPECT_EQ(s.quadrant, Quadrant::kRegressed);
  EXPECT_DOUBLE_EQ(*s.score, 20);
}

TEST_F(PipelineTest, AHangingCandidateIsNotWaitedForOnEveryConfiguration) {
  TaskResult r = Evaluate("hang_on: [all]\ntime_us: 10\n");
  int failed = 0, skipped = 0;
  for (const auto& c : r.configs) {
    EXPECT_TRUE(c.baseline_check.passed()) << c.name;
    if (c.candidate_check.status == StageStatus::kFailed) ++failed;
    if (c.candidate_check.status == StageStatus::kSkipped) {
      ++skipped;
      EXPECT_NE(c.candidate_check.detail.find("ran out of time on 2"), std::string::npos)
          << c.candidate_check.detail;
    }
  }
  EXPECT_EQ(failed, 2);
  EXPECT_EQ(skipped, static_cast<int>(r.configs.size()) - 2);
  EXPECT_FALSE(ScoreTask(r).correct);
}

TEST_F(PipelineTest, MissingEditableFileFailsCompile) {
  const std::string empty = scratch_ + "/empty";
  ASSERT_TRUE(MakeDirs(empty).ok());
  PipelineOptions o;
  o.work_dir = scratch_ + "/work";
  auto r = EvaluateCandidate(task_, *family_, empty, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(r->candidate_compile.detail.find("kernel.fake"), std::string::npos);
  EXPECT_NE(r->seed, 0u) << "a fresh seed is drawn and recorded";
}

TEST_F(PipelineTest, OnlyEditableFilesAreTakenFromTheCandidate) {
  const std::string cand = scratch_ + "/cand";
  ASSERT_TRUE(MakeDirs(cand).ok());
  std::ofstream(cand + "/kernel.fake") << "time_us: 100\n";
  std::ofstream(cand + "/reference.txt") << "a forged reference\n";
  PipelineOptions o;
  o.work_dir = scratch_ + "/work";
  auto r = EvaluateCandidate(task_, *family_, cand, o);
  ASSERT_TRUE(r.ok());
  auto staged = ReadFile(scratch_ + "/work/candidate/reference.txt");
  ASSERT_TRUE(staged.ok());
  EXPECT_EQ(*staged, "reference for alpha\n");
}

TEST_F(PipelineTest, HarnessTamperingFailsIntegrity) {
  TaskResult r = Evaluate("tamper: true\n");
  EXPECT_EQ(r.integrity.status, StageStatus::kFailed);
  EXPECT_NE(r.integrity.detail.find("reference.txt"), std::string::npos);
  EXPECT_FALSE(ScoreTask(r).correct);
}

TEST_F(PipelineTest, StagesAreReportedInOrder) {
  std::vector<std::string> seen;
  const std::string cand = scratch_ + "/cand";
  ASSERT_TRUE(MakeDirs(cand).ok());
  std::ofstream(cand + "/kernel.fake") << "time_us: 100\n";
  PipelineOptions o;
  o.work_dir = scratch_ + "/work";
  o.on_stage = [&](const std::string& s) { seen.push_back(s); };
  ASSERT_TRUE(EvaluateCandidate(task_, *family_, cand, o).ok());
  ASSERT_GE(seen.size(), 4u);
  EXPECT_EQ(seen[0], "compile baseline");
  EXPECT_EQ(seen[1], "compile candidate");
  EXPECT_EQ(seen[2], "check small baseline");
  EXPECT_EQ(seen[3], "check small candidate");
}

}  // namespace
}  // namespace arena
