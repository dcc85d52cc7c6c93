#include "core/leaderboard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "core/files.h"
#include "core/provenance.h"
#include "core/report.h"
#include "core/task.h"

namespace arena {
namespace {

std::string Share(const std::optional<double>& v) {
  return v ? FormatFixed(100 * *v, 0) + "%" : "-";
}

Json Optional(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

bool AnyPartial(const std::vector<LeaderboardRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const LeaderboardRow& r) { return !r.complete; });
}

// "24", or "21/40" for a row that misses some of the board's tasks.
std::string TasksCell(const LeaderboardRow& r) {
  std::string cell = std::to_string(r.summary.tasks);
  if (!r.complete) cell += "/" + std::to_string(r.tasks_of_board);
  return cell;
}

}  // namespace

std::vector<LeaderboardRow> BuildLeaderboard(
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& runs,
    const std::string& selector) {
  std::vector<LeaderboardRow> rows;
  std::map<std::string, std::set<std::string>> board;  // every task some run on a board evaluated
  // Per board and task: the versions of the task's files its results had.
  std::map<std::string, std::map<std::string, std::set<std::string>>> versions;
  for (const auto& [info, results] : runs) {
    std::vector<TaskResult> kept;
    for (const auto& r : results) {
      if (selector.empty() || TaskMatches(r.task_id, selector)) kept.push_back(r);
    }
    if (kept.empty()) continue;
    LeaderboardRow row;
    row.run = info;
    row.summary = Summarize(kept);
    std::set<std::string> keys;
    for (const auto& r : kept) keys.insert(ComparableKey(r.provenance));
    for (const auto& k : keys) row.board += (row.board.empty() ? "" : " + ") + k;
    for (const auto& r : kept) {
      board[row.board].insert(r.task_id);
      if (Unchecked(r)) ++row.unchecked;
      row.agent_wall_s += r.agent.value("wall_s", 0.0);
      row.feedback_calls += r.agent.value("feedback_calls", 0);
      if (row.device.empty()) row.device = r.device.name;
    }
    for (const auto& r : kept) {
      const std::string hash = r.provenance.value("task_hash", "");
      if (!hash.empty()) versions[row.board][r.task_id].insert(hash);
    }
    rows.push_back(std::move(row));
  }
  // A run holds each task once: a row is complete when it has them all.
  std::map<std::string, int> order;  // boards in order of first appearance
  for (auto& row : rows) {
    order.emplace(row.board, static_cast<int>(order.size()));
    row.tasks_of_board = static_cast<int>(board[row.board].size());
    row.complete = row.summary.tasks == row.tasks_of_board;
    for (const auto& [task, hashes] : versions[row.board]) {
      if (hashes.size() > 1) row.task_versions_differ.push_back(task);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const LeaderboardRow& x, const LeaderboardRow& y) {
    if (x.board != y.board) return order[x.board] < order[y.board];
    if (x.complete != y.complete) return x.complete;
    const double gx = x.summary.geomean_speedup.value_or(0), gy = y.summary.geomean_speedup.value_or(0);
    if (gx != gy) return gx > gy;
    return x.summary.correct > y.summary.correct;
  });
  return rows;
}

