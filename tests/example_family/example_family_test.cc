// The example family through the conformance kit and the arena's pipeline:
// the baseline passes, a wrong candidate and one that does not build fail,
// a candidate that writes too little or crashes fails with its reason, and
// a task outside the family's contract is refused with its place.
#include <gtest/gtest.h>

#include "core/family.h"
#include "core/files.h"
#include "core/pipeline.h"
#include "core/sandbox.h"
#include "core/testing/family_conformance.h"

namespace arena {
namespace {

constexpr char kRoot[] = "tests/example_family/tasks";
constexpr char kTask[] = "tests/example_family/tasks/example_c/basic/saxpy/task.yaml";

TEST(ExampleFamily, Conformance) {
  RunFamilyConformance({"example_c", kRoot, kTask, {{"kernel.c", "void run(oops"}}});
}

// The candidate `source` evaluated on every configuration it can be.
TaskResult Evaluate(const std::string& name, const std::string& source) {
  auto task = LoadTask(kRoot, kTask);
  EXPECT_TRUE(task.ok()) << task.status().ToString();
  const std::string dir = testing::TempDir() + "/example_" + name;
  EXPECT_TRUE(ResetDir(dir + "/candidate").ok());
  EXPECT_TRUE(WriteFileAtomic(dir + "/candidate/kernel.c", source).ok());
  auto family = TaskFamilyRegistry::Global().Create("example_c");
  EXPECT_TRUE(family.ok());
  PipelineOptions o;
  o.seed = 7;
  o.device = CpuDevice();
  o.project_root = ".";
  o.work_dir = dir + "/work";
  auto r = EvaluateCandidate(*task, **family, dir + "/candidate", o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : TaskResult{};
}

std::string FirstFailure(const TaskResult& r) {
  for (const auto& c : r.configs) {
    if (c.candidate_check.status == StageStatus::kFailed) return c.name + ": " + c.candidate_check.detail;
  }
  return "";
}

TEST(ExampleFamily, JudgesCandidatesByTheirOutputs) {
  if (!SandboxUnavailableReason().empty()) GTEST_SKIP() << SandboxUnavailableReason();
  EXPECT_EQ(FirstFailure(Evaluate("right", "void run(const float* x, float* y, long n) {\n"
                                           "  for (long i = n - 1; i >= 0; --i) y[i] = x[i] + x[i] + 1;\n}\n")),
            "");
  EXPECT_EQ(FirstFailure(Evaluate("wrong", "void run(const float* x, float* y, long n) {\n"
                                           "  for (long i = 0; i < n; ++i) y[i] = 2 * x[i];\n}\n"))
                .rfind("small: y[0] = ", 0),
            0u);
  // The last element left as the driver's NaN: caught wherever it is.
  EXPECT_NE(FirstFailure(Evaluate("short", "void run(const float* x, float* y, long n) {\n"
                                           "  for (long i = 0; i + 1 < n; ++i) y[i] = 2 * x[i] + 1;\n}\n"))
                .find("= nan, expected"),
            std::string::npos);
  const std::string crash = FirstFailure(Evaluate(
      "crash", "#include <stdlib.h>\nvoid run(const float* x, float* y, long n) { abort(); }\n"));
  // Through the sandbox a signal is the exit status 128 + its number.
  EXPECT_EQ(crash, "small: exit 134");
  // Writes outside its own outputs: its folder is read-only in the sandbox.
  const std::string writer = FirstFailure(Evaluate(
      "writer", "#include <stdio.h>\n#include <stdlib.h>\n"
                "void run(const float* x, float* y, long n) {\n"
                "  for (long i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;\n"
                "  if (!fopen(\"/workspace/planted\", \"w\")) abort();\n}\n"));
  EXPECT_EQ(writer, "small: exit 134");
}

TEST(ExampleFamily, RefusesTasksOutsideItsContract) {
  const std::string root = testing::TempDir() + "/example_bad/tasks";
  const std::string dir = root + "/example_c/basic/two";
  ASSERT_TRUE(ResetDir(dir).ok());
  auto yaml = ReadFile(kTask);
  ASSERT_TRUE(yaml.ok());
  std::string text = *yaml;
  text.replace(text.find("  reference: reference.c"), 24, "  reference: other.c");
  ASSERT_TRUE(WriteFileAtomic(dir + "/task.yaml", text).ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/kernel.c", "").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/reference.c", "").ok());
  auto task = LoadTask(root, dir + "/task.yaml");
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  auto family = TaskFamilyRegistry::Global().Create("example_c");
  ASSERT_TRUE(family.ok());
  Status s = ValidateTaskSafely(**family, *task);
  EXPECT_EQ(s.message(), dir + "/task.yaml:23:14: example_c.reference: must be one of files.harness");
}

}  // namespace
}  // namespace arena
