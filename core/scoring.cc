#include "core/scoring.h"

#include <cmath>

namespace arena {

const char* QuadrantName(Quadrant q) {
  switch (q) {
    case Quadrant::kBothPass: return "both_pass";
    case Quadrant::kRegressed: return "optimization_regressed";
    case Quadrant::kBothFail: return "both_fail";
    case Quadrant::kImproved: return "optimization_improved";
    case Quadrant::kNotChecked: return "not_checked";
  }
  return "unknown";
}

std::optional<double> Mean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

std::optional<double> GeometricMean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double s = 0;
  for (double x : v) {
    if (!(x > 0)) return std::nullopt;
    s += std::log(x);
  }
  return std::exp(s / static_cast<double>(v.size()));
}

namespace {
Json Opt(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }
}  // namespace

std::optional<double> ConfigResult::speedup() const {
  if (timing.stage.status != StageStatus::kPassed) return std::nullopt;
  if (!baseline_check.passed() || !candidate_check.passed()) return std::nullopt;
  const std::vector<double>& bs = timing.baseline.us;
  const std::vector<double>& cs = timing.candidate.us;
  if (timing.paired && !bs.empty() && bs.size() == cs.size()) {
    TimingSamples ratios;
    for (size_t i = 0; i < bs.size(); ++i) {
      if (!(bs[i] > 0) || !(cs[i] > 0)) return std::nullopt;
      ratios.us.push_back(bs[i] / cs[i]);
    }
    return ratios.median();
  }
  double b = timing.baseline.median();
  double c = timing.candidate.median();
  if (!(b > 0) || !(c > 0)) return std::nullopt;
  return b / c;
}

Json ConfigResult::ToJson() const {
  return {{"name", name},
          {"kind", ConfigKindName(kind)},
          {"bytes", bytes},
          {"flops", flops},
          {"baseline_check", baseline_check.ToJson()},
          {"candidate_check", candidate_check.ToJson()},
          {"timing", timing.ToJson()}};
}

ConfigResult ConfigResult::FromJson(const Json& j) {
  ConfigResult c;
  c.name = j.value("name", "");
  std::string kind = j.value("kind", "tuning");
  c.kind = kind == "heldout" ? ConfigKind::kHeldout
           : kind == "small" ? ConfigKind::kSmall
                             : ConfigKind::kTuning;
  c.bytes = j.value("bytes", 0.0);
  c.flops = j.value("flops", 0.0);
  c.baseline_check = StageOutcome::FromJson(j.value("baseline_check", Json::object()));
  c.candidate_check = StageOutcome::FromJson(j.value("candidate_check", Json::object()));
  c.timing = TimingOutcome::FromJson(j.value("timing", Json::object()));
  return c;
}

Json TaskResult::ToJson() const {
  Json configs_json = Json::array();
  for (const auto& c : configs) configs_json.push_back(c.ToJson());
  return {{"task_id", task_id},
          {"family", family},
          {"seed", seed},
          {"device", device.ToJson()},
          {"agent", agent},
          {"baseline_compile", baseline_compile.ToJson()},
          {"candidate_compile", candidate_compile.ToJson()},
          {"integrity", integrity.ToJson()},
          {"configs", configs_json},
          {"wall_s", wall_s},
          {"phases", phases},
          {"provenance", provenance}};
}

TaskResult TaskResult::FromJson(const Json& j) {
  TaskResult r;
  r.task_id = j.value("task_id", "");
  r.family = j.value("family", "");
  r.seed = j.value("seed", uint64_t{0});
  r.device = DeviceInfo::FromJson(j.value("device", Json::object()));
  r.agent = j.value("agent", Json::object());
  r.baseline_compile = StageOutcome::FromJson(j.value("baseline_compile", Json::object()));
  r.candidate_compile = StageOutcome::FromJson(j.value("candidate_compile", Json::object()));
  r.integrity = StageOutcome::FromJson(j.value("integrity", Json::object()));
  r.provenance = j.value("provenance", Json::object());
  if (!r.provenance.is_object()) r.provenance = Json::object();
  for (const auto& c : j.value("configs", Json::array())) r.configs.push_back(ConfigResult::FromJson(c));
  r.wall_s = j.value("wall_s", 0.0);
  r.phases = j.value("phases", Json::object());
  if (!r.phases.is_object()) r.phases = Json::object();
  return r;
}

Json TaskScore::ToJson() const {
  return {{"compiled", compiled},
          {"correct", correct},
          {"configs_checked", configs_checked},
          {"configs_timed", configs_timed},
          {"speedup_mean", Opt(speedup_mean)},
          {"speedup_geomean", Opt(speedup_geomean)},
          {"tuning_geomean", Opt(tuning_geomean)},
          {"heldout_geomean", Opt(heldout_geomean)},
          {"score", Opt(score)},
          {"quadrant", QuadrantName(quadrant)}};
}

