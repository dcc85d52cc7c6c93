#include "core/testing/agent_conformance.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/run.h"

namespace arena {
namespace fs = std::filesystem;

AgentConformanceResult RunAgentConformance(const std::string& agent_name, const Json& config,
                                           const std::string& tasks_root_in,
                                           const std::string& task_yaml_in) {
  AgentConformanceResult result;
  std::string tasks_root = tasks_root_in.empty() ? "tests/testdata/tasks" : tasks_root_in;
  std::string task_yaml =
      task_yaml_in.empty() ? tasks_root + "/fake/suite/alpha/task.yaml" : task_yaml_in;
  auto task = LoadTask(tasks_root, task_yaml);
  EXPECT_TRUE(task.ok()) << task.status().ToString();
  if (!task.ok()) return result;

  auto agent = AgentRegistry::Global().Create(agent_name);
  EXPECT_TRUE(agent.ok()) << agent.status().ToString();
  if (!agent.ok()) return result;

  const std::string root = testing::TempDir() + "/agent_conformance_" + agent_name;
  EXPECT_TRUE(ResetDir(root).ok());
  result.workspace = root + "/workspace";
  EXPECT_TRUE(PrepareWorkspace(*task, result.workspace).ok());
  // What the agent may not see.
  for (const auto& rel : task->harness) {
    EXPECT_FALSE(fs::exists(fs::path(result.workspace) / rel)) << rel << " leaked";
  }
  auto ws_configs = ReadFile(result.workspace + "/configs.json");
  EXPECT_TRUE(ws_configs.ok());
  for (const auto* h : task->ConfigsOfKind(ConfigKind::kHeldout)) {
    EXPECT_EQ(ws_configs->find("\"" + h->name + "\""), std::string::npos)
        << "held-out configuration " << h->name << " leaked into the workspace";
  }

  AgentRequest req;
  req.task = &*task;
  req.workspace = result.workspace;
  req.config = config;
  req.time_budget_s = 60;
  auto outcome = (*agent)->Run(req);
  EXPECT_TRUE(outcome.ok()) << outcome.status().ToString();
  if (!outcome.ok()) return result;
  result.outcome = *outcome;
  EXPECT_GE(outcome->wall_s, 0);
  EXPECT_FALSE(outcome->transcript.empty() && outcome->ok) << "a transcript is expected";
  for (const auto& rel : task->editable) {
    EXPECT_TRUE(fs::exists(fs::path(result.workspace) / rel)) << rel << " vanished";
  }
  // Nothing written beside the workspace.
  for (const auto& entry : fs::directory_iterator(root)) {
    EXPECT_EQ(entry.path().filename(), "workspace") << entry.path() << " written outside";
  }
  return result;
}

}  // namespace arena
