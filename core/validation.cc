#include "core/validation.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/files.h"
#include "core/pipeline.h"

namespace arena {
namespace {

std::string Formatted(const char* format, const std::string& text, double value) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), format, text.c_str(), value);
  return buf;
}

}  // namespace

TaskValidation ValidateTaskBaseline(const TaskSpec& task, const TaskFamily& family,
                                    const DeviceInfo& device, const std::string& project_root,
                                    const std::string& work_dir) {
  PipelineOptions o;
  o.device = device;
  o.project_root = project_root;
  o.work_dir = work_dir;
  auto evaluated = EvaluateCandidate(task, family, task.dir, o);
  RemoveTree(work_dir).ok();
  TaskValidation v;
  if (!evaluated.ok()) {
    v.status = evaluated.status();
    return v;
  }
  v.result = std::move(*evaluated);
  // The first property that does not hold, with what was done until then.
  auto failed = [&v](Status why) {
    v.status = std::move(why);
    return std::move(v);
  };
  const TaskResult& r = v.result;
  if (!r.baseline_compile.passed()) {
    return failed(FailedPrecondition(task.id + ": baseline does not compile: " +
                                     r.baseline_compile.detail + "\n" + r.baseline_compile.log));
  }
  v.lines.push_back(
      Formatted("  compile: %s (%.1f s)", r.baseline_compile.detail, r.baseline_compile.seconds));
  // The shipped editable files are what the noop agent submits: they must
  // build (and be correct wherever checked) too. For most families they
  // are the baseline; for some (a PyTorch baseline) a separate starting point.
  if (!task.starter) {
    // Nothing shipped: the noop agent's submission is "no candidate".
    if (r.candidate_compile.passed()) {
      return failed(
          FailedPrecondition(task.id + ": files.starter is false, yet a candidate compiled"));
    }
    v.lines.push_back("  shipped files: none (the agent writes them from scratch); noop: " +
                      r.candidate_compile.detail);
  } else if (!r.candidate_compile.passed()) {
    return failed(FailedPrecondition(task.id + ": the shipped editable files do not compile: " +
                                     r.candidate_compile.detail + "\n" + r.candidate_compile.log));
  } else {
    v.lines.push_back(Formatted("  shipped files compile: %s (%.1f s)", r.candidate_compile.detail,
                                r.candidate_compile.seconds));
  }
  // Configurations this machine could not check, by reason: one line each.
  std::vector<std::pair<std::string, std::vector<std::string>>> skipped;
  for (const ConfigResult& c : r.configs) {
    if (c.baseline_check.status == StageStatus::kFailed) {
      return failed(FailedPrecondition(task.id + ": baseline wrong on " + c.name + ": " +
                                       c.baseline_check.detail + "\n" + c.baseline_check.log));
    }
    if (c.candidate_check.status == StageStatus::kFailed) {
      return failed(FailedPrecondition(task.id + ": the shipped editable files are wrong on " +
                                       c.name + ": " + c.candidate_check.detail + "\n" +
                                       c.candidate_check.log));
    }
    for (const StageOutcome* stage : {&c.baseline_check, &c.candidate_check, &c.timing.stage}) {
      if (stage->status == StageStatus::kSkipped && stage->detail.empty()) {
        return failed(FailedPrecondition(task.id + ": a stage of " + c.name +
                                         " was skipped without a reason"));
      }
    }
    if (c.timing.stage.passed() && (c.timing.method.empty() || c.timing.baseline.us.empty() ||
                                    c.timing.baseline.us.size() != c.timing.candidate.us.size())) {
      return failed(FailedPrecondition(task.id + ": timing of " + c.name +
                                       " passed without a method or with unequal samples"));
    }
    if (c.baseline_check.status == StageStatus::kSkipped) {
      auto same = std::find_if(skipped.begin(), skipped.end(),
                               [&](const auto& s) { return s.first == c.baseline_check.detail; });
      if (same == skipped.end())
        same = skipped.insert(skipped.end(), {c.baseline_check.detail, {}});
      same->second.push_back(c.name);
      continue;  // neither checked nor timed: said once per reason below
    }
    ++v.checked;
    std::string line = "  " + c.name + " (" + ConfigKindName(c.kind) + "): check " +
                       StageStatusName(c.baseline_check.status);
    Json fp = c.baseline_check.metrics.value("fingerprints", Json::array());
    bool varies = false;
    for (const auto& trial : fp) varies |= trial != fp.front();
    if (fp.size() >= 2 && !varies) {
      return failed(FailedPrecondition(task.id + ": degenerate output on " + c.name +
                                       ": identical for " + std::to_string(fp.size()) +
                                       " trials with different inputs"));
    }
    line += fp.size() >= 2 ? ", output varies with the inputs"
                           : ", degeneracy not checked (needs 2 trials with fingerprints)";
    if (c.timing.stage.passed()) {
      char buf[96];
      std::snprintf(buf, sizeof(buf), ", %.2f us (A/A %.3f)", c.timing.baseline.median(),
                    c.speedup().value_or(0));
      line += buf;
    } else {
      line += ", timing " + std::string(StageStatusName(c.timing.stage.status)) + ": " +
              c.timing.stage.detail;
    }
    v.lines.push_back(line);
  }
  for (const auto& [reason, names] : skipped) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    v.lines.push_back("  check and timing " + reason + ": " + std::to_string(names.size()) +
                      " configuration(s) (" + list + ")");
  }
  // What the family says it can check here is what it checked: a family
  // that can only compile here (no GPU) is not failing; one that says it
  // can check and checked nothing is, and so is one that checked what it
  // said it could not.
  const FamilyCapabilities caps = family.Capabilities(device);
  const bool can_check = caps.baseline_checks != FamilyCapabilities::Checks::kNone;
  if (v.checked == 0 && can_check) {
    return failed(
        FailedPrecondition(task.id + ": no configuration could be checked on this machine"));
  }
  if (v.checked > 0 && !can_check) {
    return failed(FailedPrecondition(task.id + ": checked on " + device.Describe() +
                                     " though the family said it cannot (" + caps.why + ")"));
  }
  if (!can_check) {
    if (caps.why.empty()) {
      return failed(
          FailedPrecondition(task.id + ": the family cannot check here and does not say why"));
    }
    v.lines.push_back("  correctness: skipped: " + caps.why + " (compile only on this machine)");
  }
  return v;
}

}  // namespace arena
