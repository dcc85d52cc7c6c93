// The triton2triton family on this machine: on a CPU through the Triton
// interpreter (small configuration), on a GPU for real.
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/pipeline.h"
#include "core/provenance.h"
#include "core/testing/family_conformance.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kTasks[] = "tasks";
constexpr char kGelu[] = "tasks/triton2triton/elementwise/gelu/task.yaml";

TEST(TritonFamily, Conformance) {
  FamilyConformanceCase c;
  c.family = "triton2triton";
  c.tasks_root = kTasks;
  c.task_yaml = kGelu;
  c.broken_candidate = {{"kernel.py", "def run(x, y, n, **_):\n    y.copy_(x)\n"}};
  RunFamilyConformance(c);
}

class TritonCandidates : public ::testing::Test {
 protected:
  void SetUp() override {
    auto t = LoadTask(kTasks, kGelu);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    task_ = *t;
    family_ = std::move(*TaskFamilyRegistry::Global().Create("triton2triton"));
    scratch_ = testing::TempDir() + "/triton_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(scratch_).ok());
  }

  TaskResult Evaluate(const std::string& kernel_py, double timeout_s = 60,
                      SessionReuse* reuse = nullptr, bool prepare_next = false) {
    ASSERT_OK_WRITE(scratch_ + "/cand/kernel.py", kernel_py);
    PipelineOptions o;
    o.work_dir = scratch_ + "/work";
    o.project_root = ".";
    o.stage_timeout_s = timeout_s;
    o.reuse = reuse;
    o.prepare_next = prepare_next;
    auto r = EvaluateCandidate(task_, *family_, scratch_ + "/cand", o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return *r;
  }

  static void ASSERT_OK_WRITE(const std::string& path, const std::string& text) {
    ASSERT_TRUE(WriteFileAtomic(path, text).ok());
  }

  const ConfigResult& Small(const TaskResult& r) {
    for (const auto& c : r.configs) {
      if (c.kind == ConfigKind::kSmall) return c;
    }
    ADD_FAILURE() << "no small configuration";
    return r.configs.front();
  }

  TaskSpec task_;
  std::unique_ptr<TaskFamily> family_;
  std::string scratch_;
};

TEST_F(TritonCandidates, SyntaxErrorFailsCompileWithTheMessage) {
  TaskResult r = Evaluate("def run(x, y, n:\n");
  EXPECT_EQ(r.candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(r.candidate_compile.detail.find("SyntaxError"), std::string::npos)
      << r.candidate_compile.detail;
  EXPECT_TRUE(r.baseline_compile.passed());
}

// A Triton gelu (tanh form) of x into y: `offset` is added to each value,
// `tail` runs after the launch, and `mask` limits the elements written.
std::string TritonGelu(const std::string& offset, const std::string& tail = "",
                       const std::string& mask = "offs < n") {
  return "import triton\n"
         "import triton.language as tl\n"
         "@triton.jit\n"
         "def _k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
         "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
         "    mask = " + mask + "\n"
         "    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)\n"
         "    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))) - 1.0\n"
         "    tl.store(y_ptr + offs, (0.5 * x * (1.0 + t) + " + offset + ").to(tl.float16), "
         "mask=mask)\n"
         "def run(x, y, n, **_):\n"
         "    _k[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)\n" + tail;
}

// The baseline's Triton cache is kept across evaluations of the same task
// files; the candidate's runner gets a copy of it in its private /tmp, and
// nothing it writes there reaches the host: not the kept cache, not the
// evaluation's folders. (Into the cache itself its code writes nothing:
// that is refused, tests/adversarial/triton/cache_planted.py.)
TEST_F(TritonCandidates, TheCandidateGetsACopyOfTheBaselinesKeptCache) {
  const std::string kept = scratch_ + "/kept";
  ASSERT_EQ(setenv("ARENA_TRITON_CACHE", kept.c_str(), 1), 0);
  auto hash = TaskContentHash(task_);
  ASSERT_TRUE(hash.ok());
  ASSERT_OK_WRITE(kept + "/" + *hash + "/abc/_k.json", "{}");
  TaskResult r = Evaluate(TritonGelu(
      "0.0",
      "import os\n"
      "assert os.environ['TRITON_CACHE_DIR'] == '/tmp/triton'\n"
      "assert os.path.exists('/tmp/triton/abc/_k.json'), 'no copy of the kept cache'\n"
      "open('/tmp/planted.json', 'w').write('{}')\n"));
  unsetenv("ARENA_TRITON_CACHE");
  EXPECT_TRUE(r.candidate_compile.passed()) << r.candidate_compile.detail;
  EXPECT_TRUE(Small(r).candidate_check.passed()) << Small(r).candidate_check.detail;
  int planted = 0;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(scratch_, ec)) {
    if (e.path().filename() == "planted.json") ++planted;
  }
  EXPECT_EQ(planted, 0) << "the candidate's runner wrote to the host's disk";
  EXPECT_TRUE(fs::exists(kept + "/" + *hash + "/abc/_k.json"));
}

TEST_F(TritonCandidates, UnwrittenOutputIsCaughtByThePoison) {
  TaskResult r = Evaluate(TritonGelu("0.0", "", "offs < n - 7"));
  EXPECT_TRUE(r.candidate_compile.passed()) << r.candidate_compile.detail;
  EXPECT_EQ(Small(r).candidate_check.status, StageStatus::kFailed);
  EXPECT_NE(Small(r).candidate_check.detail.find("NaN"), std::string::npos)
      << Small(r).candidate_check.detail;
}

TEST_F(TritonCandidates, WrongValuesAreCaughtAgainstTheSharedReference) {
  // The baseline's check computes the reference; the candidate's check of
  // the same trials reuses it and must still see every wrong element.
  TaskResult r = Evaluate(TritonGelu("0.25"));
  EXPECT_TRUE(Small(r).baseline_check.passed()) << Small(r).baseline_check.detail;
  EXPECT_EQ(Small(r).candidate_check.status, StageStatus::kFailed);
  EXPECT_NE(Small(r).candidate_check.detail.find("outside"), std::string::npos)
      << Small(r).candidate_check.detail;
  EXPECT_TRUE(Small(Evaluate(TritonGelu("0.0"))).candidate_check.passed());
}

TEST_F(TritonCandidates, AReusedSessionEvaluatesEachNewCandidate) {
  // An agent's feedback calls share one worker: each call's candidate, not
  // a module left from an earlier call, is the one checked.
  SessionReuse reuse;
  TaskResult good = Evaluate(TritonGelu("0.0"), 60, &reuse);
  EXPECT_TRUE(Small(good).candidate_check.passed()) << Small(good).candidate_check.detail;
  TaskResult wrong = Evaluate(TritonGelu("0.25"), 60, &reuse);
  EXPECT_EQ(Small(wrong).candidate_check.status, StageStatus::kFailed);
  EXPECT_TRUE(wrong.baseline_compile.metrics.value("compiled_by_an_earlier_evaluation", false));
  TaskResult syntax = Evaluate("def run(x, y, n:\n", 60, &reuse);
  EXPECT_EQ(syntax.candidate_compile.status, StageStatus::kFailed);
  TaskResult again = Evaluate(TritonGelu("0.0"), 60, &reuse);
  EXPECT_TRUE(Small(again).candidate_check.passed()) << Small(again).candidate_check.detail;
  EXPECT_TRUE(Small(again).baseline_check.passed());
  EXPECT_EQ(reuse.evaluations(), 4);
}

// The judges started ahead of the next evaluation (prepare_next) in a
// folder of their own: the next evaluation takes one, its runners see that
// evaluation's files alone and get the task's arguments, its verdicts are
// those of a judge started for it; its folder goes with its session.
TEST_F(TritonCandidates, AJudgeStartedAheadServesTheNextEvaluation) {
  // Spares' folders in a temporary folder of this test's own: tests run
  // side by side start and end spares of their own in the shared one.
  const std::string own_tmp = testing::TempDir() + "/spares_served";
  fs::create_directories(own_tmp);
  const char* was = std::getenv("TMPDIR");
  const std::string old_tmp = was != nullptr ? was : "";
  setenv("TMPDIR", own_tmp.c_str(), 1);
  struct Restore {
    std::string old;
    bool had;
    ~Restore() { had ? setenv("TMPDIR", old.c_str(), 1) : unsetenv("TMPDIR"); }
  } restore{old_tmp, was != nullptr};
  auto spare_folders = [] {
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec)) {
      n += e.path().filename().string().find("arena-judge-") == 0;
    }
    return n;
  };
  const int before = spare_folders();
  TaskResult first = Evaluate(TritonGelu("0.0"), 60, nullptr, /*prepare_next=*/true);
  EXPECT_FALSE(first.baseline_compile.metrics.value("judge_started_ahead", true));
  EXPECT_TRUE(Small(first).candidate_check.passed()) << Small(first).candidate_check.detail;
  EXPECT_EQ(spare_folders(), before + 1) << "no judge was started ahead";
  // Its runner reads the workspace it was started with: the files now.
  TaskResult second = Evaluate(TritonGelu("0.25"), 60, nullptr, /*prepare_next=*/true);
  EXPECT_TRUE(second.baseline_compile.metrics.value("judge_started_ahead", false))
      << second.baseline_compile.metrics.dump();
  EXPECT_TRUE(Small(second).baseline_check.passed()) << Small(second).baseline_check.detail;
  EXPECT_EQ(Small(second).candidate_check.status, StageStatus::kFailed);
  EXPECT_NE(Small(second).candidate_check.detail.find("outside"), std::string::npos)
      << Small(second).candidate_check.detail;
  // The last one asks for none; the one it took went with its session.
  TaskResult third = Evaluate(TritonGelu("0.0"), 60);
  EXPECT_TRUE(third.baseline_compile.metrics.value("judge_started_ahead", false));
  EXPECT_TRUE(Small(third).candidate_check.passed()) << Small(third).candidate_check.detail;
  EXPECT_EQ(spare_folders(), before);
  // Without a judge started ahead, one is started as before.
  TaskResult fourth = Evaluate(TritonGelu("0.0"), 60);
  EXPECT_FALSE(fourth.baseline_compile.metrics.value("judge_started_ahead", true));
  EXPECT_TRUE(Small(fourth).candidate_check.passed()) << Small(fourth).candidate_check.detail;
}

