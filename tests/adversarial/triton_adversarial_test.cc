// Every adversarial Triton candidate in tests/adversarial/triton/, evaluated
// on the gelu task as the arena evaluates an agent's files, must get the
// verdict its header asks for:
//   # expect: pass                 compiled and correct (honest controls, and
//                                  attacks whose success would show as wrong)
//   # expect: pass, slower         the same; timed slower than the baseline
//   # expect: A|B|...              not correct, with one of these in the reason
//   # expect: A|...|no gain        the same, or (an attack that can lose its
//                                  race and never happen) correct and timed
//                                  slower than the baseline on a GPU on
//                                  every timed configuration
//   # where: gpu                   the class shows only on a GPU
// On this machine the small configuration is checked under the Triton
// interpreter; tools/gpu/adversarial.sh runs the same files on a GPU.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/device.h"
#include "core/files.h"
#include "core/pipeline.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kCandidates[] = "tests/adversarial/triton";
constexpr char kGelu[] = "tasks/triton2triton/elementwise/gelu/task.yaml";

struct Candidate {
  std::string file;
  std::string expect;
  bool gpu_only = false;
};

void PrintTo(const Candidate& c, std::ostream* os) { *os << c.file; }

std::string Header(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  const std::string prefix = "# " + key + ": ";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return "";
}

std::vector<Candidate> Candidates() {
  std::vector<Candidate> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kCandidates, ec)) {
    if (e.path().extension() != ".py" || e.path().filename().string()[0] == '_') continue;
    auto text = ReadFile(e.path().string());
    if (!text.ok()) continue;
    out.push_back({e.path().filename().string(), Header(*text, "expect"),
                   Header(*text, "where") == "gpu"});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  return out;
}

bool ProcessWithMarkerAlive(const std::string& marker) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::ifstream f(e.path() / "cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (cmd.find(marker) != std::string::npos) return true;
  }
  return false;
}

class Adversarial : public ::testing::TestWithParam<Candidate> {};

TEST(AdversarialSuite, HasEveryClassAndHonestControls) {
  auto all = Candidates();
  EXPECT_GE(all.size(), 20u);
  int honest = 0;
  for (const auto& c : all) {
    EXPECT_FALSE(c.expect.empty()) << c.file << " says nothing it expects";
    if (c.file.rfind("honest", 0) == 0) ++honest;
  }
  EXPECT_GE(honest, 1);
}

