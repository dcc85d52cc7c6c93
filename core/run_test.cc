// Runs of the noop agent over the fake tasks, in process.
#include "core/run.h"

#include <sys/stat.h>

#include <filesystem>
#include <stdexcept>

#include <gtest/gtest.h>

#include "core/agent.h"
#include "core/files.h"
#include "core/report.h"
#include "core/results_store.h"
#include "core/testing/unprivileged.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

// An agent that leaves its editable file, and the workspace holding it,
// unreadable to their owner.
class LockingAgent : public AgentAdapter {
 public:
  Result<AgentOutcome> Run(const AgentRequest& request) override {
    chmod((request.workspace + "/kernel.fake").c_str(), 0);
    chmod(request.workspace.c_str(), 0);
    AgentOutcome o;
    o.ok = true;
    return o;
  }
};
ARENA_REGISTER_AGENT("test-locking", LockingAgent);

// An agent whose adapter throws, as one meeting a reply of an unexpected
// shape would.
class ThrowingAgent : public AgentAdapter {
 public:
  Result<AgentOutcome> Run(const AgentRequest&) override {
    throw std::runtime_error("type must be string, but is number");
  }
};
ARENA_REGISTER_AGENT("test-throwing", ThrowingAgent);

RunRequest Request(const std::string& runs_dir) {
  RunRequest r;
  r.agent = "noop";
  r.selector = "fake";
  r.runs_dir = runs_dir;
  r.tasks_root = "tests/testdata/tasks";
  r.project_root = ".";
  r.seed = 7;
  return r;
}

TEST(Run, NoopRunEvaluatesEveryTaskAndWritesTheRunFolder) {
  const std::string runs = testing::TempDir() + "/run_noop";
  ASSERT_TRUE(ResetDir(runs).ok());
  auto out = ExecuteRun(Request(runs));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->results.size(), 3u);
  EXPECT_EQ(out->evaluated_now, 3);
  for (const auto& r : out->results) {
    TaskScore s = ScoreTask(r);
    EXPECT_TRUE(s.correct) << r.task_id;
    EXPECT_NEAR(*s.speedup_mean, 1.0, 1e-12) << "noop is A versus A";
  }
  fs::path dir = fs::path(runs) / out->run_id;
  EXPECT_TRUE(fs::exists(dir / "run.json"));
  EXPECT_TRUE(fs::exists(dir / "summary.json"));
  EXPECT_TRUE(fs::exists(dir / "tasks/fake__suite__alpha/result.json"));
  EXPECT_TRUE(fs::exists(dir / "tasks/fake__suite__alpha/candidate/kernel.fake"));
  EXPECT_FALSE(fs::exists(dir / "tasks/fake__suite__alpha/candidate/reference.txt"));
  auto store = ResultsStore::Open((fs::path(runs) / "arena.db").string());
  EXPECT_EQ((*store)->GetRun(out->run_id)->status, "finished");
}

TEST(Run, ResumeSkipsFinishedTasks) {
  const std::string runs = testing::TempDir() + "/run_resume";
  ASSERT_TRUE(ResetDir(runs).ok());
  auto first = ExecuteRun(Request(runs));
  ASSERT_TRUE(first.ok());
  RunRequest again = Request(runs);
  again.resume = true;
  again.run_id = first->run_id;
  auto second = ExecuteRun(again);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(second->evaluated_now, 0);
  EXPECT_EQ(second->skipped_finished, 3);
  EXPECT_EQ(ReportJson(RunInfo(), second->results), ReportJson(RunInfo(), first->results));
}

TEST(Run, AResumeKeepsTheOptionsTheRunStartedWith) {
  const std::string runs = testing::TempDir() + "/run_options";
  ASSERT_TRUE(ResetDir(runs).ok());
  RunRequest first = Request(runs);
  first.agent_time_budget_s = 20;
  first.stage_timeout_s = 45;
  auto out = ExecuteRun(first);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto store = ResultsStore::Open((fs::path(runs) / "arena.db").string());
  auto info = (*store)->GetRun(out->run_id);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->options, RunOptions(first));
  EXPECT_EQ(out->results[0].agent.value("budget_s", 0.0), 20);
  EXPECT_NE(FormatTextReport(*info, out->results).find("s/20s fb=0"), std::string::npos);
  EXPECT_NE(FormatTextReport(*info, out->results)
                .find("options agent budget 20 s per task, stage timeout 45 s, seed 7\n"),
            std::string::npos)
      << FormatTextReport(*info, out->results);

  // The command that resumes gives other values (or none): the stored win.
  RunRequest again = Request(runs);
  again.seed = 0;
  again.agent_time_budget_s = 600;
  again.stage_timeout_s = 300;
  ApplyStoredOptions(*info, &again);
  EXPECT_EQ(again.seed, 7u);
  EXPECT_EQ(again.agent_time_budget_s, 20);
  EXPECT_EQ(again.stage_timeout_s, 45);

  // A run stored before options were recorded keeps the request's.
  RunInfo older = *info;
  older.options = Json::object();
  RunRequest old_resume = Request(runs);
  old_resume.agent_time_budget_s = 25;
  ApplyStoredOptions(older, &old_resume);
  EXPECT_EQ(old_resume.agent_time_budget_s, 25);
  EXPECT_EQ(old_resume.stage_timeout_s, 600);
}