TaskScore ScoreTask(const TaskResult& r) {
  TaskScore s;
  s.compiled = r.candidate_compile.passed();
  bool integrity_ok = r.integrity.status != StageStatus::kFailed;
  bool any_failed = false;
  std::vector<double> all, tuning, heldout;
  bool heldout_base_checked = false, heldout_base_ok = true;
  bool heldout_cand_checked = false, heldout_cand_ok = true;
  for (const auto& c : r.configs) {
    if (c.candidate_check.status != StageStatus::kSkipped) ++s.configs_checked;
    if (c.candidate_check.status == StageStatus::kFailed) any_failed = true;
    if (FailedWhenTimed(c)) any_failed = true;
    if (c.kind == ConfigKind::kHeldout) {
      if (c.baseline_check.status != StageStatus::kSkipped) {
        heldout_base_checked = true;
        heldout_base_ok &= c.baseline_check.passed();
      }
      if (c.candidate_check.status != StageStatus::kSkipped) {
        heldout_cand_checked = true;
        heldout_cand_ok &= c.candidate_check.passed();
      }
    }
    if (auto sp = c.speedup()) {
      all.push_back(*sp);
      if (c.kind == ConfigKind::kTuning) tuning.push_back(*sp);
      if (c.kind == ConfigKind::kHeldout) heldout.push_back(*sp);
    }
  }
  s.correct = s.compiled && integrity_ok && !any_failed && s.configs_checked > 0;
  // A candidate that does not compile is wrong everywhere it would be checked.
  if (!s.compiled || !integrity_ok) {
    heldout_cand_checked = heldout_base_checked;
    heldout_cand_ok = false;
  }
  if (heldout_base_checked && heldout_cand_checked) {
    if (heldout_base_ok && heldout_cand_ok) s.quadrant = Quadrant::kBothPass;
    else if (heldout_base_ok) s.quadrant = Quadrant::kRegressed;
    else if (heldout_cand_ok) s.quadrant = Quadrant::kImproved;
    else s.quadrant = Quadrant::kBothFail;
  }
  // Speedups count only for a correct candidate: the gate before performance.
  if (s.correct) {
    s.configs_timed = static_cast<int>(all.size());
    s.speedup_mean = Mean(all);
    s.speedup_geomean = GeometricMean(all);
    s.tuning_geomean = GeometricMean(tuning);
    s.heldout_geomean = GeometricMean(heldout);
  }
  if (!s.compiled) {
    s.score = 0;
  } else if (!s.correct && (s.configs_checked > 0 || !integrity_ok)) {
    s.score = 20;
  } else if (s.speedup_mean) {
    s.score = 120 + 100 * *s.speedup_mean;
  }
  return s;
}

bool FailedWhenTimed(const ConfigResult& c) {
  return c.timing.stage.status == StageStatus::kFailed && c.baseline_check.passed() &&
         c.candidate_check.passed();
}

bool FailedOnlyWhenTimed(const TaskResult& r) {
  if (!r.candidate_compile.passed()) return false;
  bool timed_failure = false;
  for (const auto& c : r.configs) {
    if (c.candidate_check.status == StageStatus::kFailed) return false;
    timed_failure |= FailedWhenTimed(c);
  }
  return timed_failure;
}

bool FailedAGate(const TaskResult& r) {
  if (r.candidate_compile.status == StageStatus::kFailed) return true;
  if (r.integrity.status == StageStatus::kFailed) return true;
  for (const auto& c : r.configs) {
    if (c.candidate_check.status == StageStatus::kFailed || FailedWhenTimed(c)) return true;
  }
  return false;
}

bool Unchecked(const TaskResult& r) {
  if (!r.candidate_compile.passed() || FailedAGate(r)) return false;
  for (const auto& c : r.configs) {
    if (c.candidate_check.status != StageStatus::kSkipped) return false;
  }
  return true;
}

Json ConfigCounts::ToJson() const {
  return {{"timed", timed}, {"slower", slower}, {"faster", faster}};
}

Json RunSummary::ToJson() const {
  Json fp = Json::object();
  for (const auto& [p, v] : fast_p) fp[p] = Opt(v);
  return {{"tasks", tasks},
          {"compiled", compiled},
          {"correct", correct},
          {"timed", timed},
          {"mean_speedup", Opt(mean_speedup)},
          {"geomean_speedup", Opt(geomean_speedup)},
          {"fast_p", fp},
          {"tuning_geomean", Opt(tuning_geomean)},
          {"heldout_geomean", Opt(heldout_geomean)},
          {"tuning_configs", tuning_configs.ToJson()},
          {"heldout_configs", heldout_configs.ToJson()},
          {"mean_score", Opt(mean_score)},
          {"quadrants", quadrants},
          {"heldout_baseline_correct", heldout_baseline_correct},
          {"heldout_both_correct", heldout_both_correct},
          {"conditional_correctness", Opt(conditional_correctness)},
          {"integrity", {{"tasks", integrity_tasks}, {"kinds", integrity_kinds}}}};
}

