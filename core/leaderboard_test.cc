#include "core/leaderboard.h"

#include <cmath>
#include <cstdio>
#include <map>

#include <gtest/gtest.h>

#include "core/provenance.h"

namespace arena {
namespace {

ConfigResult Timed(const std::string& name, ConfigKind kind, double t_base, double t_cand,
                   bool candidate_ok = true) {
  ConfigResult c;
  c.name = name;
  c.kind = kind;
  c.baseline_check = StageOutcome::Passed();
  c.candidate_check = candidate_ok ? StageOutcome::Passed() : StageOutcome::Failed("wrong");
  if (candidate_ok) {
    c.timing.stage = StageOutcome::Passed();
    c.timing.baseline.us = {t_base, t_base, t_base};
    c.timing.candidate.us = {t_cand, t_cand, t_cand};
  } else {
    c.timing.stage = StageOutcome::Skipped("not timed: check failed");
  }
  return c;
}

TaskResult Task(const std::string& id, double speedup, bool heldout_ok = true) {
  TaskResult r;
  r.task_id = id;
  r.baseline_compile = r.candidate_compile = r.integrity = StageOutcome::Passed();
  r.configs = {Timed("t1", ConfigKind::kTuning, 100, 100 / speedup),
               Timed("h1", ConfigKind::kHeldout, 100, 100 / speedup, heldout_ok)};
  r.device.name = "Test GPU";
  r.agent = {{"wall_s", 2.0}, {"feedback_calls", 3}};
  return r;
}

RunInfo MakeRun(const std::string& id, const std::string& agent) {
  RunInfo info;
  info.run_id = id;
  info.agent = agent;
  info.selector = "all";
  info.status = "finished";
  return info;
}

TEST(Leaderboard, RanksRunsByGeomeanOverTheSelectedTasks) {
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> runs = {
      {MakeRun("r1", "noop"), {Task("f/a/x", 1.0), Task("f/a/y", 1.0), Task("g/b/z", 1.0)}},
      {MakeRun("r2", "autotune"), {Task("f/a/x", 2.0), Task("f/a/y", 8.0), Task("g/b/z", 1.0)}},
      {MakeRun("r3", "other"), {Task("g/b/z", 3.0)}},
  };
  auto rows = BuildLeaderboard(runs, "f");
  ASSERT_EQ(rows.size(), 2u) << "r3 has no task under f";
  EXPECT_EQ(rows[0].run.run_id, "r2");
  EXPECT_NEAR(*rows[0].summary.geomean_speedup, 4.0, 1e-9);  // sqrt(2 * 8)
  EXPECT_EQ(rows[0].summary.tasks, 2);
  EXPECT_EQ(rows[0].feedback_calls, 6);
  EXPECT_EQ(rows[0].device, "Test GPU");
  EXPECT_EQ(rows[1].run.run_id, "r1");
  const std::string text = FormatLeaderboard(rows);
  EXPECT_NE(text.find("autotune"), std::string::npos);
  EXPECT_NE(text.find("4.000x"), std::string::npos) << text;
  EXPECT_LT(text.find("autotune"), text.find("noop")) << text;
  EXPECT_NE(text.find("tuning   held-out"), std::string::npos) << text;
  EXPECT_EQ(LeaderboardJson(rows).size(), 2u);
  const std::string html = HtmlLeaderboard(rows, "f");
  EXPECT_LT(html.find("autotune"), html.find("noop"));
  EXPECT_NE(html.find("<td>4.000x</td>"), std::string::npos) << html;
  EXPECT_EQ(BuildLeaderboard(runs, "").size(), 3u);
}

TEST(Leaderboard, APartialRunIsRankedAfterTheCompleteOnesAndSaysSo) {
  RunInfo unfinished = MakeRun("r3", "autotune");
  unfinished.status = "running";
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> runs = {
      {MakeRun("r1", "noop"), {Task("f/a/x", 1.0), Task("f/a/y", 1.0), Task("f/a/z", 1.0)}},
      {MakeRun("r2", "other"), {Task("f/a/x", 1.5), Task("f/a/y", 1.5), Task("f/a/z", 1.5)}},
      {unfinished, {Task("f/a/x", 9.0)}},
  };
  auto rows = BuildLeaderboard(runs, "");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].run.run_id, "r2");
  EXPECT_EQ(rows[1].run.run_id, "r1");
  EXPECT_EQ(rows[2].run.run_id, "r3") << "fastest, but over one task of three";
  EXPECT_FALSE(rows[2].complete);
  EXPECT_TRUE(rows[0].complete);
  EXPECT_EQ(rows[2].tasks_of_board, 3);
  const std::string text = FormatLeaderboard(rows);
  EXPECT_NE(text.find("1/3"), std::string::npos) << text;
  EXPECT_NE(text.find("partial row"), std::string::npos) << text;
  EXPECT_EQ(LeaderboardJson(rows)[2]["complete"], false);
  EXPECT_NE(HtmlLeaderboard(rows, "").find("<td>1/3</td>"), std::string::npos);
  EXPECT_NE(HtmlLeaderboard(rows, "").find("a partial row"), std::string::npos);

