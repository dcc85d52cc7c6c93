// The gated pipeline, driven by the test-only fake family.
#include "core/pipeline.h"

#include <filesystem>
#include <fstream>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kRoot[] = "tests/testdata/tasks";

// Forwards to another family's session, counting what a reused session
// must not do again.
struct SessionCounts {
  int opened = 0;
  int closed = 0;
  int baseline_compiles = 0;
  int baseline_checks = 0;
  int candidate_checks = 0;
};

class CountingSession : public EvaluationSession {
 public:
  CountingSession(std::unique_ptr<EvaluationSession> inner, SessionCounts* counts)
      : inner_(std::move(inner)), counts_(counts) {}
  ~CountingSession() override { ++counts_->closed; }
  StageOutcome Compile(Subject subject) override {
    if (subject == Subject::kBaseline) ++counts_->baseline_compiles;
    return inner_->Compile(subject);
  }
  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    ++(subject == Subject::kBaseline ? counts_->baseline_checks : counts_->candidate_checks);
    return inner_->Check(subject, config, seed);
  }
  TimingOutcome Time(const Configuration& config) override { return inner_->Time(config); }

 private:
  std::unique_ptr<EvaluationSession> inner_;
  SessionCounts* counts_;
};

class CountingFamily : public TaskFamily {
 public:
  CountingFamily(const TaskFamily& inner, SessionCounts* counts) : inner_(inner), counts_(counts) {}
  Status ValidateTask(const TaskSpec& task) const override { return inner_.ValidateTask(task); }
  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const override {
    ++counts_->opened;
    ARENA_ASSIGN_OR_RETURN(std::unique_ptr<EvaluationSession> s, inner_.Open(ctx));
    return std::unique_ptr<EvaluationSession>(new CountingSession(std::move(s), counts_));
  }

 private:
  const TaskFamily& inner_;
  SessionCounts* counts_;
};

// A family whose code throws: on the candidate's check of `check_on`, and
// when timing `time_on` (as code meeting a reply of an unexpected shape
// would).
class ThrowingSession : public EvaluationSession {
 public:
  explicit ThrowingSession(std::unique_ptr<EvaluationSession> inner) : inner_(std::move(inner)) {}
  StageOutcome Compile(Subject subject) override { return inner_->Compile(subject); }
  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    if (subject == Subject::kCandidate && config.kind == ConfigKind::kTuning) {
      throw std::runtime_error("type must be number, but is null");
    }
    return inner_->Check(subject, config, seed);
  }
  TimingOutcome Time(const Configuration& config) override {
    if (config.kind == ConfigKind::kHeldout) throw std::out_of_range("key 'baseline_us' not found");
    return inner_->Time(config);
  }

 private:
  std::unique_ptr<EvaluationSession> inner_;
};

// A family whose sessions are another family's, each wrapped in a Session.
template <typename Session>
class WrappingFamily : public TaskFamily {
 public:
  explicit WrappingFamily(const TaskFamily& inner) : inner_(inner) {}
  Status ValidateTask(const TaskSpec& task) const override { return inner_.ValidateTask(task); }
  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const override {
    ARENA_ASSIGN_OR_RETURN(std::unique_ptr<EvaluationSession> s, inner_.Open(ctx));
    return std::unique_ptr<EvaluationSession>(new Session(std::move(s)));
  }

 private:
  const TaskFamily& inner_;
};
using ThrowingFamily = WrappingFamily<ThrowingSession>;

// A family whose baseline compile takes 100 ms of wall time but reports
// 10 ms of work, as a worker that had to start first replies.
class SlowStartSession : public EvaluationSession {
 public:
  explicit SlowStartSession(std::unique_ptr<EvaluationSession> inner) : inner_(std::move(inner)) {}
  StageOutcome Compile(Subject subject) override {
    StageOutcome o = inner_->Compile(subject);
    if (subject == Subject::kBaseline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      o.seconds = 0.01;
    }
    return o;
  }
  StageOutcome Check(Subject subject, const Configuration& config, uint64_t seed) override {
    return inner_->Check(subject, config, seed);
  }
  TimingOutcome Time(const Configuration& config) override { return inner_->Time(config); }