// A judge started ahead that died before its evaluation is no one's
// failure: the evaluation starts its own.
TEST_F(TritonCandidates, AJudgeStartedAheadThatDiedIsReplaced) {
  TaskResult first = Evaluate(TritonGelu("0.0"), 60, nullptr, /*prepare_next=*/true);
  EXPECT_TRUE(Small(first).candidate_check.passed()) << Small(first).candidate_check.detail;
  // The spare's judge: the process whose working folder is the spare's.
  int killed = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string cwd = fs::read_symlink(e.path() / "cwd", ec).filename().string();
    if (!ec && cwd.find("arena-judge-" + std::to_string(getpid()) + "-") == 0) {
      killed += kill(std::stoi(pid), SIGKILL) == 0;
    }
  }
  ASSERT_GE(killed, 1) << "no judge was started ahead";
  usleep(200000);
  TaskResult second = Evaluate(TritonGelu("0.25"));
  EXPECT_FALSE(second.baseline_compile.metrics.value("judge_started_ahead", true));
  EXPECT_TRUE(second.baseline_compile.passed()) << second.baseline_compile.detail;
  EXPECT_EQ(Small(second).candidate_check.status, StageStatus::kFailed);
  EXPECT_NE(Small(second).candidate_check.detail.find("outside"), std::string::npos)
      << Small(second).candidate_check.detail;
}