  // Over the one task they share, every row is complete and speed ranks.
  rows = BuildLeaderboard(runs, "f/a/x");
  EXPECT_EQ(rows[0].run.run_id, "r3");
  EXPECT_TRUE(rows[0].complete);
  EXPECT_EQ(FormatLeaderboard(rows).find("partial row"), std::string::npos);
}

TEST(Leaderboard, ByAgentAddsUpRunsMadeFamilyByFamily) {
  RunInfo hip = MakeRun("a-hip", "autotune"), tri = MakeRun("a-tri", "autotune"),
          redo = MakeRun("a-redo", "autotune"), noop = MakeRun("n-all", "noop");
  RunInfo early = MakeRun("a-early", "autotune");  // every result replaced later
  early.created_at = "2026-11-30T08:00:00Z";
  hip.created_at = "2026-11-30T10:00:00Z";
  tri.created_at = "2026-11-30T11:00:00Z";
  tri.status = "running";
  redo.created_at = "2026-11-30T12:00:00Z";
  noop.created_at = "2026-11-30T09:00:00Z";
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> runs = {
      {redo, {Task("h/a/x", 4.0)}},  // listed first, made last: its x wins
      {early, {Task("h/a/y", 0.5)}},
      {noop, {Task("h/a/x", 1.0), Task("h/a/y", 1.0), Task("t/a/z", 1.0)}},
      {hip, {Task("h/a/x", 2.0), Task("h/a/y", 2.0)}},
      {tri, {Task("t/a/z", 2.0)}},
  };
  auto merged = MergeRunsByAgent(runs);
  ASSERT_EQ(merged.size(), 2u);
  const auto& [info, results] = merged[0].first.agent == "autotune" ? merged[0] : merged[1];
  EXPECT_EQ(info.run_id, "3 runs") << "a-early supplies no result";
  EXPECT_EQ(info.selector, "a-hip,a-tri,a-redo");
  EXPECT_EQ(info.status, "running") << "one of its runs is unfinished";
  ASSERT_EQ(results.size(), 3u);
  std::map<std::string, double> speedup;
  for (const auto& r : results) speedup[r.task_id] = *ScoreTask(r).speedup_geomean;
  EXPECT_NEAR(speedup["h/a/x"], 4.0, 1e-9) << "the latest run's result";
  EXPECT_NEAR(speedup["h/a/y"], 2.0, 1e-9);
  EXPECT_NEAR(speedup["t/a/z"], 2.0, 1e-9);

  auto rows = BuildLeaderboard(merged, "");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].run.agent, "autotune");
  EXPECT_TRUE(rows[0].complete);
  EXPECT_EQ(rows[0].summary.tasks, 3);
  EXPECT_EQ(rows[1].run.run_id, "n-all") << "a single run keeps its id";

  // Over the t family only: the HIP runs do not count.
  auto only_t = MergeRunsByAgent(runs, "t");
  ASSERT_EQ(only_t.size(), 2u);
  for (const auto& [i, rs] : only_t) {
    EXPECT_EQ(rs.size(), 1u);
    if (i.agent == "autotune") {
      EXPECT_EQ(i.run_id, "a-tri");
    }
  }
}

