#include "core/scoring.h"

#include <cmath>

#include <gtest/gtest.h>

namespace arena {
namespace {

StageOutcome Pass() { return StageOutcome::Passed(); }
StageOutcome Fail() { return StageOutcome::Failed("wrong"); }
StageOutcome Skip() { return StageOutcome::Skipped("skipped: no GPU"); }

ConfigResult Config(const std::string& name, ConfigKind kind, StageOutcome base, StageOutcome cand,
                    double t_base = 0, double t_cand = 0) {
  ConfigResult c;
  c.name = name;
  c.kind = kind;
  c.baseline_check = base;
  c.candidate_check = cand;
  if (t_base > 0) {
    c.timing.stage = Pass();
    c.timing.baseline.us = {t_base * 0.99, t_base, t_base * 1.5};  // median t_base
    c.timing.candidate.us = {t_cand, t_cand * 0.98, t_cand * 2};   // median t_cand
  } else {
    c.timing.stage = Skip();
  }
  return c;
}

TaskResult Task(std::vector<ConfigResult> configs, bool compiled = true) {
  TaskResult r;
  r.task_id = "f/s/t";
  r.baseline_compile = Pass();
  r.candidate_compile = compiled ? Pass() : StageOutcome::Failed("syntax error");
  r.integrity = Pass();
  r.configs = std::move(configs);
  return r;
}

TEST(Scoring, MeanAndGeometricMean) {
  EXPECT_DOUBLE_EQ(*Mean({1, 2, 6}), 3);
  EXPECT_NEAR(*GeometricMean({1, 2, 4}), 2.0, 1e-12);
  EXPECT_FALSE(Mean({}).has_value());
  EXPECT_FALSE(GeometricMean({1, 0}).has_value());
}

TEST(Scoring, PercentileInterpolates) {
  TimingSamples s;
  s.us = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(s.median(), 2.5);
  EXPECT_DOUBLE_EQ(s.percentile(0), 1);
  EXPECT_DOUBLE_EQ(s.percentile(100), 4);
}

TEST(Scoring, SpeedupsHandComputed) {
  // t_base / t_cand: 100/50 = 2, 90/30 = 3 (tuning); 80/80 = 1 (held-out).
  TaskResult r = Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 50),
                       Config("b", ConfigKind::kTuning, Pass(), Pass(), 90, 30),
                       Config("c", ConfigKind::kHeldout, Pass(), Pass(), 80, 80)});
  TaskScore s = ScoreTask(r);
  EXPECT_TRUE(s.correct);
  EXPECT_DOUBLE_EQ(*s.speedup_mean, 2.0);                       // (2+3+1)/3
  EXPECT_NEAR(*s.speedup_geomean, std::cbrt(6.0), 1e-12);       // (2*3*1)^(1/3)
  EXPECT_NEAR(*s.tuning_geomean, std::sqrt(6.0), 1e-12);
  EXPECT_NEAR(*s.heldout_geomean, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(*s.score, 120 + 100 * 2.0);
  EXPECT_EQ(s.quadrant, Quadrant::kBothPass);
}

// Interleaved rounds: the speedup is the median of the rounds' ratios.
// Here the candidate's second round was slowed by something beside it (the
// baseline's was not): the ratio of medians says 0.4, the rounds 0.909.
TEST(Scoring, PairedRoundsTakeTheMedianOfTheirRatios) {
  ConfigResult c = Config("c", ConfigKind::kTuning, Pass(), Pass());
  c.timing.stage = Pass();
  c.timing.baseline.us = {10, 12, 30};
  c.timing.candidate.us = {11, 30, 33};
  ASSERT_TRUE(c.speedup().has_value());
  EXPECT_NEAR(*c.speedup(), 12.0 / 30.0, 1e-12);  // not paired: the medians
  c.timing.paired = true;
  EXPECT_NEAR(*c.speedup(), 10.0 / 11.0, 1e-12);
  // Kept through the results' JSON.
  EXPECT_TRUE(ConfigResult::FromJson(c.ToJson()).timing.paired);
  EXPECT_NEAR(*ConfigResult::FromJson(c.ToJson()).speedup(), 10.0 / 11.0, 1e-12);
  // A round the judge measured as nothing leaves no speedup.
  c.timing.candidate.us[1] = 0;
  EXPECT_FALSE(c.speedup().has_value());
  // Samples that are not one per round of each (different counts) fall
  // back to the medians.
  c.timing.candidate.us = {11, 30};
  ASSERT_TRUE(c.speedup().has_value());
  EXPECT_NEAR(*c.speedup(), 12.0 / 20.5, 1e-12);
}

