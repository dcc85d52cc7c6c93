// WriteImportedTask: a task an importer made is written only if it loads
// and validates as a task of its family, never half-written, never over an
// existing one unless asked; ImportTasksRoot checks the --out folder.
#include "core/importer.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/files.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

std::string Read(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class WriteImported : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::TempDir() + "/import_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(root_ + "/tasks/fake/imported").ok());
    options_ = {"unused", root_ + "/tasks/fake/imported", fs::current_path().string(), false};
    const std::string alpha = "tests/testdata/tasks/fake/suite/alpha/";
    task_.name = "alpha_copy";
    for (const char* f : {"task.yaml", "kernel.fake", "reference.txt"}) task_.files[f] = Read(alpha + f);
    ASSERT_FALSE(task_.files["task.yaml"].empty());
  }

  // The folders in the suite, staging ones included.
  std::vector<std::string> Entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(root_ + "/tasks/fake/imported")) {
      out.push_back(e.path().filename().string());
    }
    return out;
  }

  std::string root_;
  ImportOptions options_;
  ImportedTask task_;
};

TEST_F(WriteImported, AValidTaskIsWrittenWhole) {
  auto dir = WriteImportedTask(options_, task_);
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  EXPECT_EQ(fs::path(*dir), fs::path(root_ + "/tasks/fake/imported/alpha_copy").lexically_normal());
  EXPECT_EQ(Read(*dir + "/kernel.fake"), task_.files["kernel.fake"]);
  EXPECT_EQ(Entries(), std::vector<std::string>{"alpha_copy"});
}

TEST_F(WriteImported, AnInvalidTaskLeavesNothingAndSaysWhy) {
  task_.files["task.yaml"] += "unknown_field: 1\n";
  auto dir = WriteImportedTask(options_, task_);
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("unknown_field"), std::string::npos) << dir.status().message();
  EXPECT_TRUE(Entries().empty());
  // A harness file the task names but the importer did not make.
  task_.files["task.yaml"] = Read("tests/testdata/tasks/fake/suite/alpha/task.yaml");
  task_.files.erase("reference.txt");
  EXPECT_FALSE(WriteImportedTask(options_, task_).ok());
  EXPECT_TRUE(Entries().empty());
}

TEST_F(WriteImported, AnExistingTaskIsReplacedOnlyWhenAsked) {
  ASSERT_TRUE(WriteImportedTask(options_, task_).ok());
  task_.files["kernel.fake"] += "# changed\n";
  auto again = WriteImportedTask(options_, task_);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("--overwrite"), std::string::npos);
  options_.overwrite = true;
  auto replaced = WriteImportedTask(options_, task_);
  ASSERT_TRUE(replaced.ok()) << replaced.status().message();
  EXPECT_EQ(Read(*replaced + "/kernel.fake"), task_.files["kernel.fake"]);
  EXPECT_EQ(Entries(), std::vector<std::string>{"alpha_copy"});
}

TEST_F(WriteImported, NamesAndPathsOutsideTheTaskAreRefused) {
  for (const char* name : {"", "../escape", ".hidden", "a/b"}) {
    task_.name = name;
    EXPECT_FALSE(WriteImportedTask(options_, task_).ok()) << name;
  }
  task_.name = "alpha_copy";
  task_.files["../../planted"] = "x";
  EXPECT_FALSE(WriteImportedTask(options_, task_).ok());
  EXPECT_FALSE(fs::exists(root_ + "/tasks/planted"));
  EXPECT_TRUE(Entries().empty());
}

TEST(ImportTasksRoot, OutMustBeTasksFamilySuite) {
  auto root = ImportTasksRoot("/x/tasks/fake/suite", "fake");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(*root, "/x/tasks");
  EXPECT_FALSE(ImportTasksRoot("/x/tasks/other/suite", "fake").ok());
  EXPECT_FALSE(ImportTasksRoot("/x/tasks/fake", "fake").ok());
}

}  // namespace
}  // namespace arena