TEST_P(Adversarial, GetsTheVerdictItsHeaderAsksFor) {
  const Candidate& c = GetParam();
  DeviceDiscovery found = DiscoverDevices();
  DeviceInfo device = found.devices.empty() ? CpuDevice() : found.devices.front();
  if (c.gpu_only && device.platform != "cuda") {
    GTEST_SKIP() << "skipped: no GPU (" << c.file << " is a GPU-only class)";
  }
  auto task = LoadTask("tasks", kGelu);
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  auto family = TaskFamilyRegistry::Global().Create("triton2triton");
  ASSERT_TRUE(family.ok());
  const std::string scratch = testing::TempDir() + "/adv_" + c.file;
  ASSERT_TRUE(ResetDir(scratch).ok());
  // Each candidate is the shared prelude (an honest gelu to use or misuse)
  // followed by the file itself.
  auto prelude = ReadFile(std::string(kCandidates) + "/_prelude.py");
  auto body = ReadFile(std::string(kCandidates) + "/" + c.file);
  ASSERT_TRUE(prelude.ok() && body.ok());
  // A marker of this test process's own: shards run side by side, and an
  // escapee of another shard's evaluation in progress is not ours.
  const std::string marker = "arena-escapee-" "marker";
  const std::string ours = marker + "-" + std::to_string(getpid());
  std::string text = *body;
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + ours.size())) {
    text.replace(at, marker.size(), ours);
  }
  ASSERT_TRUE(WriteFileAtomic(scratch + "/cand/kernel.py", *prelude + "\n" + text).ok());
  PipelineOptions o;
  o.work_dir = scratch + "/work";
  o.project_root = ".";
  o.stage_timeout_s = 60;
  o.device = device;
  auto r = EvaluateCandidate(*task, **family, scratch + "/cand", o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();

  // The first stage that did not pass, and why.
  std::string reason;
  bool correct = r->candidate_compile.passed();
  if (!correct) reason = r->candidate_compile.detail;
  bool checked = false;
  for (const auto& cfg : r->configs) {
    if (cfg.candidate_check.status == StageStatus::kSkipped) continue;
    checked = true;
    if (correct && !cfg.candidate_check.passed()) {
      correct = false;
      reason = cfg.candidate_check.detail;
    }
    if (correct && cfg.timing.stage.status == StageStatus::kFailed) {
      correct = false;
      reason = cfg.timing.stage.detail;
    }
  }
  ASSERT_TRUE(checked || !r->candidate_compile.passed()) << "nothing was checked";
  // What reports and leaderboards rank says the same.
  EXPECT_EQ(ScoreTask(*r).correct, correct) << c.file << ": the arena's verdict differs from its stages'";
  EXPECT_TRUE(r->baseline_compile.passed()) << c.file << ": the baseline suffered: "
                                            << r->baseline_compile.detail;
  for (const auto& cfg : r->configs) {
    EXPECT_NE(cfg.baseline_check.status, StageStatus::kFailed)
        << c.file << ": the baseline suffered: " << cfg.baseline_check.detail;
  }

  // One line per candidate for tools/gpu/adversarial.sh's table.
  std::vector<double> speedups;
  for (const auto& cfg : r->configs) {
    if (auto sp = cfg.speedup()) speedups.push_back(*sp);
  }
  std::sort(speedups.begin(), speedups.end());
  std::string spread = speedups.empty() ? "-"
                                        : std::to_string(speedups.front()).substr(0, 5) + ".." +
                                              std::to_string(speedups.back()).substr(0, 5);
  std::string shown = reason.substr(0, 110);
  std::replace(shown.begin(), shown.end(), '|', '/');
  std::cout << "ADVERSARIAL | " << c.file << " | " << c.expect << " | "
            << (correct ? "correct" : "caught") << " | " << spread << " | " << shown << "\n";

  if (c.expect.rfind("pass", 0) == 0) {
    EXPECT_TRUE(correct) << c.file << ": expected a pass, got: " << reason;
    if (c.expect.find("slower") != std::string::npos && device.platform == "cuda") {
      for (const auto& cfg : r->configs) {
        if (!cfg.timing.stage.passed()) continue;
        EXPECT_GT(cfg.timing.candidate.median(), cfg.timing.baseline.median())
            << c.file << " on " << cfg.name << ": hidden work went uncounted";
      }
    }
  } else if (correct && ("|" + c.expect + "|").find("|no gain|") != std::string::npos &&
             device.platform == "cuda") {
    int timed = 0;
    for (const auto& cfg : r->configs) {
      if (!cfg.timing.stage.passed()) continue;
      ++timed;
      EXPECT_GT(cfg.timing.candidate.median(), cfg.timing.baseline.median())
          << c.file << " on " << cfg.name << ": judged correct and faster: the attack gained";
    }
    EXPECT_GT(timed, 0) << c.file << ": judged correct, and nothing was timed to show it gained nothing";
  } else {
    EXPECT_FALSE(correct) << c.file << ": an exploit was judged correct";
    bool named = false;
    std::istringstream alternatives(c.expect);
    std::string want;
    while (std::getline(alternatives, want, '|')) {
      if (!want.empty() && reason.find(want) != std::string::npos) named = true;
    }
    EXPECT_TRUE(named) << c.file << ": caught, but the reason does not say '" << c.expect
                       << "': " << reason;
  }
  EXPECT_FALSE(ProcessWithMarkerAlive(ours))
      << c.file << ": a process it started outlived the evaluation";
}

INSTANTIATE_TEST_SUITE_P(Triton, Adversarial, ::testing::ValuesIn(Candidates()),
                         [](const ::testing::TestParamInfo<Candidate>& info) {
                           std::string name = info.param.file.substr(0, info.param.file.size() - 3);
                           return name;
                         });

}  // namespace
}  // namespace arena