TEST(Scoring, NotCompiledScoresZero) {
  TaskScore s = ScoreTask(Task({Config("h", ConfigKind::kHeldout, Pass(), Skip())}, false));
  EXPECT_FALSE(s.compiled);
  EXPECT_DOUBLE_EQ(*s.score, 0);
  EXPECT_EQ(s.quadrant, Quadrant::kRegressed);
}

TEST(Scoring, WrongScoresTwentyAndHasNoSpeedup) {
  TaskScore s = ScoreTask(Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 10),
                                Config("h", ConfigKind::kHeldout, Pass(), Fail())}));
  EXPECT_TRUE(s.compiled);
  EXPECT_FALSE(s.correct);
  EXPECT_DOUBLE_EQ(*s.score, 20);
  EXPECT_FALSE(s.speedup_mean.has_value()) << "speedups of a wrong candidate must not count";
  EXPECT_EQ(s.quadrant, Quadrant::kRegressed);
}

TEST(Scoring, Quadrants) {
  EXPECT_EQ(ScoreTask(Task({Config("h", ConfigKind::kHeldout, Fail(), Fail())})).quadrant,
            Quadrant::kBothFail);
  EXPECT_EQ(ScoreTask(Task({Config("h", ConfigKind::kHeldout, Fail(), Pass())})).quadrant,
            Quadrant::kImproved);
  EXPECT_EQ(ScoreTask(Task({Config("h", ConfigKind::kHeldout, Skip(), Skip()),
                            Config("s", ConfigKind::kSmall, Pass(), Pass())}))
                .quadrant,
            Quadrant::kNotChecked);
}

TEST(Scoring, UntimedCorrectTaskHasNoScore) {
  TaskScore s = ScoreTask(Task({Config("s", ConfigKind::kSmall, Pass(), Pass())}));
  EXPECT_TRUE(s.correct);
  EXPECT_FALSE(s.score.has_value()) << "no speedup measured: no AgentKernelArena score";
}

TEST(Scoring, NothingCheckedIsNotCorrect) {
  TaskScore s = ScoreTask(Task({Config("h", ConfigKind::kHeldout, Skip(), Skip())}));
  EXPECT_FALSE(s.correct);
}

TEST(Scoring, UncheckedIsNotAFailedGate) {
  TaskResult unchecked = Task({Config("h", ConfigKind::kHeldout, Skip(), Skip())});
  EXPECT_FALSE(FailedAGate(unchecked));
  EXPECT_FALSE(ScoreTask(unchecked).correct);
  EXPECT_FALSE(ScoreTask(unchecked).score.has_value()) << "unchecked is not 'wrong' (20)";
  EXPECT_TRUE(FailedAGate(Task({Config("h", ConfigKind::kHeldout, Pass(), Fail())})));
  EXPECT_TRUE(FailedAGate(Task({Config("h", ConfigKind::kHeldout, Pass(), Skip())}, false)));
}

TEST(Scoring, IntegrityFailureIsNotCorrect) {
  TaskResult r = Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 50)});
  r.integrity = StageOutcome::Failed("harness modified");
  EXPECT_FALSE(ScoreTask(r).correct);
}