std::vector<std::pair<RunInfo, std::vector<TaskResult>>> MergeRunsByAgent(
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& runs,
    const std::string& selector) {
  auto matches = [&](const TaskResult& r) {
    return selector.empty() || TaskMatches(r.task_id, selector);
  };
  // Oldest first, so that a later run's result replaces an earlier one's.
  std::vector<const std::pair<RunInfo, std::vector<TaskResult>>*> order;
  for (const auto& run : runs) {
    if (std::any_of(run.second.begin(), run.second.end(), matches)) order.push_back(&run);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    return a->first.created_at < b->first.created_at;
  });
  std::vector<std::string> agents;  // in order of first appearance
  std::map<std::string, std::vector<const std::pair<RunInfo, std::vector<TaskResult>>*>> by_agent;
  for (const auto* run : order) {
    if (!by_agent.count(run->first.agent)) agents.push_back(run->first.agent);
    by_agent[run->first.agent].push_back(run);
  }
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> merged;
  for (const auto& agent : agents) {
    const auto& sources = by_agent[agent];
    RunInfo info;
    info.agent = agent;
    info.status = "finished";
    // Each task's result from the latest run that has it; a run all of
    // whose results a later run replaced supplies nothing and is not named.
    std::map<std::string, std::pair<TaskResult, const RunInfo*>> latest;
    std::vector<std::string> task_order;
    for (const auto* run : sources) {
      for (const auto& r : run->second) {
        if (!matches(r)) continue;
        if (!latest.count(r.task_id)) task_order.push_back(r.task_id);
        latest[r.task_id] = {r, &run->first};
      }
    }
    std::set<const RunInfo*> supplying;
    for (const auto& [id, result_and_run] : latest) supplying.insert(result_and_run.second);
    std::vector<const RunInfo*> used;
    for (const auto* run : sources) {
      if (!supplying.count(&run->first)) continue;
      used.push_back(&run->first);
      info.selector += (info.selector.empty() ? "" : ",") + run->first.run_id;
      info.created_at = run->first.created_at;
      if (run->first.status != "finished") info.status = "running";
    }
    info.run_id = used.size() == 1 ? used[0]->run_id : std::to_string(used.size()) + " runs";
    std::vector<TaskResult> results;
    for (const auto& id : task_order) {
      info.task_ids.push_back(id);
      results.push_back(latest[id].first);
    }
    merged.emplace_back(std::move(info), std::move(results));
  }
  return merged;
}

std::string FormatLeaderboard(const std::vector<LeaderboardRow>& rows) {
  std::ostringstream out;
  out << PadRight("#", 4) << PadRight("agent", 16) << PadRight("run", 34) << PadRight("tasks", 7) << PadRight("correct", 9)
      << PadRight("geomean", 9) << PadRight("tuning", 9) << PadRight("held-out", 9) << PadRight("mean", 9)
      << PadRight("fast_1.0", 9) << PadRight("fast_1.5", 9) << PadRight("P(ok)", 7) << PadRight("score", 8)
      << "device\n";
  int rank = 0;
  std::set<std::string> boards;
  for (const auto& r : rows) boards.insert(r.board);
  auto notes = [&](const std::string& board) {
    for (const auto& r : rows) {
      if (r.board != board || r.task_versions_differ.empty()) continue;
      out << "  not comparable on this board: ";
      for (size_t i = 0; i < r.task_versions_differ.size(); ++i) {
        out << (i ? ", " : "") << r.task_versions_differ[i];
      }
      out << " (evaluated in different versions of the task's files)\n";
      break;
    }
  };
  for (size_t i = 0; i < rows.size(); ++i) {
    const LeaderboardRow& r = rows[i];
    if ((i == 0 || rows[i - 1].board != r.board) && (boards.size() > 1 || !r.board.empty())) {
      if (i > 0) notes(rows[i - 1].board);
      out << "board: " << (r.board.empty() ? "results stored without provenance" : r.board) << "\n";
      rank = 0;
    }
    const RunSummary& s = r.summary;
    std::string held = s.conditional_correctness ? Share(s.conditional_correctness) : "-";
    std::string correct = std::to_string(s.correct) + "/" + std::to_string(s.tasks);
    out << PadRight(std::to_string(++rank), 4) << PadRight(r.run.agent, 16) << PadRight(r.run.run_id, 34)
        << PadRight(TasksCell(r), 7) << PadRight(correct, 9)
        << PadRight(FormatSpeedup(s.geomean_speedup), 9) << PadRight(FormatSpeedup(s.tuning_geomean), 9)
        << PadRight(FormatSpeedup(s.heldout_geomean), 9) << PadRight(FormatSpeedup(s.mean_speedup), 9)
        << PadRight(Share(s.fast_p.count("1.0") ? s.fast_p.at("1.0") : std::nullopt), 9)
        << PadRight(Share(s.fast_p.count("1.5") ? s.fast_p.at("1.5") : std::nullopt), 9) << PadRight(held, 7)
        << PadRight(FormatFixed(s.mean_score, 1), 8) << r.device
        << (r.unchecked ? " (" + std::to_string(r.unchecked) + " unchecked)" : "") << "\n";
  }
  if (!rows.empty()) notes(rows.back().board);
  if (boards.size() > 1) {
    out << "boards: results on other devices or scoring versions are ranked apart, never "
           "against each other.\n";
  }
  if (rows.empty()) out << "(no runs with matching tasks)\n";
  if (AnyPartial(rows)) {
    out << "k/n tasks: a partial row, k of the board's n tasks (an unfinished run or a narrower "
           "selector); its figures cover its k tasks only and it is ranked after the complete "
           "rows. --tasks ranks every run over a common set.\n";
  }
  out << "geomean/mean: speedup over the tasks correct and timed; tuning/held-out: geometric "
         "mean speedup over the configurations the agent could see and those it never saw; "
         "fast_p: share of all tasks correct with a mean speedup above p; P(ok): P(candidate "
         "correct | baseline correct) on held-out configurations.\n";
  return out.str();
}