std::vector<std::string> IntegrityFindings(const TaskResult& r) {
  std::vector<std::string> out;
  auto take = [&out](const StageOutcome& o) {
    auto it = o.metrics.find("integrity");
    if (it == o.metrics.end() || !it->is_array()) return;
    for (const auto& f : *it) {
      if (f.is_string()) out.push_back(f.get<std::string>());
    }
  };
  take(r.candidate_compile);
  for (const auto& c : r.configs) {
    take(c.candidate_check);
    take(c.timing.stage);
  }
  return out;
}

std::string DescribeIntegrity(const RunSummary& summary) {
  if (summary.integrity_tasks == 0) return "integrity: no findings";
  std::string line = "integrity: findings against " + std::to_string(summary.integrity_tasks) +
                     "/" + std::to_string(summary.tasks) + " task(s):";
  bool first = true;
  for (const auto& [kind, n] : summary.integrity_kinds) {
    line += (first ? " " : ", ") + kind + " " + std::to_string(n);
    first = false;
  }
  return line;
}

RunSummary Summarize(const std::vector<TaskResult>& results) {
  RunSummary out;
  std::vector<double> means, geomeans, tuning, heldout, scores;
  const std::vector<double> ps = {1.0, 1.5, 2.0};
  std::vector<int> fast(ps.size(), 0);
  for (const char* q : {"both_pass", "optimization_regressed", "both_fail",
                        "optimization_improved", "not_checked"}) {
    out.quadrants[q] = 0;
  }
  for (const auto& r : results) {
    TaskScore s = ScoreTask(r);
    ++out.tasks;
    const std::vector<std::string> findings = IntegrityFindings(r);
    out.integrity_tasks += !findings.empty();
    for (const auto& f : findings) {
      // "candidate: a timed call's ..." and "tampering: ..." alike: the kind
      // is the last label before the message proper.
      std::string kind = f.substr(0, f.find(':'));
      if (kind == "candidate" || kind == "baseline") {
        const size_t start = f.find(':') + 2;
        kind = start < f.size() ? f.substr(start, f.find(':', start) - start) : kind;
      }
      kind = kind.substr(0, kind.find(" ("));
      if (kind.size() > 40) kind = kind.substr(0, 40);
      ++out.integrity_kinds[kind];
    }
    out.compiled += s.compiled;
    out.correct += s.correct;
    out.quadrants[QuadrantName(s.quadrant)]++;
    if (s.quadrant == Quadrant::kBothPass || s.quadrant == Quadrant::kRegressed) {
      ++out.heldout_baseline_correct;
      if (s.quadrant == Quadrant::kBothPass) ++out.heldout_both_correct;
    }
    if (s.score) scores.push_back(*s.score);
    if (s.correct && s.speedup_mean) {
      ++out.timed;
      means.push_back(*s.speedup_mean);
      if (s.speedup_geomean) geomeans.push_back(*s.speedup_geomean);
      for (size_t i = 0; i < ps.size(); ++i) fast[i] += *s.speedup_mean > ps[i];
    }
    if (s.correct) {
      for (const auto& c : r.configs) {
        if (auto sp = c.speedup()) {
          (c.kind == ConfigKind::kHeldout ? heldout : tuning).push_back(*sp);
          ConfigCounts& n = c.kind == ConfigKind::kHeldout ? out.heldout_configs : out.tuning_configs;
          ++n.timed;
          n.slower += *sp < 1 - kNoiseBand;
          n.faster += *sp > 1 + kNoiseBand;
        }
      }
    }
  }
  out.mean_speedup = Mean(means);
  out.geomean_speedup = GeometricMean(geomeans);
  for (size_t i = 0; i < ps.size(); ++i) {
    char key[16];
    std::snprintf(key, sizeof(key), "%.1f", ps[i]);
    // fast_p means nothing where nothing could be timed (no GPU).
    out.fast_p[key] = out.timed > 0 && out.tasks > 0
                          ? std::optional<double>(static_cast<double>(fast[i]) / out.tasks)
                          : std::nullopt;
  }
  out.tuning_geomean = GeometricMean(tuning);
  out.heldout_geomean = GeometricMean(heldout);
  out.mean_score = Mean(scores);
  if (out.heldout_baseline_correct > 0) {
    out.conditional_correctness =
        static_cast<double>(out.heldout_both_correct) / out.heldout_baseline_correct;
  }
  return out;
}

std::string DescribeConfigCounts(const RunSummary& s) {
  if (s.tuning_configs.timed + s.heldout_configs.timed == 0) return "";
  auto share = [](int n, const ConfigCounts& c) {
    return std::to_string(n) + "/" + std::to_string(c.timed);
  };
  const std::string band = std::to_string(static_cast<int>(kNoiseBand * 100 + 0.5)) + "%";
  return "per configuration: slower than the baseline by more than " + band + " on " +
         share(s.tuning_configs.slower, s.tuning_configs) + " tuning and " +
         share(s.heldout_configs.slower, s.heldout_configs) + " held-out, faster by more than " +
         band + " on " + share(s.tuning_configs.faster, s.tuning_configs) + " and " +
         share(s.heldout_configs.faster, s.heldout_configs);
}

}  // namespace arena
