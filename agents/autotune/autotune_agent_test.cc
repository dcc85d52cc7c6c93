// The autotune agent through a whole run: workspace, feedback, take-back,
// evaluation on held-out configurations.
#include <gtest/gtest.h>

#include "core/files.h"
#include "core/run.h"
#include "core/testing/agent_conformance.h"

namespace arena {
namespace {

RunRequest Request(const std::string& runs, uint64_t seed, int max_evals) {
  RunRequest r;
  r.agent = "autotune";
  r.agent_config = {{"max_evals", max_evals}};
  r.selector = "fake/tune";
  r.runs_dir = runs;
  r.tasks_root = "tests/testdata/tunable/tasks";
  r.project_root = ".";
  r.seed = seed;
  return r;
}

std::string Candidate(const std::string& runs, const std::string& run_id) {
  return *ReadFile(runs + "/" + run_id + "/tasks/fake__tune__knobs/candidate/kernel.fake");
}

TEST(AutotuneAgent, FindsTheFastestCorrectVariant) {
  const std::string runs = testing::TempDir() + "/autotune_runs";
  ASSERT_TRUE(ResetDir(runs).ok());
  auto out = ExecuteRun(Request(runs, 5, 40));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->results.size(), 1u);
  const TaskResult& r = out->results[0];
  TaskScore s = ScoreTask(r);
  EXPECT_TRUE(s.correct);
  // Baseline BLOCK=64 WARPS=1: 244.14 us; the optimum BLOCK=256 WARPS=4: 100 us.
  ASSERT_TRUE(s.speedup_mean.has_value());
  EXPECT_NEAR(*s.speedup_mean, 2.44140625, 1e-6);
  std::string kernel = Candidate(runs, out->run_id);
  EXPECT_NE(kernel.find("BLOCK = 256\n"), std::string::npos) << kernel;
  EXPECT_NE(kernel.find("WARPS = 4\n"), std::string::npos) << kernel;
  EXPECT_GT(r.agent.value("feedback_calls", 0), 5);
  EXPECT_LE(r.agent.value("feedback_calls", 0), 40);
}

TEST(AutotuneAgent, DeterministicForASeedAndWithinBudget) {
  const std::string a = testing::TempDir() + "/autotune_a", b = testing::TempDir() + "/autotune_b";
  ASSERT_TRUE(ResetDir(a).ok());
  ASSERT_TRUE(ResetDir(b).ok());
  auto first = ExecuteRun(Request(a, 9, 4));
  auto second = ExecuteRun(Request(b, 9, 4));
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*ReadFile(a + "/" + first->run_id + "/tasks/fake__tune__knobs/agent.log"),
            *ReadFile(b + "/" + second->run_id + "/tasks/fake__tune__knobs/agent.log"));
  EXPECT_EQ(first->results[0].agent.value("feedback_calls", 0), 4);
}

TEST(AutotuneAgent, WithoutTunablesSubmitsTheBaseline) {
  AgentConformanceResult r = RunAgentConformance("autotune", Json::object());
  // The conformance kit gives no feedback function: the fake task there has
  // no tunables, so none is needed.
  EXPECT_TRUE(r.outcome.ok) << r.outcome.detail;
  EXPECT_NE(r.outcome.transcript.find("no tunables"), std::string::npos);
}

}  // namespace
}  // namespace arena
