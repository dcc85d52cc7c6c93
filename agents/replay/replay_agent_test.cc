#include <gtest/gtest.h>

#include "core/files.h"
#include "core/testing/agent_conformance.h"

namespace arena {
namespace {

TEST(ReplayAgent, ReplaysATreeLaidOutByTaskId) {
  const std::string subs = testing::TempDir() + "/submissions";
  ASSERT_TRUE(WriteFileAtomic(subs + "/fake/suite/alpha/kernel.fake", "time_us: 25\n").ok());
  AgentConformanceResult r = RunAgentConformance("replay", Json{{"submissions", subs}});
  EXPECT_TRUE(r.outcome.ok) << r.outcome.detail;
  EXPECT_EQ(*ReadFile(r.workspace + "/kernel.fake"), "time_us: 25\n");
}

TEST(ReplayAgent, ReplaysARunFolder) {
  const std::string run = testing::TempDir() + "/old_run";
  ASSERT_TRUE(
      WriteFileAtomic(run + "/tasks/fake__suite__alpha/candidate/kernel.fake", "time_us: 5\n").ok());
  AgentConformanceResult r = RunAgentConformance("replay", Json{{"submissions", run}});
  EXPECT_TRUE(r.outcome.ok) << r.outcome.detail;
  EXPECT_EQ(*ReadFile(r.workspace + "/kernel.fake"), "time_us: 5\n");
}

TEST(ReplayAgent, MissingSubmissionIsAnAgentFailure) {
  AgentConformanceResult r =
      RunAgentConformance("replay", Json{{"submissions", testing::TempDir() + "/nothing"}});
  EXPECT_FALSE(r.outcome.ok);
  EXPECT_NE(r.outcome.detail.find("no stored submission"), std::string::npos);
}

}  // namespace
}  // namespace arena