TEST(Scoring, FailingWhenTimedIsNotCorrect) {
  // Fast where it let itself be timed, crashed (or was caught) where it
  // was slow: the fast configuration's speedup must not become its score.
  ConfigResult slow = Config("slow", ConfigKind::kHeldout, Pass(), Pass(), 100, 400);
  slow.timing.stage = StageOutcome::Failed("candidate: runner exited with status 1 when timed");
  TaskResult r = Task({Config("fast", ConfigKind::kTuning, Pass(), Pass(), 100, 10), slow});
  EXPECT_TRUE(FailedWhenTimed(r.configs[1]));
  EXPECT_FALSE(FailedWhenTimed(r.configs[0]));
  TaskScore s = ScoreTask(r);
  EXPECT_FALSE(s.correct);
  EXPECT_DOUBLE_EQ(*s.score, 20);
  EXPECT_FALSE(s.speedup_mean.has_value());
  EXPECT_TRUE(FailedAGate(r));
  EXPECT_TRUE(FailedOnlyWhenTimed(r));
  r.configs[0].candidate_check = Fail();  // a failed check is "wrong" first
  EXPECT_FALSE(FailedOnlyWhenTimed(r));
  // Not timed because a check was skipped or the baseline was wrong is no
  // failure of the candidate's.
  ConfigResult untimed = Config("u", ConfigKind::kHeldout, Fail(), Pass());
  untimed.timing.stage = StageOutcome::Failed("harness error");
  EXPECT_FALSE(FailedWhenTimed(untimed));
  EXPECT_TRUE(ScoreTask(Task({Config("fast", ConfigKind::kTuning, Pass(), Pass(), 100, 10),
                              Config("s", ConfigKind::kSmall, Pass(), Pass())}))
                  .correct);
}

TEST(Scoring, RunSummaryHandComputed) {
  std::vector<TaskResult> run = {
      // Task 1: correct, speedups 2 (tuning) and 1 (held-out): mean 1.5, geomean sqrt 2.
      Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 50),
            Config("h", ConfigKind::kHeldout, Pass(), Pass(), 100, 100)}),
      // Task 2: correct, speedup 4 on tuning, 2 on held-out: mean 3, geomean sqrt 8.
      Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 25),
            Config("h", ConfigKind::kHeldout, Pass(), Pass(), 100, 50)}),
      // Task 3: overfit: fast on tuning, wrong on held-out.
      Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 10),
            Config("h", ConfigKind::kHeldout, Pass(), Fail())}),
      // Task 4: does not compile.
      Task({Config("h", ConfigKind::kHeldout, Pass(), Skip())}, false),
  };
  RunSummary s = Summarize(run);
  EXPECT_EQ(s.tasks, 4);
  EXPECT_EQ(s.compiled, 3);
  EXPECT_EQ(s.correct, 2);
  EXPECT_EQ(s.timed, 2);
  EXPECT_DOUBLE_EQ(*s.mean_speedup, 2.25);                           // (1.5 + 3) / 2
  EXPECT_NEAR(*s.geomean_speedup, std::sqrt(std::sqrt(2.0) * std::sqrt(8.0)), 1e-12);  // 2
  EXPECT_DOUBLE_EQ(*s.fast_p["1.0"], 0.5);   // tasks 1 and 2 of 4
  EXPECT_DOUBLE_EQ(*s.fast_p["1.5"], 0.25);  // task 2 only (1.5 is not > 1.5)
  EXPECT_DOUBLE_EQ(*s.fast_p["2.0"], 0.25);
  EXPECT_NEAR(*s.tuning_geomean, std::sqrt(2.0 * 4.0), 1e-12);   // correct tasks only
  EXPECT_NEAR(*s.heldout_geomean, std::sqrt(1.0 * 2.0), 1e-12);
  // Held-out: baseline correct on all four; candidate on tasks 1 and 2.
  EXPECT_EQ(s.heldout_baseline_correct, 4);
  EXPECT_EQ(s.heldout_both_correct, 2);
  EXPECT_DOUBLE_EQ(*s.conditional_correctness, 0.5);
  EXPECT_EQ(s.quadrants["both_pass"], 2);
  EXPECT_EQ(s.quadrants["optimization_regressed"], 2);
  // Scores: 120+150, 120+300, 20, 0 -> mean 182.5
  EXPECT_DOUBLE_EQ(*s.mean_score, (270.0 + 420.0 + 20.0 + 0.0) / 4);
}