std::vector<std::pair<RunInfo, std::vector<TaskResult>>> KeepCurrentTasks(
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& runs,
    const std::map<std::string, std::string>& current, std::vector<std::string>* left_out) {
  std::vector<std::pair<RunInfo, std::vector<TaskResult>>> kept;
  for (const auto& [info, results] : runs) {
    std::vector<TaskResult> now;
    for (const auto& r : results) {
      auto it = current.find(r.task_id);
      const std::string hash = r.provenance.is_object() ? r.provenance.value("task_hash", "") : "";
      std::string why;
      if (it == current.end()) {
        why = "no such task now";
      } else if (hash.empty()) {
        why = "stored without the task's hash";
      } else if (hash != it->second) {
        why = "evaluated on another version of the task's files";
      }
      if (why.empty()) {
        now.push_back(r);
      } else if (left_out != nullptr) {
        left_out->push_back(info.run_id + " " + r.task_id + ": " + why);
      }
    }
    if (!now.empty()) kept.emplace_back(info, std::move(now));
  }
  return kept;
}

std::string HtmlLeaderboard(const std::vector<LeaderboardRow>& rows, const std::string& selector) {
  std::ostringstream h;
  h << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>arena leaderboard</title>\n"
    << "<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}"
    << "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
    << "td:nth-child(2),td:nth-child(3),th:nth-child(2),th:nth-child(3){text-align:left}</style>"
    << "</head><body>\n<h1>Leaderboard</h1>\n<p>tasks: "
    << Escape(selector.empty() ? "all" : selector) << "; " << rows.size() << " run(s)</p>\n"
    << "<table><tr><th>#</th><th>agent</th><th>run</th><th>tasks</th><th>correct</th>"
    << "<th>unchecked</th><th>geomean</th><th>mean</th><th>fast_1.0</th><th>fast_1.5</th>"
    << "<th>fast_2.0</th><th>tuning</th><th>held-out</th><th>P(ok | baseline ok)</th>"
    << "<th>score</th><th>agent time</th><th>device</th><th>board</th></tr>\n";
  int rank = 0;
  auto fast = [](const RunSummary& s, const char* p) {
    return Share(s.fast_p.count(p) ? s.fast_p.at(p) : std::nullopt);
  };
  const std::string* last_board = nullptr;
  for (const auto& r : rows) {
    if (last_board != nullptr && *last_board != r.board) rank = 0;  // a board of its own
    last_board = &r.board;
    const RunSummary& s = r.summary;
    h << "<tr><td>" << ++rank << "</td><td>" << Escape(r.run.agent) << "</td><td>"
      << Escape(r.run.run_id) << "</td><td>" << TasksCell(r) << "</td><td>" << s.correct << "</td><td>"
      << r.unchecked << "</td><td>" << FormatSpeedup(s.geomean_speedup) << "</td><td>"
      << FormatSpeedup(s.mean_speedup) << "</td><td>" << fast(s, "1.0") << "</td><td>"
      << fast(s, "1.5") << "</td><td>" << fast(s, "2.0") << "</td><td>"
      << FormatSpeedup(s.tuning_geomean) << "</td><td>" << FormatSpeedup(s.heldout_geomean)
      << "</td><td>" << Share(s.conditional_correctness) << "</td><td>"
      << FormatFixed(s.mean_score, 1) << "</td><td>"
      << FormatFixed(r.agent_wall_s, 0) << " s</td><td>" << Escape(r.device) << "</td><td>"
      << Escape(r.board.empty() ? "no provenance" : r.board) << "</td></tr>\n";
  }
  h << "</table>\n";
  std::set<std::string> boards;
  for (const auto& r : rows) boards.insert(r.board);
  if (boards.size() > 1) {
    h << "<p>board: rows on other devices or scoring versions are ranked apart (rank restarts "
         "per board), never against each other.</p>\n";
  }
  if (AnyPartial(rows)) {
    h << "<p>k/n tasks: a partial row, k of the board's n tasks; its figures cover its k tasks "
         "only and it is ranked after the complete rows.</p>\n";
  }
  h << "<p>geomean/mean: speedup over the tasks correct and timed; fast_p: share of all "
    << "tasks correct with a mean speedup above p; tuning/held-out: geometric mean over those "
    << "configurations; P(ok | baseline ok): candidate correct on held-out configurations where "
    << "the baseline is.</p>\n</body></html>\n";
  return h.str();
}