 private:
  std::unique_ptr<EvaluationSession> inner_;
};

using SlowStartFamily = WrappingFamily<SlowStartSession>;

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

  // Evaluates a candidate with `family` (the fake family where null).
  TaskResult Evaluate(const std::string& kernel_fake, const TaskFamily* family = nullptr) {
    const std::string cand = scratch_ + "/cand";
    EXPECT_TRUE(MakeDirs(cand).ok());
    std::ofstream(cand + "/kernel.fake") << kernel_fake;
    PipelineOptions o;
    o.work_dir = scratch_ + "/work";
    o.seed = 42;
    auto r = EvaluateCandidate(task_, family != nullptr ? *family : *family_, cand, o);
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

TEST_F(PipelineTest, CodeOfAFamilyThatThrowsFailsItsStageNotTheEvaluation) {
  ThrowingFamily family(*family_);
  const TaskResult result = Evaluate("time_us: 50\n", &family);
  const TaskResult* r = &result;
  int threw_checks = 0, threw_timings = 0, timed = 0;
  for (const auto& c : r->configs) {
    EXPECT_TRUE(c.baseline_check.passed()) << c.name;
    if (c.kind == ConfigKind::kTuning) {
      EXPECT_EQ(c.candidate_check.status, StageStatus::kFailed) << c.name;
      EXPECT_EQ(c.candidate_check.detail, "harness error");
      EXPECT_EQ(c.candidate_check.log, "the family's code threw: type must be number, but is null");
      ++threw_checks;
    } else if (c.kind == ConfigKind::kHeldout) {
      EXPECT_TRUE(c.candidate_check.passed()) << c.name;
      EXPECT_EQ(c.timing.stage.status, StageStatus::kFailed) << c.name;
      EXPECT_NE(c.timing.stage.log.find("key 'baseline_us' not found"), std::string::npos);
      ++threw_timings;
    }
    if (c.timing.stage.passed()) ++timed;
  }
  EXPECT_EQ(threw_checks, 2);
  EXPECT_EQ(threw_timings, 2);
  EXPECT_EQ(timed, 0);
  EXPECT_FALSE(ScoreTask(*r).correct);
}

TEST_F(PipelineTest, TimeOutsideWhatStagesMeasuredIsAPhaseOfItsOwn) {
  SlowStartFamily family(*family_);
  const TaskResult result = Evaluate("time_us: 50\n", &family);
  const TaskResult* r = &result;
  EXPECT_DOUBLE_EQ(r->baseline_compile.seconds, 0.01);
  EXPECT_GE(r->phases.value("harness_s", 0.0), 0.09);
  for (const char* k : {"stage_s", "open_s", "close_s"}) EXPECT_TRUE(r->phases.contains(k)) << k;
  EXPECT_GE(r->wall_s, 0.1);
  // Stored and read back.
  EXPECT_EQ(TaskResult::FromJson(r->ToJson()).phases, r->phases);
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

TEST_F(PipelineTest, AKernelThatHangsWhenTimedIsNotTimedOnEveryConfiguration) {
  TaskResult r = Evaluate("hang_timing_on: [all]\ntime_us: 10\n");
  int failed = 0, skipped = 0;
  for (const auto& c : r.configs) {
    if (c.kind == ConfigKind::kSmall) continue;
    EXPECT_TRUE(c.candidate_check.passed()) << c.name;
    if (c.timing.stage.status == StageStatus::kFailed) ++failed;
    if (c.timing.stage.status == StageStatus::kSkipped) {
      ++skipped;
      EXPECT_NE(c.timing.stage.detail.find("timing ran out of time on 2"), std::string::npos)
          << c.timing.stage.detail;
    }
  }
  EXPECT_EQ(failed, 2);
  EXPECT_GT(skipped, 0);
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

TEST_F(PipelineTest, AReusedSessionCompilesTheBaselineOnceAndEveryCandidateAfresh) {
  SessionCounts counts;
  CountingFamily family(*family_, &counts);
  SessionReuse reuse;
  const std::string cand = scratch_ + "/cand";
  ASSERT_TRUE(MakeDirs(cand).ok());
  PipelineOptions o;
  o.work_dir = scratch_ + "/work";
  o.reuse = &reuse;

  std::ofstream(cand + "/kernel.fake") << "time_us: 50\n";
  auto first = EvaluateCandidate(task_, family, cand, o);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  std::ofstream(cand + "/kernel.fake") << "time_us: 25\n";
  auto second = EvaluateCandidate(task_, family, cand, o);
  ASSERT_TRUE(second.ok()) << second.status().ToString();

  EXPECT_EQ(counts.opened, 1);
  EXPECT_EQ(counts.baseline_compiles, 1);
  EXPECT_EQ(counts.closed, 0) << "the session stays open between evaluations";
  EXPECT_EQ(reuse.evaluations(), 2);
  EXPECT_TRUE(second->baseline_compile.passed());
  EXPECT_EQ(second->baseline_compile.seconds, 0);
  EXPECT_TRUE(second->baseline_compile.metrics.value("compiled_by_an_earlier_evaluation", false));
  EXPECT_EQ(first->seed, second->seed) << "a session's calls share its first call's seed";
  // The second candidate, not the first, was compiled and timed.
  const ConfigResult& tuning = second->configs[1];
  ASSERT_TRUE(tuning.speedup().has_value());
  EXPECT_NEAR(*tuning.speedup(), 4.0, 1e-9);
  EXPECT_NEAR(*first->configs[1].speedup(), 2.0, 1e-9);
  EXPECT_TRUE(second->integrity.passed());
  // The baseline was checked on every configuration by the first evaluation
  // only; the second checked the candidate alone, and says so.
  const int configs = static_cast<int>(first->configs.size());
  EXPECT_EQ(counts.baseline_checks, configs);
  EXPECT_EQ(counts.candidate_checks, 2 * configs);
  EXPECT_FALSE(first->configs[1].baseline_check.metrics.value("checked_by_an_earlier_evaluation", false));
  EXPECT_TRUE(tuning.baseline_check.passed());
  EXPECT_TRUE(tuning.baseline_check.metrics.value("checked_by_an_earlier_evaluation", false));
  EXPECT_NE(tuning.baseline_check.detail.find("seed " + std::to_string(first->seed)),
            std::string::npos)
      << tuning.baseline_check.detail;

  // Another folder is another session; Close ends the open one.
  o.work_dir = scratch_ + "/work2";
  ASSERT_TRUE(EvaluateCandidate(task_, family, cand, o).ok());
  EXPECT_EQ(counts.opened, 2);
  EXPECT_EQ(counts.closed, 1);
  reuse.Close();
  EXPECT_EQ(counts.closed, 2);
}

TEST_F(PipelineTest, WithoutReuseEveryEvaluationHasItsOwnSession) {
  SessionCounts counts;
  CountingFamily family(*family_, &counts);
  const std::string cand = scratch_ + "/cand";
  ASSERT_TRUE(MakeDirs(cand).ok());
  std::ofstream(cand + "/kernel.fake") << "time_us: 50\n";
  PipelineOptions o;
  o.work_dir = scratch_ + "/work";
  ASSERT_TRUE(EvaluateCandidate(task_, family, cand, o).ok());
  ASSERT_TRUE(EvaluateCandidate(task_, family, cand, o).ok());
  EXPECT_EQ(counts.opened, 2);
  EXPECT_EQ(counts.closed, 2) << "ended before each integrity check";
  EXPECT_EQ(counts.baseline_compiles, 2);
  EXPECT_EQ(counts.baseline_checks, counts.candidate_checks) << "a recorded result checks both";
}

}  // namespace
}  // namespace arena