TEST(Run, WhatTheAgentMadeUnreadableIsTakenAsItIs) {
  // Its own files: made readable again and evaluated, not an error that
  // stops the run (and every --resume of it) at this task.
  // As their owner (root would read them anyway): the tasks and the runs
  // in a folder of /tmp, whose path that user can walk.
  char tmpl[] = "/tmp/arena-locking-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  fs::copy("tests/testdata/tasks", dir + "/tasks", fs::copy_options::recursive);
  const int status = testing_support::AsUnprivileged(dir, [&] {
    RunRequest req = Request(dir + "/runs");
    req.tasks_root = dir + "/tasks";
    req.agent = "test-locking";
    auto out = ExecuteRun(req);
    if (!out.ok() || out->results.size() != 3) {
      fprintf(stderr, "run: %s\n", out.ok() ? "not 3 results" : out.status().ToString().c_str());
      return false;
    }
    for (const auto& r : out->results) {
      if (!ScoreTask(r).correct) {
        fprintf(stderr, "%s: not correct\n", r.task_id.c_str());
        return false;
      }
    }
    return true;
  });
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add | fs::perm_options::nofollow, ec);
  }
  fs::remove_all(dir, ec);
  EXPECT_EQ(status, 0);
}

TEST(Run, AnAdapterThatThrowsFailsItsTasksNotTheRun) {
  const std::string runs = testing::TempDir() + "/run_throwing";
  ASSERT_TRUE(ResetDir(runs).ok());
  RunRequest req = Request(runs);
  req.agent = "test-throwing";
  auto out = ExecuteRun(req);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->results.size(), 3u);
  for (const auto& r : out->results) {
    EXPECT_EQ(r.candidate_compile.status, StageStatus::kFailed) << r.task_id;
    EXPECT_NE(r.candidate_compile.detail.find("the agent's adapter threw: type must be string"),
              std::string::npos)
        << r.candidate_compile.detail;
  }
}

TEST(Run, TheVerdictOfATaskThatFailedWhenTimedSaysSo) {
  TaskResult r;
  r.candidate_compile = StageOutcome::Passed();
  r.integrity = StageOutcome::Passed();
  ConfigResult c;
  c.name = "t";
  c.baseline_check = StageOutcome::Passed();
  c.candidate_check = StageOutcome::Passed();
  c.timing.stage = StageOutcome::Failed("candidate: runner exited with status 4");
  r.configs = {c};
  EXPECT_EQ(TaskVerdict(r), "FAILED WHEN TIMED");
  r.configs[0].timing.stage = StageOutcome::Skipped("skipped: no GPU");
  EXPECT_EQ(TaskVerdict(r), "correct");
  r.configs[0].candidate_check = StageOutcome::Failed("wrong");
  EXPECT_EQ(TaskVerdict(r), "WRONG");
}

TEST(Run, UnknownAgentIsBadInput) {
  RunRequest r = Request(testing::TempDir() + "/run_bad");
  r.agent = "nobody";
  auto out = ExecuteRun(r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
}

TEST(Run, ResumeOfUnknownRunIsNotFound) {
  RunRequest r = Request(testing::TempDir() + "/run_unknown");
  r.resume = true;
  r.run_id = "no-such-run";
  EXPECT_EQ(ExecuteRun(r).status().code(), StatusCode::kNotFound);
}

TEST(Run, WorkspaceHoldsOnlyWhatTheAgentMaySee) {
  auto task = LoadTask("tests/testdata/tasks", "tests/testdata/tasks/fake/suite/beta/task.yaml");
  ASSERT_TRUE(task.ok());
  const std::string ws = testing::TempDir() + "/ws";
  ASSERT_TRUE(PrepareWorkspace(*task, ws).ok());
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(ws)) names.insert(e.path().filename());
  EXPECT_EQ(names, (std::set<std::string>{"INSTRUCTIONS.md", "configs.json", "kernel.fake"}));
  auto configs = ReadFile(ws + "/configs.json");
  EXPECT_NE(configs->find("\"t1\""), std::string::npos);
  EXPECT_EQ(configs->find("\"h1\""), std::string::npos) << "held-out configuration leaked";
  EXPECT_EQ(configs->find("small"), std::string::npos);
}

TEST(Run, AFamilysReadOnlyFilesJoinTheWorkspace) {
  auto task = LoadTask("tests/testdata/tasks", "tests/testdata/tasks/fake/suite/beta/task.yaml");
  ASSERT_TRUE(task.ok());
  const std::string ws = testing::TempDir() + "/ws_extra";
  const std::string header = testing::TempDir() + "/abi.h";
  ASSERT_TRUE(WriteFileAtomic(header, "// the ABI\n").ok());
  ASSERT_TRUE(PrepareWorkspace(*task, ws, {{"abi.h", header}}).ok());
  EXPECT_EQ(*ReadFile(ws + "/abi.h"), "// the ABI\n");
  EXPECT_TRUE(fs::exists(ws + "/kernel.fake"));
  EXPECT_FALSE(PrepareWorkspace(*task, ws, {{"abi.h", header + ".missing"}}).ok());
}

}  // namespace
}  // namespace arena
