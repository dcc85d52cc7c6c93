// The autotune agent: no model, no network. It searches a task's declared
// tunables (block sizes, warps, stages, unroll and vector widths, ...) with
// real compile-check-time feedback on the tuning configurations, and submits
// the best correct variant. Deterministic for a given seed.
//
// A tunable is a constant of an editable file, written in one of the forms
//   NAME = value                   (Python: a module-level assignment)
//   #define NAME value             (C, C++, HIP)
//   constexpr <type> NAME = value; (C++)
//
// Search: coordinate descent from the shipped defaults. In a seeded order,
// each tunable in turn tries its values with the others held at the best so
// far; a variant is kept if it is correct and faster by more than
// `min_gain` (default 1%). Passes repeat until nothing improves or the
// budget ends. Config: max_evals (default 40), max_passes (3), min_gain.
#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "core/agent.h"
#include "core/files.h"
#include "core/tunables.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

std::string ValueText(const Json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// Where a tunable lives: which editable file, and how to rewrite it.
struct Knob {
  std::string name;
  std::string file;
  std::vector<Json> values;
  Json current;
};

class AutotuneAgent : public AgentAdapter {
 public:
  SectionSchema ConfigSchema() const override {
    return {"",
            {{"max_evals", FieldType::kInt},
             {"max_passes", FieldType::kInt},
             {"min_gain", FieldType::kNumber}}};
  }
  Result<AgentOutcome> Run(const AgentRequest& req) override {
    auto start = std::chrono::steady_clock::now();
    AgentOutcome out;
    const TaskSpec& task = *req.task;
    const int max_evals = req.config.value("max_evals", 40);
    const int max_passes = req.config.value("max_passes", 3);
    const double min_gain = req.config.value("min_gain", 0.01);
    auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };

    // The editable files as they are, and where each tunable lives.
    std::map<std::string, std::string> files;
    for (const auto& rel : task.editable) {
      ARENA_ASSIGN_OR_RETURN(files[rel], ReadFile((fs::path(req.workspace) / rel).string()));
    }
    std::vector<Knob> knobs;
    for (const auto& t : task.tunables) {
      Knob k{t.name, "", {}, t.default_value};
      for (const auto& v : t.values) k.values.push_back(v);
      for (auto& [rel, text] : files) {
        if (FindTunable(text, t.name)) {
          k.file = rel;
          break;
        }
      }
      if (k.file.empty()) {
        out.transcript += "tunable " + t.name + " not found in the editable files; skipped\n";
        continue;
      }
      knobs.push_back(std::move(k));
    }
    if (knobs.empty()) {
      out.transcript += "no tunables to search: the baseline is submitted unchanged\n";
      return out;
    }
    if (!req.feedback) return FailedPrecondition("autotune agent: no feedback function");

    std::mt19937_64 rng(req.seed);
    auto write = [&](const std::vector<Knob>& ks) -> Status {
      std::map<std::string, std::string> variant = files;
      for (const auto& k : ks) RewriteTunable(&variant[k.file], k.name, ValueText(k.current));
      for (const auto& [rel, text] : variant) {
        ARENA_RETURN_IF_ERROR(WriteFileAtomic((fs::path(req.workspace) / rel).string(), text));
      }
      return OkStatus();
    };
    auto describe = [](const std::vector<Knob>& ks) {
      std::string s;
      for (const auto& k : ks) s += (s.empty() ? "" : " ") + k.name + "=" + ValueText(k.current);
      return s;
    };
    int evals = 0;
    auto evaluate = [&](const std::vector<Knob>& ks) -> std::optional<double> {
      ++evals;
      if (!write(ks).ok()) return std::nullopt;
      auto report = req.feedback(FeedbackOptions());
      std::string line = "[" + std::to_string(evals) + "] " + describe(ks) + ": ";
      if (!report.ok()) {
        out.transcript += line + "feedback failed: " + report.status().message() + "\n";
        return std::nullopt;
      }
      if (!report->compiled) line += "does not compile";
      else if (!report->checked) line += "compiles; not checked on this machine";
      else if (!report->correct) line += "wrong";
      else if (!report->speedup) line += "correct, not timed";
      else line += "correct, " + std::to_string(*report->speedup).substr(0, 6) + "x";
      out.transcript += line + "\n";
      if (report->compiled && !report->checked) return 0.0;  // nothing to compare: like untimed
      if (!report->compiled || !report->correct) return std::nullopt;
      return report->speedup ? *report->speedup : 0.0;
    };

    std::optional<double> best = evaluate(knobs);
    if (!best) {
      out.ok = false;
      out.detail = "the shipped defaults are not correct: nothing to tune from";
      ARENA_RETURN_IF_ERROR(write(knobs));
      return out;
    }
    if (*best == 0.0) {
      out.transcript += "feedback has no checks or timing on this machine: the defaults are kept\n";
      out.wall_s = elapsed();
      out.feedback_calls = evals;
      return out;
    }
    bool improved = true;
    for (int pass = 0; pass < max_passes && improved; ++pass) {
      improved = false;
      std::vector<size_t> order(knobs.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng);
      for (size_t i : order) {
        std::vector<Json> candidates = knobs[i].values;
        std::shuffle(candidates.begin(), candidates.end(), rng);
        for (const Json& v : candidates) {
          if (v == knobs[i].current) continue;
          if (evals >= max_evals ||
              (req.time_budget_s > 0 && elapsed() > req.time_budget_s)) {
            out.transcript += "budget reached\n";
            pass = max_passes;
            improved = false;
            break;
          }
          std::vector<Knob> trial = knobs;
          trial[i].current = v;
          auto s = evaluate(trial);
          if (s && *s > *best * (1 + min_gain)) {
            best = s;
            knobs = trial;
            improved = true;
          }
        }
      }
    }
    ARENA_RETURN_IF_ERROR(write(knobs));
    out.transcript += "best: " + describe(knobs) + " at " + std::to_string(*best).substr(0, 6) +
                      "x on the tuning configurations\n";
    out.wall_s = elapsed();
    out.feedback_calls = evals;
    return out;
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_AGENT("autotune", arena::AutotuneAgent);