Json LeaderboardJson(const std::vector<LeaderboardRow>& rows) {
  Json out = Json::array();
  for (const auto& r : rows) {
    out.push_back({{"run", r.run.ToJson()},
                   {"summary", r.summary.ToJson()},
                   {"unchecked", r.unchecked},
                   {"agent_wall_s", r.agent_wall_s},
                   {"feedback_calls", r.feedback_calls},
                   {"device", r.device},
                   {"board", r.board},
                   {"task_versions_differ", r.task_versions_differ},
                   {"tasks_of_board", r.tasks_of_board},
                   {"complete", r.complete}});
  }
  return out;
}

RunComparison CompareRuns(const std::vector<TaskResult>& a, const std::vector<TaskResult>& b,
                          double tie) {
  RunComparison c;
  std::map<std::string, const TaskResult*> in_b;
  for (const auto& r : b) in_b[r.task_id] = &r;
  std::map<std::string, bool> seen;
  std::vector<double> ratios;
  for (const auto& ra : a) {
    auto it = in_b.find(ra.task_id);
    if (it == in_b.end()) {
      ++c.only_a;
      continue;
    }
    seen[ra.task_id] = true;
    TaskComparison t;
    t.task_id = ra.task_id;
    t.a = ScoreTask(ra);
    t.b = ScoreTask(*it->second);
    const TaskResult& rb = *it->second;
    const std::string ka = ComparableKey(ra.provenance), kb = ComparableKey(rb.provenance);
    const std::string ha = ra.provenance.value("task_hash", ""), hb = rb.provenance.value("task_hash", "");
    if (ka.empty() || kb.empty()) ++c.without_provenance;
    if (!ka.empty() && !kb.empty() && ka != kb) {
      t.verdict = "not comparable: A on " + ka + ", B on " + kb;
      ++c.not_comparable;
    } else if (!ha.empty() && !hb.empty() && ha != hb) {
      t.verdict = "not comparable: the task's files changed between the runs";
      ++c.not_comparable;
    } else if (Unchecked(ra) || Unchecked(*it->second)) {
      t.verdict = "unchecked";
    } else if (t.a.correct && !t.b.correct) {
      t.verdict = "B broke it";
      ++c.broken;
    } else if (!t.a.correct && t.b.correct) {
      t.verdict = "B fixed it";
      ++c.fixed;
    } else if (!t.a.correct) {
      t.verdict = "both wrong";
    } else if (t.a.speedup_geomean && t.b.speedup_geomean) {
      t.ratio = *t.b.speedup_geomean / *t.a.speedup_geomean;
      ratios.push_back(*t.ratio);
      if (*t.ratio > 1 + tie) {
        t.verdict = "B faster";
        ++c.b_faster;
      } else if (*t.ratio < 1 - tie) {
        t.verdict = "A faster";
        ++c.a_faster;
      } else {
        t.verdict = "tie";
        ++c.ties;
      }
    } else {
      t.verdict = "both correct, not timed";
    }
    c.tasks.push_back(std::move(t));
  }
  for (const auto& rb : b) {
    if (!seen.count(rb.task_id)) ++c.only_b;
  }
  c.geomean_ratio = GeometricMean(ratios);
  return c;
}