TEST(Scoring, CountsConfigurationsOutsideTheNoiseBandByKind) {
  std::vector<TaskResult> run = {
      // Correct: tuning 2.0x and 1.01x (a tie), held-out 0.5x and 1.03x.
      Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 50),
            Config("b", ConfigKind::kTuning, Pass(), Pass(), 101, 100),
            Config("h", ConfigKind::kHeldout, Pass(), Pass(), 50, 100),
            Config("i", ConfigKind::kHeldout, Pass(), Pass(), 103, 100),
            Config("s", ConfigKind::kSmall, Pass(), Pass())}),
      // Wrong somewhere: its timings count nowhere.
      Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 10),
            Config("h", ConfigKind::kHeldout, Pass(), Fail())}),
  };
  RunSummary s = Summarize(run);
  EXPECT_EQ(s.tuning_configs.timed, 2);
  EXPECT_EQ(s.tuning_configs.faster, 1);
  EXPECT_EQ(s.tuning_configs.slower, 0);
  EXPECT_EQ(s.heldout_configs.timed, 2);
  EXPECT_EQ(s.heldout_configs.faster, 1);
  EXPECT_EQ(s.heldout_configs.slower, 1);
  EXPECT_EQ(DescribeConfigCounts(s),
            "per configuration: slower than the baseline by more than 2% on 0/2 tuning and 1/2 "
            "held-out, faster by more than 2% on 1/2 and 1/2");
  EXPECT_EQ(s.ToJson()["heldout_configs"]["slower"], 1);
  EXPECT_EQ(DescribeConfigCounts(Summarize({})), "") << "nothing timed, nothing to say";
}

TEST(Scoring, FastPIsUndefinedWhenNothingWasTimed) {
  RunSummary s = Summarize({Task({Config("s", ConfigKind::kSmall, Pass(), Pass())})});
  EXPECT_FALSE(s.fast_p["1.0"].has_value());
  EXPECT_FALSE(s.mean_speedup.has_value());
}

TEST(Scoring, ResultJsonRoundTrip) {
  TaskResult r = Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 50),
                       Config("h", ConfigKind::kHeldout, Pass(), Fail())});
  r.seed = 12345678901234ull;
  TaskResult back = TaskResult::FromJson(Json::parse(r.ToJson().dump()));
  EXPECT_EQ(back.ToJson(), r.ToJson());
  EXPECT_EQ(back.seed, r.seed);
}

TEST(Scoring, IntegrityFindingsAreCountedByKindPerRun) {
  StageOutcome lib = StageOutcome::Failed("integrity: ...");
  lib.metrics["integrity"] = {"library compute: aten::mm ran outside a Triton kernel",
                              "tampering: Tensor.sub was added"};
  StageOutcome timed = StageOutcome::Failed("integrity: ...");
  timed.metrics["integrity"] = {"candidate: a timed call's outputs are wrong (round 3): NaN"};
  TaskResult a = Task({Config("a", ConfigKind::kTuning, Pass(), lib)});
  TaskResult b = Task({Config("a", ConfigKind::kTuning, Pass(), Pass())});
  b.configs[0].timing.stage = timed;
  TaskResult clean = Task({Config("a", ConfigKind::kTuning, Pass(), Pass(), 100, 50)});
  EXPECT_EQ(IntegrityFindings(a).size(), 2u);
  EXPECT_TRUE(IntegrityFindings(clean).empty());
  RunSummary sum = Summarize({a, b, clean});
  EXPECT_EQ(sum.integrity_tasks, 2);
  EXPECT_EQ(sum.integrity_kinds["library compute"], 1);
  EXPECT_EQ(sum.integrity_kinds["tampering"], 1);
  EXPECT_EQ(sum.integrity_kinds["a timed call's outputs are wrong"], 1);
  EXPECT_EQ(DescribeIntegrity(sum),
            "integrity: findings against 2/3 task(s): a timed call's outputs are wrong 1, "
            "library compute 1, tampering 1");
  EXPECT_EQ(DescribeIntegrity(Summarize({clean})), "integrity: no findings");
  EXPECT_EQ(sum.ToJson()["integrity"]["tasks"], 2);
}

}  // namespace
}  // namespace arena
