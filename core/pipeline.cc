#include "core/pipeline.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <map>
#include <random>

#include "core/files.h"
#include "core/provenance.h"

namespace arena {
namespace fs = std::filesystem;

uint64_t DrawSeed() {
  std::random_device rd;
  uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  return s == 0 ? 1 : s;
}

namespace {

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Stages one subject's folder: the task as shipped, with `editable` files
// taken from `source_dir` when given.
Status Stage(const TaskSpec& task, const std::string& dest, const std::string& source_dir,
             std::string* missing) {
  ARENA_RETURN_IF_ERROR(ResetDir(dest));
  ARENA_RETURN_IF_ERROR(CopyTree(task.dir, dest));
  if (source_dir.empty()) return OkStatus();
  for (const auto& rel : task.editable) {
    fs::path src = fs::path(source_dir) / rel;
    if (!fs::is_regular_file(src)) {
      *missing += (missing->empty() ? "" : ", ") + rel;
      fs::remove(fs::path(dest) / rel);
      continue;
    }
    ARENA_RETURN_IF_ERROR(CopyFile(src.string(), (fs::path(dest) / rel).string()));
  }
  return OkStatus();
}

StageOutcome HarnessError(const std::string& why) { return StageOutcome::Failed("harness error", why); }

// A call into a family's session whose code throws (a reply of an
// unexpected shape, a value no parser took) gives what `on_throw` makes of
// why: that stage's failure, said as such; the other stages, the next task
// and the run go on, and a --resume does not meet the same abort again.
template <typename Fn, typename OnThrow>
auto Guarded(Fn&& fn, OnThrow&& on_throw) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::exception& e) {
    return on_throw(std::string("the family's code threw: ") + e.what());
  }
}

}  // namespace

