#include "core/task.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kValid[] = R"(family: fam
description: a task
files:
  editable: [kernel.py]
  harness: [reference.py]
interface:
  inputs:
    - {name: x, dtype: float16, shape: [n], init: {dist: normal}}
  outputs:
    - {name: y, dtype: float16, shape: ["n * 2"]}
configs:
  small: {n: 7}
  tuning:
    - {n: 1024}
    - {name: big, n: 4096}
  heldout:
    - {n: 1023}
tolerances:
  float16: {atol: 0.01, rtol: 0.02}
correctness: {trials: 4}
timing: {repetitions: 200}
cost:
  bytes: "2 * n + 4 * n"
  flops: "n"
tunables:
  - {name: BLOCK, values: [64, 128], default: 128}
instructions: go fast
fam: {anything: 1}
)";

class TaskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::TempDir() + "/task_test_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    dir_ = root_ + "/fam/suite/t1";
    fs::create_directories(dir_);
    std::ofstream(dir_ + "/kernel.py") << "# kernel\nBLOCK = 128\n";
    std::ofstream(dir_ + "/reference.py") << "# reference\n";
  }
  Result<TaskSpec> Load(const std::string& yaml) {
    std::ofstream(dir_ + "/task.yaml") << yaml;
    return LoadTask(root_, dir_ + "/task.yaml");
  }
  // Replaces the first occurrence of `from` in kValid.
  static std::string With(const std::string& from, const std::string& to) {
    std::string s = kValid;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  }
  void ExpectError(const std::string& yaml, const std::string& where, const std::string& what) {
    auto r = Load(yaml);
    ASSERT_FALSE(r.ok()) << "expected an error mentioning " << what;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(where), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find(what), std::string::npos) << r.status().message();
  }
  std::string root_, dir_;
};

TEST_F(TaskTest, LoadsAValidTask) {
  auto r = Load(kValid);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->id, "fam/suite/t1");
  EXPECT_EQ(r->family, "fam");
  EXPECT_EQ(r->suite, "suite");
  ASSERT_EQ(r->configs.size(), 4u);
  EXPECT_EQ(r->configs[0].name, "small");
  EXPECT_EQ(r->configs[1].name, "tuning_n1024");
  EXPECT_EQ(r->configs[2].name, "big");
  EXPECT_EQ(r->configs[3].kind, ConfigKind::kHeldout);
  EXPECT_DOUBLE_EQ(r->configs[2].bytes, 6 * 4096);
  EXPECT_DOUBLE_EQ(r->configs[2].flops, 4096);
  EXPECT_EQ(r->trials, 4);
  EXPECT_EQ(r->timing.repetitions, 200);
  EXPECT_DOUBLE_EQ(r->tolerances["float16"].rtol, 0.02);
  ASSERT_EQ(r->tunables.size(), 1u);
  EXPECT_EQ(r->family_json["anything"], 1);
  EXPECT_EQ(r->outputs[0].shape[0], "n * 2");
}

TEST_F(TaskTest, UnknownTopLevelFieldNamesLineAndColumn) {
  ExpectError(With("instructions: go fast", "instructions: go fast\ninstuctions: typo"),
              "task.yaml:28:1", "instuctions: unknown field");
}

TEST_F(TaskTest, MissingFieldIsNamed) {
  ExpectError(With("instructions: go fast\n", ""), "task.yaml:1:1", "instructions: missing");
}

TEST_F(TaskTest, BadDtypeNamesTheField) {
  ExpectError(With("dtype: float16, shape: [n], init", "dtype: half, shape: [n], init"),
              "task.yaml:8:", "interface.inputs[0].dtype: unknown dtype 'half'");
}

TEST_F(TaskTest, ShapeWithUnknownParameter) {
  ExpectError(With("shape: [\"n * 2\"]", "shape: [\"n * m\"]"), "task.yaml:", "unknown parameter 'm'");
}

TEST_F(TaskTest, HeldOutMustDifferFromTuning) {
  ExpectError(With("    - {n: 1023}", "    - {n: 1024}"), "task.yaml:17",
              "same parameters as tuning configuration");
}

TEST_F(TaskTest, HeldOutConfigurationsRequired) {
  ExpectError(With("  heldout:\n    - {n: 1023}\n", ""), "task.yaml:", "configs.heldout: missing");
}

TEST_F(TaskTest, EditableFileMustExist) {
  ExpectError(With("editable: [kernel.py]", "editable: [kernal.py]"), "task.yaml:4:",
              "file 'kernal.py' does not exist");
}

TEST_F(TaskTest, PathsMayNotEscapeTheTask) {
  ExpectError(With("harness: [reference.py]", "harness: [../x.py]"), "task.yaml:5:",
              "must be a relative path inside the task folder");
}

TEST_F(TaskTest, ToleranceMustBeANumber) {
  ExpectError(With("atol: 0.01", "atol: small"), "task.yaml:19:", "tolerances.float16.atol: expected a number");
}

TEST_F(TaskTest, TooFewTimingRepetitions) {
  ExpectError(With("repetitions: 200", "repetitions: 10"), "task.yaml:21:", "at least 100 samples");
}

TEST_F(TaskTest, TunableDefaultMustBeAValue) {
  ExpectError(With("default: 128", "default: 100"), "task.yaml:26:", "not one of the values");
}

TEST_F(TaskTest, TunableDefaultMustBeTheValueInTheEditableFile) {
  std::ofstream(dir_ + "/kernel.py") << "# kernel\nBLOCK = 64\n";
  ExpectError(kValid, "task.yaml:26:", "tunables[0].default: 128, but kernel.py:2 sets BLOCK to 64");
}

TEST_F(TaskTest, TunableMustBeAConstantOfTheEditableFiles) {
  std::ofstream(dir_ + "/kernel.py") << "# kernel\nBLOCKS = 128\n";
  ExpectError(kValid, "task.yaml:26:", "tunables[0].name: 'BLOCK' is not a constant");
}

TEST_F(TaskTest, DuplicateConfigurationNames) {
  ExpectError(With("{name: big, n: 4096}", "{name: small, n: 4096}"), "task.yaml:",
              "duplicate configuration name 'small'");
}

TEST_F(TaskTest, FamilyMustMatchFolder) {
  ExpectError(With("family: fam", "family: other"), "task.yaml:1:", "the task lives under tasks/fam");
}

TEST_F(TaskTest, YamlSyntaxErrorHasLineAndColumn) {
  ExpectError(With("  small: {n: 7}", "  small: {n: 7"), "task.yaml:", "");
  auto r = Load(With("  small: {n: 7}", "  small: {n: 7"));
  EXPECT_NE(r.status().message().find("task.yaml:13:9:"), std::string::npos) << r.status().message();
}

TEST(TaskSelector, Matches) {
  EXPECT_TRUE(TaskMatches("a/b/c", "all"));
  EXPECT_TRUE(TaskMatches("a/b/c", "a"));
  EXPECT_TRUE(TaskMatches("a/b/c", "a/b/"));
  EXPECT_TRUE(TaskMatches("a/b/c", "x,a/b/c"));
  EXPECT_FALSE(TaskMatches("a/b/c", "a/bc"));
  EXPECT_FALSE(TaskMatches("ab/b/c", "a"));
}

}  // namespace
}  // namespace arena
