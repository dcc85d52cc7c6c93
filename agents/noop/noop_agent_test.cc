#include <gtest/gtest.h>

#include "core/files.h"
#include "core/testing/agent_conformance.h"

namespace arena {
namespace {

TEST(NoopAgent, Conformance) {
  AgentConformanceResult r = RunAgentConformance("noop", Json::object());
  EXPECT_TRUE(r.outcome.ok);
  auto kernel = ReadFile(r.workspace + "/kernel.fake");
  ASSERT_TRUE(kernel.ok());
  EXPECT_EQ(*kernel, "compile: ok\ntime_us: 100\n") << "noop must leave the baseline as it is";
}

}  // namespace
}  // namespace arena