TEST(Leaderboard, ShowsTuningAgainstHeldOutSpeedups) {
  TaskResult r = Task("f/a/x", 1.0);
  r.configs = {Timed("t1", ConfigKind::kTuning, 100, 25), Timed("h1", ConfigKind::kHeldout, 100, 50)};
  auto rows = BuildLeaderboard({{MakeRun("r1", "autotune"), {r}}}, "");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(*rows[0].summary.tuning_geomean, 4.0, 1e-9);
  EXPECT_NEAR(*rows[0].summary.heldout_geomean, 2.0, 1e-9);
  const std::string text = FormatLeaderboard(rows);
  const size_t row = text.find("autotune");
  ASSERT_NE(row, std::string::npos);
  EXPECT_LT(text.find("4.000x", row), text.find("2.000x", row + 30)) << text;
}

TEST(Compare, VerdictsPerTaskAndTheGeometricMeanRatio) {
  std::vector<TaskResult> a = {Task("f/a/x", 2.0), Task("f/a/y", 2.0), Task("f/a/z", 2.0),
                               Task("f/a/w", 2.0, /*heldout_ok=*/false), Task("f/a/only_a", 1.0)};
  std::vector<TaskResult> b = {Task("f/a/x", 4.0), Task("f/a/y", 2.01),
                               Task("f/a/z", 2.0, /*heldout_ok=*/false), Task("f/a/w", 3.0),
                               Task("f/a/only_b", 1.0)};
  RunComparison c = CompareRuns(a, b);
  ASSERT_EQ(c.tasks.size(), 4u);
  EXPECT_EQ(c.tasks[0].verdict, "B faster");
  EXPECT_NEAR(*c.tasks[0].ratio, 2.0, 1e-9);
  EXPECT_EQ(c.tasks[1].verdict, "tie");  // 0.5% apart
  EXPECT_EQ(c.tasks[2].verdict, "B broke it");
  EXPECT_EQ(c.tasks[3].verdict, "B fixed it");
  EXPECT_EQ(c.b_faster, 1);
  EXPECT_EQ(c.ties, 1);
  EXPECT_EQ(c.broken, 1);
  EXPECT_EQ(c.fixed, 1);
  EXPECT_EQ(c.only_a, 1);
  EXPECT_EQ(c.only_b, 1);
  EXPECT_NEAR(*c.geomean_ratio, std::sqrt(2.0 * 2.01 / 2.0), 1e-9);
  const std::string text = FormatComparison(MakeRun("ra", "noop"), MakeRun("rb", "autotune"), c);
  EXPECT_NE(text.find("B faster 1, A faster 0, ties 1"), std::string::npos) << text;
  EXPECT_EQ(ComparisonJson(MakeRun("ra", "noop"), MakeRun("rb", "autotune"), c)["tasks"].size(), 4u);
}

TEST(Compare, TasksNothingCouldCheckAreSaidSo) {
  TaskResult unchecked = Task("f/a/x", 1.0);
  for (auto& cfg : unchecked.configs) {
    cfg.candidate_check = StageOutcome::Skipped("skipped: no GPU");
    cfg.timing.stage = StageOutcome::Skipped("not timed");
  }
  RunComparison c = CompareRuns({unchecked}, {Task("f/a/x", 2.0)});
  ASSERT_EQ(c.tasks.size(), 1u);
  EXPECT_EQ(c.tasks[0].verdict, "unchecked");
  EXPECT_EQ(c.fixed, 0);
}

// A result with provenance: on `device`, of version `version` of the task.
TaskResult Proven(const std::string& id, double speedup, const std::string& device,
                  const std::string& version, int scoring = kScoringVersion) {
  TaskResult r = Task(id, speedup);
  r.device.name = device;
  r.provenance = {{"task_hash", version}, {"scoring_version", scoring}, {"arena_build", "b"},
                  {"device", device}, {"arch", "sm_90"}};
  return r;
}