TEST_F(TritonCandidates, ModifiedInputIsCaught) {
  TaskResult r = Evaluate(TritonGelu("0.0", "    _k[(1,)](x, x, 1, BLOCK=256)\n"));
  EXPECT_EQ(Small(r).candidate_check.status, StageStatus::kFailed);
  EXPECT_NE(Small(r).candidate_check.detail.find("input 'x' was modified"), std::string::npos)
      << Small(r).candidate_check.detail;
}

TEST_F(TritonCandidates, CrashOfTheWorkerIsTheCandidatesFailure) {
  TaskResult r = Evaluate("import os, signal\ndef run(x, y, n, **_):\n"
                          "    os.kill(os.getpid(), signal.SIGSEGV)\n");
  EXPECT_EQ(r.candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(r.candidate_compile.detail.find("signal 11"), std::string::npos)
      << r.candidate_compile.detail;
  // The baseline, checked afterwards in a fresh worker, is unaffected.
  EXPECT_TRUE(Small(r).baseline_check.passed()) << Small(r).baseline_check.detail;
}

TEST_F(TritonCandidates, HangIsKilledAtTheStageLimit) {
  auto start = std::chrono::steady_clock::now();
  TaskResult r = Evaluate("def run(x, y, n, **_):\n    while True:\n        pass\n", 20);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.candidate_compile.status, StageStatus::kFailed);
  EXPECT_NE(r.candidate_compile.detail.find("candidate: timed out"), std::string::npos)
      << r.candidate_compile.detail;
  EXPECT_TRUE(Small(r).baseline_check.passed());
  EXPECT_LT(took, 60);
}

