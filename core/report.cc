#include "core/report.h"

#include <cstdio>
#include <sstream>

namespace arena {

std::string PadRight(const std::string& s, size_t width) {
  if (s.size() >= width) return s + " ";
  return s + std::string(width - s.size(), ' ');
}

std::string FormatFixed(const std::optional<double>& v, int digits) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, *v);
  return buf;
}

std::string FormatSpeedup(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3fx", *v);
  return buf;
}

namespace {

// Why a task has no speedup, in a few words.
std::string NoSpeedupReason(const TaskResult& r, const TaskScore& s) {
  if (!s.compiled) return "does not compile";
  if (s.configs_checked == 0) return "not checked: no GPU";
  if (!s.correct) return FailedOnlyWhenTimed(r) ? "failed when timed" : "wrong";
  if (!r.device.is_gpu()) return "not timed: no GPU";
  return "not timed";
}

// "12.3s fb=4 tok=1234" ("12.3s/20s" where the run gave the agent a
// budget), or "FAILED: why" for an agent that failed.
std::string AgentCell(const Json& agent) {
  if (agent.empty()) return "-";
  std::string cell;
  if (!agent.value("ok", true)) cell += "FAILED: " + agent.value("detail", "").substr(0, 40) + " ";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.1fs", agent.value("wall_s", 0.0));
  cell += buf;
  if (const double budget = agent.value("budget_s", 0.0); budget > 0) {
    std::snprintf(buf, sizeof(buf), "/%gs", budget);
    cell += buf;
  }
  cell += " fb=" + std::to_string(agent.value("feedback_calls", 0));
  Json usage = agent.value("usage", Json::object());
  if (usage.contains("total_tokens")) cell += " tok=" + usage["total_tokens"].dump();
  if (usage.contains("cost_usd")) cell += " $" + usage["cost_usd"].dump();
  return cell;
}

std::string CsvEscape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// "agent budget 20 s per task, stage timeout 300 s, seed 7" (the run's
// stored options; 0 means the agent's own default and a fresh seed).
std::string DescribeOptions(const Json& o) {
  auto seconds = [](double s) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g s", s);
    return std::string(buf);
  };
  const double budget = o.value("agent_time_budget_s", 0.0);
  const uint64_t seed = o.value("seed", uint64_t{0});
  return std::string("agent budget ") +
         (budget > 0 ? seconds(budget) + " per task" : "the agent's default") +
         ", stage timeout " + seconds(o.value("stage_timeout_s", 0.0)) + ", seed " +
         (seed ? std::to_string(seed) : "fresh per evaluation");
}

}  // namespace

