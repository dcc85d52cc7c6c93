// The Slurm executor's pure parts: the queue's answer read back per array
// element, and the batch script each element runs. The cluster itself is
// exercised end to end by //tests/slurm.
#include "core/slurm.h"

#include <gtest/gtest.h>

namespace arena {
namespace {

TEST(ParseSqueue, ElementsOfTheJobOnly) {
  const std::string text =
      "41_0|RUNNING\n41_3|COMPLETING\n42_0|PENDING\n41_[5-7,9%2]|PENDING\n141_1|RUNNING\n"
      "41|RUNNING\n41_x|RUNNING\ngarbage\n";
  auto m = ParseSqueue(text, "41");
  EXPECT_EQ(m.size(), 6u);
  EXPECT_EQ(m[0], "RUNNING");
  EXPECT_EQ(m[3], "COMPLETING");
  EXPECT_EQ(m[5], "PENDING");
  EXPECT_EQ(m[7], "PENDING");
  EXPECT_EQ(m[9], "PENDING");
  EXPECT_EQ(m.count(1), 0u);  // 141_1 is another job's
  EXPECT_TRUE(ParseSqueue(text, "").empty());
  EXPECT_TRUE(ParseSqueue("", "41").empty());
}

TEST(SlurmBatchScript, EachElementRunsOneTaskOfTheRunIntoItsOwnDatabase) {
  PreparedRun run;
  run.info.run_id = "noop-1";
  run.run_dir = "/runs/noop-1";
  run.req.agent = "noop";
  run.req.seed = 7;
  run.req.stage_timeout_s = 120;
  run.req.agent_config = {{"model", "m"}};
  SlurmOptions o;
  o.arena_binary = "/opt/arena's/arena";
  o.project_root = "/src";
  o.gpus = "all";
  const std::string s = SlurmBatchScript(run, o, 2, "/runs/noop-1/slurm/tasks-2.txt",
                                         "/runs/noop-1/slurm/elements", 3);
  EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
  EXPECT_NE(s.find("sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" '/runs/noop-1/slurm/tasks-2.txt'"),
            std::string::npos) << s;
  EXPECT_NE(s.find("elem='/runs/noop-1/slurm/elements/2-'\"$SLURM_ARRAY_TASK_ID\"\n"),
            std::string::npos) << s;
  EXPECT_NE(s.find("what=(--resume 'noop-1')"), std::string::npos) << s;
  EXPECT_NE(s.find("what=(--run-id 'noop-1' --agent 'noop' --tasks \"$task\")"), std::string::npos) << s;
  EXPECT_NE(s.find("exec '/opt/arena'\\''s/arena' --root '/src' run \"${what[@]}\" --runs-dir \"$elem\""),
            std::string::npos) << s;
  EXPECT_NE(s.find("--seed 7"), std::string::npos);
  EXPECT_NE(s.find("--agent-config '/runs/noop-1/slurm/agent-config.json'"), std::string::npos);
  EXPECT_NE(s.find("--gpus 'all'"), std::string::npos);
  run.req.seed = 0;
  run.req.agent_config = Json::object();
  o.gpus.clear();
  const std::string plain = SlurmBatchScript(run, o, 0, "/l", "/e", 1);
  EXPECT_EQ(plain.find("--seed"), std::string::npos);
  EXPECT_EQ(plain.find("--agent-config"), std::string::npos);
  EXPECT_EQ(plain.find("--gpus"), std::string::npos);
}

}  // namespace
}  // namespace arena
