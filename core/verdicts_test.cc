#include "core/verdicts.h"

#include <gtest/gtest.h>

namespace arena {
namespace {

ConfigResult Config(const std::string& name, StageStatus status) {
  ConfigResult c;
  c.name = name;
  c.candidate_check.status = status;
  return c;
}

// A result of submission `candidate` on `device`, every stage as given.
TaskResult Result(const std::string& candidate, const std::string& device, StageStatus compile,
                  std::vector<ConfigResult> configs, const std::string& task_hash = "t1") {
  TaskResult r;
  r.task_id = "fam/suite/task";
  r.provenance = {{"task_hash", task_hash},
                  {"candidate_hash", candidate},
                  {"scoring_version", 1},
                  {"device", device},
                  {"arch", device == "cpu" ? "" : "sm_90"}};
  r.candidate_compile.status = compile;
  r.integrity.status = compile;
  r.configs = std::move(configs);
  return r;
}

std::vector<std::pair<RunInfo, std::vector<TaskResult>>> Committed(
    std::vector<TaskResult> results, const std::string& run = "gpu-run") {
  RunInfo info;
  info.run_id = run;
  return {{info, std::move(results)}};
}

const auto kPass = StageStatus::kPassed;
const auto kFail = StageStatus::kFailed;
const auto kSkip = StageStatus::kSkipped;

TEST(Verdicts, TheSameVerdictOnTheSameDeviceIsUnchanged) {
  auto gpu = Result("c1", "H200", kPass, {Config("small", kPass), Config("heldout_a", kFail)});
  auto checks = CheckVerdicts({gpu}, Committed({gpu}));
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_TRUE(checks[0].ok()) << FormatVerdictChecks(checks);
  EXPECT_TRUE(checks[0].same_device);
  EXPECT_EQ(checks[0].compared, 4);
  EXPECT_EQ(checks[0].committed_run, "gpu-run");
}

TEST(Verdicts, AnyCheckThatChangedOrWasLeftOutIsNamed) {
  auto then = Result("c1", "H200", kPass,
                     {Config("small", kPass), Config("heldout_a", kFail), Config("tuning_b", kPass)});
  auto now = Result("c1", "H200", kPass, {Config("small", kPass), Config("heldout_a", kPass)});
  auto checks = CheckVerdicts({now}, Committed({then}));
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_FALSE(checks[0].ok());
  ASSERT_EQ(checks[0].changes.size(), 2u);
  EXPECT_EQ(checks[0].changes[0], "check heldout_a: failed, now passed");
  EXPECT_EQ(checks[0].changes[1], "check tuning_b: passed, now not evaluated");
  // On the same device, a check skipped now is a change as well.
  now.configs.push_back(Config("tuning_b", kSkip));
  checks = CheckVerdicts({now}, Committed({then}));
  ASSERT_EQ(checks[0].changes.size(), 2u);
  EXPECT_EQ(checks[0].changes[1], "check tuning_b: passed, now skipped");
  EXPECT_NE(FormatVerdictChecks(checks).find("CHANGED"), std::string::npos);
}

TEST(Verdicts, AnotherDeviceComparesWhatRanOnBoth) {
  auto gpu = Result("c1", "H200", kPass,
                    {Config("small", kPass), Config("heldout_a", kFail), Config("tuning_b", kPass)});
  // The CPU checked the small configuration only.
  auto cpu = Result("c1", "cpu", kPass,
                    {Config("small", kPass), Config("heldout_a", kSkip), Config("tuning_b", kSkip)});
  auto checks = CheckVerdicts({cpu}, Committed({gpu}));
  EXPECT_TRUE(checks[0].ok()) << FormatVerdictChecks(checks);
  EXPECT_FALSE(checks[0].same_device);
  EXPECT_EQ(checks[0].compared, 3);  // compile, integrity, small
  cpu.configs[0].candidate_check.status = kFail;
  checks = CheckVerdicts({cpu}, Committed({gpu}));
  ASSERT_EQ(checks[0].changes.size(), 1u);
  EXPECT_EQ(checks[0].changes[0], "check small: passed, now failed");
  // Nothing that ran on both: not a pass.
  auto nothing = Result("c1", "cpu", kSkip, {Config("small", kSkip)});
  checks = CheckVerdicts({nothing}, Committed({gpu}));
  EXPECT_FALSE(checks[0].ok());
  EXPECT_NE(checks[0].problem.find("nothing that ran here"), std::string::npos);
}

TEST(Verdicts, PrefersTheSameDeviceThenTheLatestRun) {
  auto gpu_old = Result("c1", "H200", kPass, {Config("small", kFail)});
  auto gpu_new = Result("c1", "H200", kPass, {Config("small", kPass)});
  auto cpu = Result("c1", "cpu", kPass, {Config("small", kFail)});
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> committed;
  for (auto [run, r] : {std::pair{"old", gpu_old}, {"cpu", cpu}, {"new", gpu_new}}) {
    auto c = Committed({r}, run);
    committed.push_back(c[0]);
  }
  auto checks = CheckVerdicts({gpu_new}, committed);
  EXPECT_EQ(checks[0].committed_run, "new");
  EXPECT_TRUE(checks[0].ok());
  checks = CheckVerdicts({cpu}, committed);
  EXPECT_EQ(checks[0].committed_run, "cpu");
  EXPECT_TRUE(checks[0].same_device);
}

TEST(Verdicts, OtherFilesOrAnotherTaskVersionAreProblemsNotPasses) {
  auto gpu = Result("c1", "H200", kPass, {Config("small", kPass)});
  auto other = Result("c2", "H200", kPass, {Config("small", kPass)});
  auto checks = CheckVerdicts({other}, Committed({gpu}));
  EXPECT_FALSE(checks[0].ok());
  EXPECT_NE(checks[0].problem.find("other files"), std::string::npos);
  auto changed_task = Result("c1", "H200", kPass, {Config("small", kPass)}, "t2");
  checks = CheckVerdicts({changed_task}, Committed({gpu}));
  EXPECT_NE(checks[0].problem.find("task's files changed"), std::string::npos);
  auto unhashed = gpu;
  unhashed.provenance.erase("candidate_hash");
  checks = CheckVerdicts({unhashed}, Committed({gpu}));
  EXPECT_NE(checks[0].problem.find("no submission hash"), std::string::npos);
  checks = CheckVerdicts({gpu}, Committed({}));
  EXPECT_EQ(checks[0].problem, "no committed verdict for this task");
  EXPECT_NE(FormatVerdictChecks(checks).find("0 of 1 submission(s) kept their verdicts"),
            std::string::npos);
}

}  // namespace
}  // namespace arena