std::string FormatTextReport(const RunInfo& info, const std::vector<TaskResult>& results) {
  std::ostringstream out;
  out << "run " << info.run_id << "  agent " << info.agent << "  tasks " << info.selector
      << "  (" << results.size() << " of " << info.task_ids.size() << " evaluated, "
      << info.status << ")\n";
  if (!results.empty()) out << "device " << results.front().device.Describe() << "\n";
  if (!info.options.empty()) out << "options " << DescribeOptions(info.options) << "\n";
  out << "\n"
      << PadRight("task", 46) << PadRight("compile", 8) << PadRight("correct", 9) << PadRight("mean", 9)
      << PadRight("geomean", 9) << PadRight("tuning", 9) << PadRight("heldout", 9) << PadRight("quadrant", 23)
      << PadRight("score", 7) << "agent\n";
  for (const auto& r : results) {
    TaskScore s = ScoreTask(r);
    int passed = 0;
    for (const auto& c : r.configs) passed += c.candidate_check.passed();
    std::string correct = std::to_string(passed) + "/" + std::to_string(s.configs_checked);
    if (s.compiled && s.configs_checked == 0) correct = "unchecked";
    else if (!s.correct) correct = "NO " + correct;
    out << PadRight(r.task_id, 46) << PadRight(s.compiled ? "ok" : "FAIL", 8) << PadRight(correct, 9);
    if (s.speedup_mean) {
      out << PadRight(FormatSpeedup(s.speedup_mean), 9) << PadRight(FormatSpeedup(s.speedup_geomean), 9)
          << PadRight(FormatSpeedup(s.tuning_geomean), 9) << PadRight(FormatSpeedup(s.heldout_geomean), 9);
    } else {
      out << PadRight("(" + NoSpeedupReason(r, s) + ")", 36);
    }
    out << PadRight(QuadrantName(s.quadrant), 23) << PadRight(FormatFixed(s.score, 1), 7) << AgentCell(r.agent)
        << "\n";
  }
  RunSummary sum = Summarize(results);
  int unchecked = 0;
  for (const auto& r : results) {
    TaskScore s = ScoreTask(r);
    unchecked += s.compiled && s.configs_checked == 0;
  }
  out << "\ncompiled " << sum.compiled << "/" << sum.tasks << ", correct " << sum.correct << "/"
      << sum.tasks << (unchecked ? ", unchecked (no GPU) " + std::to_string(unchecked) : "")
      << ", timed " << sum.timed << "\n";
  out << "speedup: mean " << FormatSpeedup(sum.mean_speedup) << ", geomean "
      << FormatSpeedup(sum.geomean_speedup) << "; tuning configs "
      << FormatSpeedup(sum.tuning_geomean) << " vs held-out " << FormatSpeedup(sum.heldout_geomean)
      << " (geomean)\n";
  if (const std::string line = DescribeConfigCounts(sum); !line.empty()) out << line << "\n";
  out << "fast_p:";
  for (const auto& [p, v] : sum.fast_p) out << " p=" << p << " " << FormatFixed(v, 3);
  if (sum.timed == 0) out << " (nothing timed)";
  out << "\n";
  out << "held-out: conditional correctness P(candidate ok | baseline ok) = "
      << FormatFixed(sum.conditional_correctness, 3) << " (" << sum.heldout_both_correct << "/"
      << sum.heldout_baseline_correct << ")";
  out << "; quadrants:";
  for (const auto& [q, n] : sum.quadrants) {
    if (n) out << " " << q << "=" << n;
  }
  out << "\nmean score (AgentKernelArena-compatible): " << FormatFixed(sum.mean_score, 1) << "\n";
  out << DescribeIntegrity(sum) << "\n";
  if (info.task_errors.is_object() && !info.task_errors.empty()) {
    out << "task errors (broken tasks, not evaluated): " << info.task_errors.size() << "\n";
    for (const auto& [id, error] : info.task_errors.items()) {
      out << "  " << id << ": " << (error.is_string() ? error.get<std::string>() : JsonText(error))
          << "\n";
    }
  }
  double agent_s = 0;
  int feedback = 0, agent_failures = 0;
  for (const auto& r : results) {
    agent_s += r.agent.value("wall_s", 0.0);
    feedback += r.agent.value("feedback_calls", 0);
    agent_failures += !r.agent.value("ok", true);
  }
  char agent_line[160];
  std::snprintf(agent_line, sizeof(agent_line),
                "agent: %.1f s in all, %d feedback call(s), %d failure(s)\n", agent_s, feedback,
                agent_failures);
  out << agent_line;
  return out.str();
}

Json ReportJson(const RunInfo& info, const std::vector<TaskResult>& results) {
  Json tasks = Json::array();
  for (const auto& r : results) {
    Json t = r.ToJson();
    t["score"] = ScoreTask(r).ToJson();
    tasks.push_back(t);
  }
  return {{"run", info.ToJson()}, {"summary", Summarize(results).ToJson()}, {"tasks", tasks}};
}

std::string ReportCsv(const RunInfo& info, const std::vector<TaskResult>& results) {
  std::ostringstream out;
  out << "run_id,agent,task_id,config,kind,baseline_check,candidate_check,timing,method,"
         "baseline_median_us,candidate_median_us,speedup,bytes,flops,task_correct,"
         "agent_ok,agent_wall_s,feedback_calls\n";
  for (const auto& r : results) {
    TaskScore s = ScoreTask(r);
    for (const auto& c : r.configs) {
      bool timed = c.timing.stage.status == StageStatus::kPassed;
      out << CsvEscape(info.run_id) << "," << CsvEscape(info.agent) << "," << CsvEscape(r.task_id)
          << "," << CsvEscape(c.name) << "," << ConfigKindName(c.kind) << ","
          << StageStatusName(c.baseline_check.status) << ","
          << StageStatusName(c.candidate_check.status) << ","
          << StageStatusName(c.timing.stage.status) << "," << CsvEscape(c.timing.method) << ","
          << (timed ? FormatFixed(c.timing.baseline.median(), 3) : "") << ","
          << (timed ? FormatFixed(c.timing.candidate.median(), 3) : "") << ","
          << (c.speedup() ? FormatFixed(c.speedup(), 4) : "") << "," << c.bytes << "," << c.flops
          << "," << (s.correct ? 1 : 0) << "," << (r.agent.value("ok", true) ? 1 : 0) << ","
          << r.agent.value("wall_s", 0.0) << "," << r.agent.value("feedback_calls", 0) << "\n";
    }
  }
  return out.str();
}

}  // namespace arena