std::string FormatComparison(const RunInfo& a, const RunInfo& b, const RunComparison& c) {
  std::ostringstream out;
  out << "A: " << a.run_id << " (" << a.agent << ")\nB: " << b.run_id << " (" << b.agent << ")\n\n";
  out << PadRight("task", 46) << PadRight("A correct", 10) << PadRight("A geomean", 10) << PadRight("B correct", 10)
      << PadRight("B geomean", 10) << PadRight("B/A", 8) << "verdict\n";
  for (const auto& t : c.tasks) {
    out << PadRight(t.task_id, 46) << PadRight(t.a.correct ? "yes" : "no", 10)
        << PadRight(FormatSpeedup(t.a.speedup_geomean), 10) << PadRight(t.b.correct ? "yes" : "no", 10)
        << PadRight(FormatSpeedup(t.b.speedup_geomean), 10)
        << PadRight(FormatFixed(t.ratio, 3), 8) << t.verdict << "\n";
  }
  out << "\n" << c.tasks.size() << " task(s) in both runs: B faster " << c.b_faster << ", A faster "
      << c.a_faster << ", ties " << c.ties << " (within 2%); B fixed " << c.fixed << ", B broke "
      << c.broken << "; geometric mean of B/A " << FormatFixed(c.geomean_ratio, 3);
  if (c.only_a || c.only_b) {
    out << "; only in A: " << c.only_a << ", only in B: " << c.only_b;
  }
  out << "\n";
  if (c.not_comparable) {
    out << c.not_comparable << " task(s) not comparable (another device, scoring version or "
        << "version of the task's files): left out of the counts above\n";
  }
  if (c.without_provenance) {
    out << c.without_provenance << " task(s) stored without provenance: compared as they are\n";
  }
  return out.str();
}

Json ComparisonJson(const RunInfo& a, const RunInfo& b, const RunComparison& c) {
  Json tasks = Json::array();
  for (const auto& t : c.tasks) {
    tasks.push_back({{"task_id", t.task_id},
                     {"a", t.a.ToJson()},
                     {"b", t.b.ToJson()},
                     {"ratio", Optional(t.ratio)},
                     {"verdict", t.verdict}});
  }
  return {{"a", a.ToJson()},
          {"b", b.ToJson()},
          {"tasks", tasks},
          {"b_faster", c.b_faster},
          {"a_faster", c.a_faster},
          {"ties", c.ties},
          {"fixed", c.fixed},
          {"broken", c.broken},
          {"only_a", c.only_a},
          {"only_b", c.only_b},
          {"not_comparable", c.not_comparable},
          {"without_provenance", c.without_provenance},
          {"geomean_ratio", Optional(c.geomean_ratio)}};
}

Result<Ceilings> LoadCeilings(const std::string& path) {
  ARENA_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return InvalidArgument(path + ": not a JSON object");
  Ceilings c;
  c.device = j.value("device", "");
  for (const auto& [field, out] : {std::pair<const char*, double*>{"copy_bytes_per_s", &c.copy_bytes_per_s},
                                   {"bf16_matmul_flops", &c.peak_flops}}) {
    if (!j.contains(field) || !j[field].is_number() || j[field].get<double>() <= 0) {
      return InvalidArgument(path + ": " + field + ": expected a positive number");
    }
    *out = j[field].get<double>();
  }
  return c;
}