TEST(Provenance, RunsOnOtherDevicesOrScoringAreRankedOnBoardsApart) {
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> runs = {
      {MakeRun("h200", "noop"), {Proven("f/a/x", 1.0, "NVIDIA H200", "v1")}},
      {MakeRun("a100", "autotune"), {Proven("f/a/x", 3.0, "NVIDIA A100", "v1")}},
      {MakeRun("h200b", "autotune"), {Proven("f/a/x", 2.0, "NVIDIA H200", "v1")}},
      {MakeRun("old", "autotune"), {Proven("f/a/x", 9.0, "NVIDIA H200", "v1", kScoringVersion - 1)}},
  };
  auto rows = BuildLeaderboard(runs, "");
  ASSERT_EQ(rows.size(), 4u);
  // The H200 board first (first seen), its rows ranked among themselves.
  EXPECT_EQ(rows[0].run.run_id, "h200b");
  EXPECT_EQ(rows[1].run.run_id, "h200");
  EXPECT_EQ(rows[0].board, rows[1].board);
  EXPECT_NE(rows[2].board, rows[0].board);
  EXPECT_NE(rows[3].board, rows[0].board);
  const std::string text = FormatLeaderboard(rows);
  EXPECT_NE(text.find("board: NVIDIA H200 (sm_90), scoring v" + std::to_string(kScoringVersion)), std::string::npos)
      << text;
  EXPECT_NE(text.find("board: NVIDIA A100 (sm_90)"), std::string::npos) << text;
  EXPECT_NE(text.find("ranked apart"), std::string::npos) << text;
  // Each board ranks from 1: the A100 run is first on its own board.
  EXPECT_NE(text.find("\n1   autotune        a100"), std::string::npos) << text;
  const std::string html = HtmlLeaderboard(rows, "");
  EXPECT_NE(html.find("<tr><td>1</td><td>autotune</td><td>a100</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("ranked apart"), std::string::npos);
}

TEST(Provenance, ABoardSaysWhichTasksWereEvaluatedInOtherVersions) {
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> runs = {
      {MakeRun("r1", "noop"), {Proven("f/a/x", 1.0, "G", "v1"), Proven("f/a/y", 1.0, "G", "v1")}},
      {MakeRun("r2", "autotune"), {Proven("f/a/x", 2.0, "G", "v2"), Proven("f/a/y", 2.0, "G", "v1")}},
  };
  auto rows = BuildLeaderboard(runs, "");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].task_versions_differ, std::vector<std::string>{"f/a/x"});
  const std::string text = FormatLeaderboard(rows);
  EXPECT_NE(text.find("not comparable on this board: f/a/x (evaluated in different versions"), std::string::npos)
      << text;
  EXPECT_EQ(LeaderboardJson(rows)[0]["task_versions_differ"][0], "f/a/x");
}

TEST(Provenance, CompareLeavesOutWhatIsNotComparableAndSaysSo) {
  const std::vector<TaskResult> a = {Proven("f/a/x", 1.0, "G", "v1"), Proven("f/a/y", 1.0, "G", "v1"),
                                     Proven("f/a/z", 1.0, "G", "v1"), Task("f/a/w", 1.0)};
  const std::vector<TaskResult> b = {Proven("f/a/x", 2.0, "H", "v1"), Proven("f/a/y", 2.0, "G", "v2"),
                                     Proven("f/a/z", 2.0, "G", "v1"), Task("f/a/w", 1.0)};
  RunComparison c = CompareRuns(a, b);
  EXPECT_EQ(c.not_comparable, 2);
  EXPECT_EQ(c.b_faster, 1);  // z only
  EXPECT_EQ(c.ties, 1);      // w, compared as it is
  EXPECT_EQ(c.without_provenance, 1);
  EXPECT_NEAR(*c.geomean_ratio, std::sqrt(2.0), 1e-9);
  EXPECT_EQ(c.tasks[0].verdict, "not comparable: A on G (sm_90), scoring v" + std::to_string(kScoringVersion) +
                                    ", B on H (sm_90), scoring v" + std::to_string(kScoringVersion));
  EXPECT_EQ(c.tasks[1].verdict, "not comparable: the task's files changed between the runs");
  const std::string text = FormatComparison(MakeRun("A", "x"), MakeRun("B", "y"), c);
  EXPECT_NE(text.find("2 task(s) not comparable"), std::string::npos) << text;
  EXPECT_NE(text.find("1 task(s) stored without provenance"), std::string::npos) << text;
}