Result<TaskResult> EvaluateCandidate(const TaskSpec& task, const TaskFamily& family,
                                     const std::string& candidate_dir,
                                     const PipelineOptions& options) {
  auto start = std::chrono::steady_clock::now();
  auto note = [&](const std::string& s) {
    if (options.on_stage) options.on_stage(s);
  };
  TaskResult result;
  result.task_id = task.id;
  result.family = task.family;
  result.device = options.device;
  result.provenance = MakeProvenance(task, options.device);

  // Families run processes in other folders: every path they get is absolute.
  const fs::path work_dir = fs::absolute(options.work_dir).lexically_normal();
  const std::string baseline_dir = (work_dir / "baseline").string();
  const std::string cand_dir = (work_dir / "candidate").string();
  // A session kept open by an earlier evaluation of this task and folder
  // has its baseline staged and compiled already.
  SessionReuse* reuse = options.reuse;
  const std::string reuse_key = task.id + '\0' + work_dir.string();
  if (reuse != nullptr && reuse->key_ != reuse_key) reuse->Close();
  const bool reusing = reuse != nullptr && reuse->session_ != nullptr;
  // A kept session's calls share the seed its first call drew.
  if (options.seed != 0) {
    result.seed = options.seed;
  } else if (reusing && reuse->seed_ != 0) {
    result.seed = reuse->seed_;
  } else {
    result.seed = DrawSeed();
  }
  if (reuse != nullptr) reuse->seed_ = result.seed;
  std::string missing;
  auto phase = std::chrono::steady_clock::now();
  if (!reusing) ARENA_RETURN_IF_ERROR(Stage(task, baseline_dir, "", &missing));
  ARENA_RETURN_IF_ERROR(Stage(task, cand_dir, candidate_dir, &missing));
  // What was submitted, before any of it runs.
  result.provenance["candidate_hash"] = CandidateContentHash(task, cand_dir);

  // The harness files as shipped, to detect tampering afterwards.
  std::map<std::string, std::string> harness;
  for (const auto& rel : task.harness) {
    ARENA_ASSIGN_OR_RETURN(harness[rel], ReadFile((fs::path(task.dir) / rel).string()));
  }

  result.phases["stage_s"] = SecondsSince(phase);

  EvaluationContext ctx;
  ctx.task = &task;
  ctx.baseline_dir = baseline_dir;
  ctx.candidate_dir = cand_dir;
  ctx.work_dir = work_dir.string();
  ctx.device = options.device;
  ctx.project_root =
      fs::absolute(options.project_root.empty() ? "." : options.project_root).lexically_normal().string();
  ctx.stage_timeout_s = options.stage_timeout_s;
  ctx.prepare_next = options.prepare_next;
  std::unique_ptr<EvaluationSession> owned;  // a session of this evaluation alone
  phase = std::chrono::steady_clock::now();
  if (!reusing) {
    ARENA_ASSIGN_OR_RETURN(owned, family.Open(ctx));
    if (reuse != nullptr) {
      reuse->session_ = std::move(owned);
      reuse->key_ = reuse_key;
    }
  }
  EvaluationSession* session = reuse != nullptr ? reuse->session_.get() : owned.get();
  result.phases["open_s"] = SecondsSince(phase);

  // A stage's seconds are what its family measured of its work where it
  // says (a worker's reply); the rest of the call (starting the worker, the
  // round trip) is counted in the phase "harness_s".
  double harness_s = 0;
  auto overhead = [&](std::chrono::steady_clock::time_point t, double seconds) {
    harness_s += std::max(0.0, SecondsSince(t) - seconds);
  };
  auto timed = [&](auto&& fn) {
    auto t = std::chrono::steady_clock::now();
    StageOutcome o = Guarded(fn, HarnessError);
    if (o.seconds == 0) o.seconds = SecondsSince(t);
    overhead(t, o.seconds);
    return o;
  };

  if (reusing) {
    // Compiled by the session's first evaluation; it cost nothing now.
    result.baseline_compile = reuse->baseline_compile_;
    result.baseline_compile.seconds = 0;
    result.baseline_compile.metrics["compiled_by_an_earlier_evaluation"] = true;
  } else {
    note("compile baseline");
    result.baseline_compile = timed([&] { return session->Compile(Subject::kBaseline); });
    if (reuse != nullptr) reuse->baseline_compile_ = result.baseline_compile;
  }
  if (reuse != nullptr) ++reuse->evaluations_;
  if (!missing.empty()) {
    result.candidate_compile =
        task.starter ? StageOutcome::Failed("the candidate lacks editable file(s): " + missing)
                     : StageOutcome::Failed("no candidate: the task ships no starting code and none "
                                            "was written (" + missing + ")");
  } else {
    note("compile candidate");
    result.candidate_compile = timed([&] { return session->Compile(Subject::kCandidate); });
  }
  const bool base_ok = result.baseline_compile.passed();
  const bool cand_ok = result.candidate_compile.passed();

  // A subject that ran out of time on kMaxTimeouts configurations (a
  // kernel that never ends) is not given the full time limit again on every
  // other configuration: its remaining checks are skipped, saying why.
  constexpr int kMaxTimeouts = 2;
  int timeouts[2] = {0, 0};
  int timing_timeouts = 0;
  const FamilyCapabilities caps = family.Capabilities(options.device);
  auto check = [&](Subject subject, const Configuration& config) {
    const FamilyCapabilities::Checks can = caps.checks(subject);
    if (can == FamilyCapabilities::Checks::kNone) {
      return StageOutcome::Skipped("skipped: " + caps.why + " (" + SubjectName(subject) +
                                   " checks need what this device lacks)");
    }
    if (can == FamilyCapabilities::Checks::kSmall && config.kind != ConfigKind::kSmall) {
      return StageOutcome::Skipped("skipped: " + caps.why +
                                   " (only the small configuration is checked here)");
    }
    int& n = timeouts[subject == Subject::kBaseline ? 0 : 1];
    if (n >= kMaxTimeouts) {
      return StageOutcome::Skipped("skipped: " + std::string(SubjectName(subject)) +
                                   " ran out of time on " + std::to_string(n) +
                                   " configurations already");
    }
    StageOutcome o = timed([&] { return session->Check(subject, config, result.seed); });
    if (o.metrics.value("timed_out", false)) ++n;
    return o;
  };
  for (const Configuration* config : family.Configurations(task)) {
    if (!options.kinds.empty() && !options.kinds.count(config->kind)) continue;
    if (!options.config_names.empty() && !options.config_names.count(config->name)) continue;
    ConfigResult cr;
    cr.name = config->name;
    cr.kind = config->kind;
    cr.bytes = config->bytes;
    cr.flops = config->flops;
    // The same seed for both subjects: both see the very same inputs.
    if (base_ok && reusing && reuse->baseline_passed_.count(config->name)) {
      // The baseline does not change within a session: once correct on a
      // configuration, it is not checked there again.
      cr.baseline_check = StageOutcome::Passed(
          "correct in an earlier evaluation of this session (seed " +
          std::to_string(reuse->baseline_passed_.at(config->name)) + "); not checked again");
      cr.baseline_check.metrics["checked_by_an_earlier_evaluation"] = true;
    } else if (base_ok) {
      note("check " + config->name + " baseline");
      cr.baseline_check = check(Subject::kBaseline, *config);
      if (reuse != nullptr && cr.baseline_check.passed()) {
        reuse->baseline_passed_[config->name] = result.seed;
      }
    } else {
      cr.baseline_check = StageOutcome::Skipped("baseline did not compile");
    }
    if (cand_ok) {
      note("check " + config->name + " candidate");
      cr.candidate_check = check(Subject::kCandidate, *config);
    } else {
      cr.candidate_check = StageOutcome::Skipped("candidate did not compile");
    }
    if (config->kind == ConfigKind::kSmall) {
      // The small configuration exists for checks on machines without the
      // device; it is too small to say anything about speed.
      cr.timing.stage = StageOutcome::Skipped("not timed: the small configuration only serves checks");
    } else if (!options.timing) {
      cr.timing.stage = StageOutcome::Skipped("not timed: checks only were asked for");
    } else if (!caps.time) {
      cr.timing.stage = StageOutcome::Skipped("skipped: " + caps.why);
    } else if (cr.baseline_check.passed() && cr.candidate_check.passed() &&
               timing_timeouts >= kMaxTimeouts) {
      // Timing runs out of time the way checks do: a kernel that never ends
      // is not given the full limit again on every configuration.
      cr.timing.stage = StageOutcome::Skipped(
          "skipped: timing ran out of time on " + std::to_string(timing_timeouts) +
          " configurations already");
    } else if (cr.baseline_check.passed() && cr.candidate_check.passed()) {
      note("time " + config->name);
      auto t = std::chrono::steady_clock::now();
      cr.timing = Guarded([&] { return session->Time(*config); }, [](const std::string& why) {
        TimingOutcome failed;
        failed.stage = HarnessError(why);
        return failed;
      });
      if (cr.timing.stage.seconds == 0) cr.timing.stage.seconds = SecondsSince(t);
      overhead(t, cr.timing.stage.seconds);
      if (cr.timing.stage.metrics.value("timed_out", false)) ++timing_timeouts;
    } else if (cr.candidate_check.status == StageStatus::kSkipped ||
               cr.baseline_check.status == StageStatus::kSkipped) {
      const StageOutcome& skipped = cr.candidate_check.status == StageStatus::kSkipped
                                        ? cr.candidate_check
                                        : cr.baseline_check;
      cr.timing.stage = StageOutcome::Skipped("not timed: check " + skipped.detail);
    } else {
      cr.timing.stage =
          StageOutcome::Skipped("not timed: baseline and candidate must both be correct");
    }
    result.configs.push_back(std::move(cr));
  }
  result.provenance["toolchain"] =
      Guarded([&] { return session->Toolchain(); }, [](const std::string& why) { return Json(why); });
  result.phases["harness_s"] = harness_s;
  phase = std::chrono::steady_clock::now();
  owned.reset();  // ends worker processes before the integrity check
  result.phases["close_s"] = SecondsSince(phase);

  // Harness files must be exactly as shipped in the candidate's folder.
  std::string tampered;
  for (const auto& [rel, original] : harness) {
    auto now = ReadFile((fs::path(cand_dir) / rel).string());
    if (!now.ok() || *now != original) tampered += (tampered.empty() ? "" : ", ") + rel;
  }
  result.integrity = tampered.empty()
                         ? StageOutcome::Passed("harness files unchanged")
                         : StageOutcome::Failed("harness file(s) modified during evaluation: " +
                                                tampered);
  result.wall_s = SecondsSince(start);
  return result;
}

}  // namespace arena
