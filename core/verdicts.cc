#include "core/verdicts.h"

#include <map>
#include <sstream>

#include "core/provenance.h"

namespace arena {
namespace {

std::string Hash(const TaskResult& r, const char* key) {
  if (!r.provenance.is_object()) return "";
  auto it = r.provenance.find(key);
  return it != r.provenance.end() && it->is_string() ? it->get<std::string>() : "";
}

// Compares one stage's verdict; `whole`: a stage that ran there and not
// here is a change too.
void Compare(const std::string& what, const StageOutcome& then, const StageOutcome& now,
             bool whole, VerdictCheck* check) {
  const bool ran_then = then.status != StageStatus::kSkipped;
  const bool ran_now = now.status != StageStatus::kSkipped;
  if (ran_then && ran_now) {
    ++check->compared;
    if (then.status != now.status) {
      check->changes.push_back(what + ": " + StageStatusName(then.status) + ", now " +
                               StageStatusName(now.status) +
                               (now.detail.empty() ? "" : " (" + now.detail + ")"));
    }
  } else if (whole && ran_then != ran_now) {
    ++check->compared;
    check->changes.push_back(what + ": " + StageStatusName(then.status) + ", now " +
                             StageStatusName(now.status) +
                             (now.detail.empty() ? "" : " (" + now.detail + ")"));
  }
}

}  // namespace

std::vector<VerdictCheck> CheckVerdicts(
    const std::vector<TaskResult>& replayed,
    const std::vector<std::pair<RunInfo, std::vector<TaskResult>>>& committed) {
  std::vector<VerdictCheck> checks;
  for (const TaskResult& now : replayed) {
    VerdictCheck check;
    check.task_id = now.task_id;
    const std::string candidate = Hash(now, "candidate_hash");
    const std::string key = ComparableKey(now.provenance);
    // The committed result of this submission: same device first, then the
    // latest run (runs come oldest first).
    const TaskResult* then = nullptr;
    bool other_submission = false;
    for (const auto& [info, results] : committed) {
      for (const TaskResult& r : results) {
        if (r.task_id != now.task_id) continue;
        if (candidate.empty() || Hash(r, "candidate_hash") != candidate) {
          other_submission = true;
          continue;
        }
        const bool same = ComparableKey(r.provenance) == key;
        // A later run's result replaces an earlier one's of the same kind.
        if (then == nullptr || same || !check.same_device) {
          then = &r;
          check.same_device = same;
          check.committed_run = info.run_id;
        }
      }
    }
    if (candidate.empty()) {
      check.problem = "the replayed result records no submission hash";
    } else if (then == nullptr) {
      check.problem = other_submission
                          ? "the committed verdicts are on other files than this submission"
                          : "no committed verdict for this task";
    } else if (Hash(*then, "task_hash") != Hash(now, "task_hash")) {
      check.problem = "the task's files changed since the committed verdict (" +
                      check.committed_run + "): evaluate the submission again and commit it";
    }
    if (!check.problem.empty()) {
      checks.push_back(std::move(check));
      continue;
    }
    const bool whole = check.same_device;
    Compare("compile", then->candidate_compile, now.candidate_compile, whole, &check);
    Compare("integrity", then->integrity, now.integrity, whole, &check);
    std::map<std::string, const ConfigResult*> now_configs;
    for (const auto& c : now.configs) now_configs[c.name] = &c;
    for (const auto& c : then->configs) {
      auto it = now_configs.find(c.name);
      if (it == now_configs.end()) {
        if (whole && c.candidate_check.status != StageStatus::kSkipped) {
          check.changes.push_back("check " + c.name + ": " +
                                  StageStatusName(c.candidate_check.status) +
                                  ", now not evaluated");
        }
        continue;
      }
      Compare("check " + c.name, c.candidate_check, it->second->candidate_check, whole, &check);
    }
    if (check.compared == 0 && check.changes.empty()) {
      check.problem = "nothing that ran here ran in the committed run (" + check.committed_run + ")";
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

std::string FormatVerdictChecks(const std::vector<VerdictCheck>& checks) {
  if (checks.empty()) return "";
  std::ostringstream out;
  int unchanged = 0;
  for (const auto& c : checks) {
    if (c.ok()) {
      ++unchanged;
      out << "unchanged  " << c.task_id << "  (" << c.compared << " verdict(s) against "
          << c.committed_run << (c.same_device ? "" : ", those this machine could check") << ")\n";
    } else if (!c.problem.empty()) {
      out << "PROBLEM    " << c.task_id << "  " << c.problem << "\n";
    } else {
      out << "CHANGED    " << c.task_id << "  (against " << c.committed_run << ")\n";
      for (const auto& line : c.changes) out << "             " << line << "\n";
    }
  }
  out << unchanged << " of " << checks.size() << " submission(s) kept their verdicts\n";
  return out.str();
}

}  // namespace arena