namespace {

// Log-log roofline: x arithmetic intensity (flop/byte), y achieved FLOP/s.
void Roofline(std::ostream& h, const std::vector<TaskResult>& results, const Ceilings& c) {
  constexpr double kW = 640, kH = 360, kLeft = 60, kBottom = 40;
  const double x_lo = 1e-2, x_hi = 1e4;
  const double y_hi = c.peak_flops * 2, y_lo = y_hi / 1e7;
  auto px = [&](double x) { return kLeft + kW * std::log10(x / x_lo) / std::log10(x_hi / x_lo); };
  auto py = [&](double y) { return kH - kH * std::log10(y / y_lo) / std::log10(y_hi / y_lo); };
  h << "<h2>Roofline (" << Escape(c.device) << ": copy " << FormatFixed(c.copy_bytes_per_s / 1e12, 2)
    << " TB/s, peak " << FormatFixed(c.peak_flops / 1e12, 0) << " TFLOP/s)</h2>\n"
    << "<p>Each timed configuration with a cost model: grey the baseline, green the candidate; "
    << "a segment joins them. Configurations without floating-point work are listed below by "
    << "their share of the copy bandwidth.</p>\n<svg width=\"" << kLeft + kW + 50 << "\" height=\""
    << kH + kBottom << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  // The roof: bandwidth-bound up to the ridge, then flat.
  const double ridge = c.peak_flops / c.copy_bytes_per_s;
  h << "<polyline fill=\"none\" stroke=\"#000\" points=\"" << px(x_lo) << ","
    << py(std::max(y_lo, c.copy_bytes_per_s * x_lo)) << " " << px(ridge) << "," << py(c.peak_flops)
    << " " << px(x_hi) << "," << py(c.peak_flops) << "\"/>\n";
  for (double x = x_lo; x <= x_hi * 1.001; x *= 10) {
    h << "<text x=\"" << px(x) - 10 << "\" y=\"" << kH + 16 << "\" font-size=\"11\">" << x
      << "</text>\n";
  }
  h << "<text x=\"" << kLeft + kW / 2 - 60 << "\" y=\"" << kH + 34
    << "\" font-size=\"12\">flop per byte</text>\n";
  for (double y = std::pow(10.0, std::ceil(std::log10(y_lo))); y <= y_hi; y *= 10) {
    char label[16];
    std::snprintf(label, sizeof(label), "%.0e", y);
    h << "<text x=\"0\" y=\"" << py(y) + 4 << "\" font-size=\"11\">" << label << "</text>\n";
  }
  h << "<text x=\"" << kLeft + 5 << "\" y=\"12\" font-size=\"12\">FLOP/s</text>\n";
  std::vector<std::string> copies;
  for (const auto& r : results) {
    for (const auto& cfg : r.configs) {
      if (!cfg.timing.stage.passed() || cfg.bytes <= 0) continue;
      const double tb = cfg.timing.baseline.median() * 1e-6, tc = cfg.timing.candidate.median() * 1e-6;
      if (tb <= 0 || tc <= 0) continue;
      if (cfg.flops <= 0) {
        copies.push_back(r.task_id + " " + cfg.name + ": baseline " +
                         FormatFixed(100 * cfg.bytes / tb / c.copy_bytes_per_s, 1) + "%, candidate " +
                         FormatFixed(100 * cfg.bytes / tc / c.copy_bytes_per_s, 1) + "%");
        continue;
      }
      const double x = std::clamp(cfg.flops / cfg.bytes, x_lo, x_hi);
      const double yb = std::clamp(cfg.flops / tb, y_lo, y_hi), yc = std::clamp(cfg.flops / tc, y_lo, y_hi);
      const std::string title = Escape(r.task_id + " " + cfg.name);
      h << "<line x1=\"" << px(x) << "\" y1=\"" << py(yb) << "\" x2=\"" << px(x) << "\" y2=\""
        << py(yc) << "\" stroke=\"#ccc\"/>\n<circle cx=\"" << px(x) << "\" cy=\"" << py(yb)
        << "\" r=\"3\" fill=\"#999\"><title>" << title << " baseline</title></circle>\n"
        << "<circle cx=\"" << px(x) << "\" cy=\"" << py(yc) << "\" r=\"3\" fill=\"#3a7\"><title>"
        << title << " candidate</title></circle>\n";
    }
  }
  h << "</svg>\n";
  if (!copies.empty()) {
    h << "<ul>\n";
    for (const auto& line : copies) h << "<li>" << Escape(line) << "</li>\n";
    h << "</ul>\n";
  }
}

}  // namespace

