// A test-only task family that needs no compiler and no GPU. Its "kernel" is
// a small YAML file (kernel.fake) that says how the candidate behaves:
//
//   compile: ok            # anything else: the compile error message
//   wrong_on: [heldout]    # config names, or tuning / heldout / all
//   hang_on: [all]         # as wrong_on: the check runs out of time there
//   time_us: 50            # median time; or a map {default: 50, cfg: 20}
//   sleep_ms: 0            # per check, so tests can interrupt a run
//   tamper: false          # rewrites the harness file (an integrity test)
//   constant: false        # the output ignores the inputs (a degenerate task)
//   BLOCK = 64             # a knob, as a Triton kernel's module constant;
//   time_us: "BLOCK / 2"   #   time_us and wrong_if may be expressions of knobs
//   wrong_if: "max(0, BLOCK - 512)"  # nonzero: wrong
//
// With it CI exercises the pipeline, scoring, quadrants, resume and reports.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include <yaml-cpp/yaml.h>

#include "core/expr.h"
#include "core/family.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

struct FakeKernel {
  std::string compile = "ok";
  std::vector<std::string> wrong_on;
  std::vector<std::string> hang_on;
  std::vector<std::string> hang_timing_on;  // correct, but never ends when timed
  YAML::Node time_us;
  int sleep_ms = 0;
  bool tamper = false;  // rewrites the harness file reference.txt
  bool constant = false;  // the output ignores the inputs
  ParameterValues knobs;  // "NAME = value" lines
  std::string wrong_if;   // an expression of the knobs: wrong where nonzero
};

Result<FakeKernel> LoadKernel(const std::string& dir) {
  fs::path path = fs::path(dir) / "kernel.fake";
  if (!fs::is_regular_file(path)) return NotFound("kernel.fake is missing");
  FakeKernel k;
  // Lines "NAME = value" are knobs, as in a Triton kernel's module constants;
  // the rest is YAML.
  std::ifstream in(path);
  std::string line, yaml;
  static const std::regex kKnob(R"(^([A-Z_][A-Z0-9_]*)\s*=\s*([-0-9.eE+]+)\s*$)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, kKnob)) {
      k.knobs[m[1]] = std::stod(m[2]);
    } else {
      yaml += line + "\n";
    }
  }
  try {
    YAML::Node n = YAML::Load(yaml);
    if (n["compile"]) k.compile = n["compile"].as<std::string>();
    if (n["wrong_on"]) k.wrong_on = n["wrong_on"].as<std::vector<std::string>>();
    if (n["hang_on"]) k.hang_on = n["hang_on"].as<std::vector<std::string>>();
    if (n["hang_timing_on"]) k.hang_timing_on = n["hang_timing_on"].as<std::vector<std::string>>();
    k.time_us = n["time_us"];
    if (n["sleep_ms"]) k.sleep_ms = n["sleep_ms"].as<int>();
    if (n["tamper"]) k.tamper = n["tamper"].as<bool>();
    if (n["constant"]) k.constant = n["constant"].as<bool>();
    if (n["wrong_if"]) k.wrong_if = n["wrong_if"].as<std::string>();
  } catch (const YAML::Exception& e) {
    return InvalidArgument("kernel.fake:" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return k;
}

double TimeFor(const FakeKernel& k, const std::string& config) {
  if (!k.time_us) return 100;
  if (k.time_us.IsScalar()) {
    // A number, or an expression of the knobs.
    auto v = EvaluateExpression(k.time_us.Scalar(), k.knobs);
    return v.ok() ? *v : 1e9;
  }
  if (k.time_us[config]) return k.time_us[config].as<double>();
  return k.time_us["default"] ? k.time_us["default"].as<double>() : 100;
}

bool Listed(const std::vector<std::string>& names, const Configuration& c) {
  for (const auto& w : names) {
    if (w == "all" || w == c.name || w == ConfigKindName(c.kind)) return true;
  }
  return false;
}

bool WrongOn(const FakeKernel& k, const Configuration& c) {
  if (!k.wrong_if.empty()) {
    auto v = EvaluateExpression(k.wrong_if, k.knobs);
    if (!v.ok() || *v != 0) return true;
  }
  return Listed(k.wrong_on, c);
}

class FakeSession : public EvaluationSession {
 public:
  explicit FakeSession(const EvaluationContext& ctx) : ctx_(ctx) {}

  StageOutcome Compile(Subject s) override {
    auto k = LoadKernel(s == Subject::kBaseline ? ctx_.baseline_dir : ctx_.candidate_dir);
    if (!k.ok()) return StageOutcome::Failed(k.status().message());
    if (k->compile != "ok") return StageOutcome::Failed("compile error", k->compile);
    kernels_[static_cast<int>(s)] = *k;
    return StageOutcome::Passed("fake compile");
  }

  StageOutcome Check(Subject s, const Configuration& c, uint64_t seed) override {
    const FakeKernel& k = kernels_[static_cast<int>(s)];
    if (k.sleep_ms) std::this_thread::sleep_for(std::chrono::milliseconds(k.sleep_ms));
    if (k.tamper) {
      std::ofstream(fs::path(ctx_.candidate_dir) / "reference.txt") << "whatever I output\n";
    }
    if (Listed(k.hang_on, c)) {
      // What the harness worker reports when a check outlives its limit.
      StageOutcome o = StageOutcome::Failed("candidate crashed or hung the worker: no reply in time");
      o.metrics["timed_out"] = true;
      return o;
    }
    if (WrongOn(k, c)) return StageOutcome::Failed("output differs from the reference");
    StageOutcome o = StageOutcome::Passed("fake check");
    // Outputs depend on the inputs, hence on the seed (non-degenerate).
    o.metrics["fingerprints"] = Json::array();
    for (int trial = 0; trial < ctx_.task->trials; ++trial) {
      uint64_t varying = k.constant ? 0 : seed % 1000003 + trial;
      o.metrics["fingerprints"].push_back({std::to_string(varying) + ":" + c.name});
    }
    return o;
  }

  TimingOutcome Time(const Configuration& c) override {
    TimingOutcome t;
    if (Listed(kernels_[1].hang_timing_on, c)) {
      t.stage = StageOutcome::Failed("candidate: timed out after 60.0 s");
      t.stage.metrics["timed_out"] = true;
      return t;
    }
    t.stage = StageOutcome::Passed("fake timing");
    t.method = "fake";
    double b = TimeFor(kernels_[0], c.name), k = TimeFor(kernels_[1], c.name);
    for (int i = 0; i < ctx_.task->timing.repetitions; ++i) {
      double wobble = 1.0 + 0.001 * ((i * 7) % 5 - 2);  // deterministic spread
      t.baseline.us.push_back(b * wobble);
      t.candidate.us.push_back(k * wobble);
    }
    return t;
  }

 private:
  EvaluationContext ctx_;
  FakeKernel kernels_[2];
};

class FakeFamily : public TaskFamily {
 public:
  Status ValidateTask(const TaskSpec& task) const override {
    if (task.editable.size() != 1 || task.editable[0] != "kernel.fake") {
      return InvalidArgument(task.yaml_path + ": files.editable: the fake family edits kernel.fake");
    }
    return OkStatus();
  }
  Result<std::unique_ptr<EvaluationSession>> Open(const EvaluationContext& ctx) const override {
    return std::unique_ptr<EvaluationSession>(new FakeSession(ctx));
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_TASK_FAMILY("fake", arena::FakeFamily);
