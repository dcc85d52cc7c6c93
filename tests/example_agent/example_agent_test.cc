// The example agent through the conformance kit and through whole runs of
// the fake family: an edit that is faster is kept, one that is wrong or
// slower is reverted, and its configuration is checked against its schema.
#include <gtest/gtest.h>

#include "core/agent.h"
#include "core/files.h"
#include "core/run.h"
#include "core/scoring.h"
#include "core/testing/agent_conformance.h"

namespace arena {
namespace {

Json Replace(const std::string& from, const std::string& to) {
  return {{"replace", {{from, to}}}};
}

// The candidate the run evaluated for fake/suite/alpha, and its score.
std::pair<std::string, TaskScore> RunWith(const std::string& name, const Json& config) {
  const std::string runs = testing::TempDir() + "/example_" + name;
  EXPECT_TRUE(ResetDir(runs).ok());
  RunRequest r;
  r.agent = "example";
  r.agent_config = config;
  r.selector = "fake/suite/alpha";
  r.runs_dir = runs;
  r.tasks_root = "tests/testdata/tasks";
  r.project_root = ".";
  r.seed = 3;
  auto out = ExecuteRun(r);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  if (!out.ok() || out->results.size() != 1) return {"", TaskScore{}};
  auto kernel = ReadFile(runs + "/" + out->run_id + "/tasks/fake__suite__alpha/candidate/kernel.fake");
  EXPECT_TRUE(kernel.ok());
  return {kernel.ok() ? *kernel : "", ScoreTask(out->results[0])};
}

TEST(ExampleAgent, Conformance) {
  AgentConformanceResult r = RunAgentConformance("example", Replace("time_us: 100", "time_us: 50"));
  EXPECT_TRUE(r.outcome.ok) << r.outcome.detail;
  EXPECT_NE(r.outcome.transcript.find("replaced 1 place(s)"), std::string::npos)
      << r.outcome.transcript;
  EXPECT_EQ(*ReadFile(r.workspace + "/kernel.fake"), "compile: ok\ntime_us: 50\n");
}

TEST(ExampleAgent, KeepsAFasterCorrectEdit) {
  auto [kernel, score] = RunWith("faster", Replace("time_us: 100", "time_us: 50"));
  EXPECT_EQ(kernel, "compile: ok\ntime_us: 50\n");
  EXPECT_TRUE(score.correct);
  ASSERT_TRUE(score.speedup_mean.has_value());
  EXPECT_NEAR(*score.speedup_mean, 2.0, 1e-9);
}

TEST(ExampleAgent, RevertsAWrongEdit) {
  auto [kernel, score] =
      RunWith("wrong", Replace("time_us: 100", "time_us: 10\nwrong_on: [tuning]"));
  EXPECT_EQ(kernel, "compile: ok\ntime_us: 100\n");
  EXPECT_TRUE(score.correct);
}

TEST(ExampleAgent, RevertsASlowerEditUnlessToldToKeepIt) {
  EXPECT_EQ(RunWith("slower", Replace("time_us: 100", "time_us: 200")).first,
            "compile: ok\ntime_us: 100\n");
  Json keep = Replace("time_us: 100", "time_us: 200");
  keep["keep_slower"] = true;
  EXPECT_EQ(RunWith("kept", keep).first, "compile: ok\ntime_us: 200\n");
}

TEST(ExampleAgent, ItsConfigurationIsCheckedAgainstItsSchema) {
  auto agent = AgentRegistry::Global().Create("example");
  ASSERT_TRUE(agent.ok());
  auto none = DecodeAgentConfig(**agent, "example", "");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "no --agent-config given: example: missing section (replace)");
  const std::string path = testing::TempDir() + "/example.yaml";
  ASSERT_TRUE(WriteFileAtomic(path, "replace: {a: b}\ncheck_only: maybe\n").ok());
  auto bad = DecodeAgentConfig(**agent, "example", path);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), path + ":2:13: example.check_only: expected true or false");
  ASSERT_TRUE(WriteFileAtomic(path, "replace: {a: b}\ncheck_only: true\n").ok());
  auto good = DecodeAgentConfig(**agent, "example", path);
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_EQ(*good, Json::parse(R"({"replace": {"a": "b"}, "check_only": true})"));
}

}  // namespace
}  // namespace arena