std::string HtmlReport(const RunInfo& info, const std::vector<TaskResult>& results,
                       const std::optional<Ceilings>& ceilings) {
  const RunSummary s = Summarize(results);
  std::ostringstream h;
  h << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>arena run "
    << Escape(info.run_id) << "</title>\n<style>body{font:14px sans-serif;margin:2em}"
    << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
    << "td:first-child,th:first-child{text-align:left}.bad{color:#b00}.ok{color:#070}</style>"
    << "</head><body>\n<h1>Run " << Escape(info.run_id) << "</h1>\n<p>agent <b>"
    << Escape(info.agent) << "</b>, tasks " << Escape(info.selector) << ", created "
    << Escape(info.created_at) << ", " << Escape(info.status) << "</p>\n";
  h << "<p>compiled " << s.compiled << "/" << s.tasks << ", correct " << s.correct << "/" << s.tasks
    << ", timed " << s.timed << "; speedup geomean " << FormatSpeedup(s.geomean_speedup)
    << ", mean " << FormatSpeedup(s.mean_speedup) << "; tuning " << FormatSpeedup(s.tuning_geomean)
    << " vs held-out " << FormatSpeedup(s.heldout_geomean) << " (geomean); P(candidate correct | "
    << "baseline correct) on held-out " << Share(s.conditional_correctness) << "</p>\n";
  if (const std::string line = DescribeConfigCounts(s); !line.empty()) h << "<p>" << Escape(line) << "</p>\n";
  h << "<p" << (s.integrity_tasks ? " class=\"bad\"" : "") << ">" << Escape(DescribeIntegrity(s))
    << "</p>\n";

  // Per-configuration speedups, binned on a log2 scale from 1/16 to 16.
  constexpr int kBins = 16;
  std::vector<int> bins(kBins, 0);
  int total = 0;
  for (const auto& r : results) {
    for (const auto& c : r.configs) {
      if (auto sp = c.speedup(); sp && *sp > 0) {
        int k = static_cast<int>(std::floor((std::log2(*sp) + 4) * 2));
        bins[static_cast<size_t>(std::clamp(k, 0, kBins - 1))]++;
        ++total;
      }
    }
  }
  const int peak = std::max(1, *std::max_element(bins.begin(), bins.end()));
  h << "<h2>Speedup per configuration (" << total << " timed)</h2>\n"
    << "<svg width=\"680\" height=\"230\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (int k = 0; k < kBins; ++k) {
    const int height = 180 * bins[static_cast<size_t>(k)] / peak;
    const int x = 20 + 40 * k;
    const bool faster = k >= kBins / 2;
    h << "<rect x=\"" << x << "\" y=\"" << 190 - height << "\" width=\"36\" height=\"" << height
      << "\" fill=\"" << (faster ? "#3a7" : "#c55") << "\"><title>" << bins[static_cast<size_t>(k)]
      << "</title></rect>\n";
    if (k % 2 == 0) {
      const double edge = std::exp2(k / 2.0 - 4);
      h << "<text x=\"" << x << "\" y=\"210\" font-size=\"11\">"
        << (edge < 1 ? "1/" + FormatFixed(1 / edge, 0) : FormatFixed(edge, 0)) << "x</text>\n";
    }
  }
  h << "<line x1=\"340\" y1=\"0\" x2=\"340\" y2=\"190\" stroke=\"#000\" stroke-dasharray=\"4\"/>\n"
    << "</svg>\n";

  if (ceilings) Roofline(h, results, *ceilings);
  h << "<h2>Generalization</h2>\n<table><tr><th>quadrant</th><th>tasks</th></tr>\n";
  for (const auto& [name, n] : s.quadrants) h << "<tr><td>" << Escape(name) << "</td><td>" << n << "</td></tr>\n";
  h << "</table>\n<h2>Tasks</h2>\n<table><tr><th>task</th><th>compile</th><th>correct</th>"
    << "<th>mean</th><th>geomean</th><th>tuning</th><th>held-out</th><th>quadrant</th>"
    << "<th>score</th></tr>\n";
  for (const auto& r : results) {
    const TaskScore t = ScoreTask(r);
    const bool unchecked = Unchecked(r);
    h << "<tr><td>" << Escape(r.task_id) << "</td><td class=\"" << (t.compiled ? "ok" : "bad")
      << "\">" << (t.compiled ? "ok" : "FAIL") << "</td><td class=\""
      << (t.correct ? "ok" : unchecked ? "" : "bad") << "\">"
      << (t.correct ? "yes" : unchecked ? "unchecked" : "NO") << "</td><td>"
      << FormatSpeedup(t.speedup_mean) << "</td><td>" << FormatSpeedup(t.speedup_geomean)
      << "</td><td>" << FormatSpeedup(t.tuning_geomean) << "</td><td>"
      << FormatSpeedup(t.heldout_geomean) << "</td><td>" << QuadrantName(t.quadrant) << "</td><td>"
      << FormatFixed(t.score, 1) << "</td></tr>\n";
  }
  h << "</table>\n</body></html>\n";
  return h.str();
}

}  // namespace arena
