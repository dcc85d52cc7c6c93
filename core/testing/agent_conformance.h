// A testonly battery every agent adapter runs:
//
//   TEST(MyAgent, Conformance) { RunAgentConformance("myagent", config); }
//
// It builds a workspace for a small task, runs the agent, and checks that the
// agent returns an outcome (not a crash), leaves the editable files in place,
// reports its wall time and transcript, and writes nothing outside the
// workspace's folder.
#ifndef ARENA_CORE_TESTING_AGENT_CONFORMANCE_H_
#define ARENA_CORE_TESTING_AGENT_CONFORMANCE_H_

#include <string>

#include "core/agent.h"

namespace arena {

struct AgentConformanceResult {
  AgentOutcome outcome;
  std::string workspace;
};

// Runs `agent` on the fake task tests/testdata/tasks/fake/suite/alpha (or
// `task_yaml` under `tasks_root`) and returns what happened for further checks.
AgentConformanceResult RunAgentConformance(const std::string& agent, const Json& config,
                                           const std::string& tasks_root = "",
                                           const std::string& task_yaml = "");

}  // namespace arena

#endif  // ARENA_CORE_TESTING_AGENT_CONFORMANCE_H_