TEST_F(TritonCandidates, TimingSaysSkippedWithoutAGpu) {
  TaskResult r = Evaluate(*ReadFile(task_.dir + "/kernel.py"));
  // Provenance: what the judge ran on.
  for (const char* k : {"python", "torch", "triton"}) {
    EXPECT_FALSE(r.provenance["toolchain"].value(k, "").empty()) << k << r.provenance.dump();
  }
  EXPECT_TRUE(Small(r).candidate_check.passed()) << Small(r).candidate_check.detail;
  EXPECT_EQ(Small(r).timing.stage.status, StageStatus::kSkipped);
  for (const auto& c : r.configs) {
    if (c.kind != ConfigKind::kSmall) {
      EXPECT_EQ(c.candidate_check.status, StageStatus::kSkipped);
      EXPECT_NE(c.candidate_check.detail.find("skipped: no GPU"), std::string::npos);
      EXPECT_EQ(c.timing.stage.status, StageStatus::kSkipped);
      EXPECT_NE(c.timing.stage.detail.find("no GPU"), std::string::npos) << c.timing.stage.detail;
    }
  }
}

TEST(TritonTaskInputs, AnInputsFunctionMustReturnWhatTheInterfaceDeclares) {
  // gelu, with an inputs function that draws x as float32 where the
  // interface says float16: a task error named by the judge, for both subjects.
  const std::string root = testing::TempDir() + "/inputs_task";
  const std::string dir = root + "/triton2triton/x/gelu";
  ASSERT_TRUE(ResetDir(dir).ok());
  for (const char* f : {"kernel.py", "reference.py"}) {
    ASSERT_TRUE(CopyFile(std::string("tasks/triton2triton/elementwise/gelu/") + f, dir + "/" + f).ok());
  }
  auto yaml = ReadFile(kGelu);
  ASSERT_TRUE(yaml.ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/task.yaml",
                              *yaml + "  inputs: reference.py:make_inputs\n").ok());
  auto ref = ReadFile(dir + "/reference.py");
  ASSERT_TRUE(WriteFileAtomic(dir + "/reference.py",
                              *ref + "\n\ndef make_inputs(params, generator, device):\n"
                                     "    return {'x': torch.randn(params['n'], generator=generator, "
                                     "device=device)}\n").ok());
  auto task = LoadTask(root, dir + "/task.yaml");
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  auto family = TaskFamilyRegistry::Global().Create("triton2triton");
  ASSERT_TRUE(family.ok());
  PipelineOptions o;
  o.work_dir = root + "/work";
  o.project_root = ".";
  o.stage_timeout_s = 60;
  auto r = EvaluateCandidate(*task, **family, dir, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->baseline_compile.passed());
  EXPECT_NE(r->baseline_compile.detail.find("returned 'x' as float32; the interface says float16"),
            std::string::npos)
      << r->baseline_compile.detail;
}

}  // namespace
}  // namespace arena