TEST(Provenance, OnlyResultsOfTheTaskFilesAsTheyAreNowAreKept) {
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> runs = {
      {MakeRun("r1", "noop"), {Proven("f/a/x", 1.0, "G", "v1"), Proven("f/a/y", 1.0, "G", "old")}},
      {MakeRun("r2", "autotune"), {Proven("f/a/y", 2.0, "G", "old"), Task("f/a/x", 2.0)}},
      {MakeRun("r3", "autotune"), {Proven("f/a/gone", 2.0, "G", "v1")}},
  };
  std::vector<std::string> left_out;
  auto kept = KeepCurrentTasks(runs, {{"f/a/x", "v1"}, {"f/a/y", "v2"}}, &left_out);
  ASSERT_EQ(kept.size(), 1u);  // r2 and r3 hold nothing current
  EXPECT_EQ(kept[0].first.run_id, "r1");
  ASSERT_EQ(kept[0].second.size(), 1u);
  EXPECT_EQ(kept[0].second[0].task_id, "f/a/x");
  EXPECT_EQ(left_out, (std::vector<std::string>{
                          "r1 f/a/y: evaluated on another version of the task's files",
                          "r2 f/a/y: evaluated on another version of the task's files",
                          "r2 f/a/x: stored without the task's hash",
                          "r3 f/a/gone: no such task now"}));
}

TEST(HtmlReport, SelfContainedWithEscapedNamesAndAHistogram) {
  std::vector<TaskResult> results = {Task("f/a/<x>", 2.0), Task("f/a/y", 0.5, false)};
  const std::string html = HtmlReport(MakeRun("r&1", "noop"), results);
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(html.find("r&amp;1"), std::string::npos);
  EXPECT_NE(html.find("f/a/&lt;x&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://www.w3.org/2000/svg\"") != std::string::npos, true);
  EXPECT_NE(html.find("Speedup per configuration (3 timed)"), std::string::npos) << html;
  EXPECT_NE(html.find("optimization_regressed"), std::string::npos) << html;
}

TEST(HtmlReport, RooflinePlacesConfigurationsAgainstTheCeilings) {
  std::vector<TaskResult> results = {Task("f/a/x", 2.0)};
  results[0].configs[0].bytes = 4e6;
  results[0].configs[0].flops = 4e9;  // 1000 flop/byte
  results[0].configs[1].bytes = 8e6;  // a copy: no flops
  Ceilings c{"Test GPU", 4e12, 8e14};
  const std::string html = HtmlReport(MakeRun("r", "noop"), results, c);
  EXPECT_NE(html.find("Roofline (Test GPU: copy 4.00 TB/s, peak 800 TFLOP/s)"), std::string::npos);
  // Two points (baseline, candidate) for the configuration with flops.
  size_t circles = 0;
  for (size_t at = html.find("<circle"); at != std::string::npos; at = html.find("<circle", at + 1)) {
    ++circles;
  }
  EXPECT_EQ(circles, 2u);
  // The copy: 8 MB in 100 us is 80 GB/s = 2.0% of 4 TB/s; the candidate twice that.
  EXPECT_NE(html.find("f/a/x h1: baseline 2.0%, candidate 4.0%"), std::string::npos) << html;
  EXPECT_EQ(HtmlReport(MakeRun("r", "noop"), results).find("Roofline"), std::string::npos);
}

TEST(Ceilings, ReadFromTheGpuScriptsFileWithFieldErrors) {
  const std::string good = testing::TempDir() + "/ceilings.json";
  std::FILE* f = std::fopen(good.c_str(), "w");
  std::fputs(R"({"device": "H", "copy_bytes_per_s": 4.1e12, "bf16_matmul_flops": 7.4e14})", f);
  std::fclose(f);
  auto c = LoadCeilings(good);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->device, "H");
  EXPECT_DOUBLE_EQ(c->peak_flops, 7.4e14);
  const std::string bad = testing::TempDir() + "/bad.json";
  f = std::fopen(bad.c_str(), "w");
  std::fputs(R"({"device": "H", "copy_bytes_per_s": -1})", f);
  std::fclose(f);
  auto e = LoadCeilings(bad);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("bad.json: copy_bytes_per_s: expected a positive number"),
            std::string::npos)
      << e.status().message();
}

}  // namespace
}  // namespace arena
