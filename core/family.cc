#include "core/family.h"

#include <algorithm>
#include <cmath>
#include <exception>

namespace arena {

const char* SubjectName(Subject s) {
  return s == Subject::kBaseline ? "baseline" : "candidate";
}

const char* StageStatusName(StageStatus s) {
  switch (s) {
    case StageStatus::kPassed: return "passed";
    case StageStatus::kFailed: return "failed";
    case StageStatus::kSkipped: return "skipped";
  }
  return "unknown";
}

Result<StageStatus> ParseStageStatus(const std::string& s) {
  if (s == "passed") return StageStatus::kPassed;
  if (s == "failed") return StageStatus::kFailed;
  if (s == "skipped") return StageStatus::kSkipped;
  return InvalidArgument("unknown stage status '" + s + "'");
}

Json StageOutcome::ToJson() const {
  return {{"status", StageStatusName(status)}, {"detail", detail}, {"log", log},
          {"seconds", seconds}, {"metrics", metrics}};
}

StageOutcome StageOutcome::FromJson(const Json& j) {
  StageOutcome o;
  auto s = ParseStageStatus(j.value("status", "failed"));
  o.status = s.ok() ? *s : StageStatus::kFailed;
  o.detail = j.value("detail", "");
  o.log = j.value("log", "");
  o.seconds = j.value("seconds", 0.0);
  o.metrics = j.value("metrics", Json::object());
  return o;
}

double TimingSamples::median() const { return percentile(50); }

double TimingSamples::percentile(double p) const {
  if (us.empty()) return std::nan("");
  std::vector<double> v = us;
  std::sort(v.begin(), v.end());
  double rank = p / 100.0 * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(rank));
  size_t hi = std::min(lo + 1, v.size() - 1);
  double frac = rank - static_cast<double>(lo);
  return v[lo] + (v[hi] - v[lo]) * frac;
}

Json TimingOutcome::ToJson() const {
  return {{"stage", stage.ToJson()}, {"method", method}, {"baseline_us", baseline.us},
          {"candidate_us", candidate.us}, {"paired", paired}};
}

TimingOutcome TimingOutcome::FromJson(const Json& j) {
  TimingOutcome t;
  t.stage = StageOutcome::FromJson(j.value("stage", Json::object()));
  t.method = j.value("method", "");
  t.baseline.us = j.value("baseline_us", std::vector<double>{});
  t.candidate.us = j.value("candidate_us", std::vector<double>{});
  t.paired = j.value("paired", false);
  return t;
}

std::vector<const Configuration*> TaskFamily::Configurations(const TaskSpec& task) const {
  std::vector<const Configuration*> out;
  for (const auto& c : task.configs) out.push_back(&c);
  return out;
}

Status ValidateTaskSafely(const TaskFamily& family, const TaskSpec& task) {
  if (!task.starter && !family.TakesTasksWithoutStarter()) {
    return InvalidArgument(task.yaml_path + ": files.starter: false, but family " + task.family +
                           " times its shipped editable files as the baseline: they must be shipped");
  }
  try {
    return family.ValidateTask(task);
  } catch (const std::exception& e) {
    return InvalidArgument(task.yaml_path + ": " + task.family + " section: " + e.what());
  }
}

}  // namespace arena
