#include "core/task_file_guard.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

namespace arena {
namespace {
namespace fs = std::filesystem;

std::string Check(const std::string& text) {
  Status st = CheckTaskFileText("t/task.yaml", text);
  return st.ok() ? "" : st.message();
}

TEST(TaskFileText, APlainTaskFilePasses) {
  EXPECT_EQ(Check("family: f\nconfigs:\n  small: {n: 4}\n  tuning:\n    - {n: 8}\n"), "");
}

TEST(TaskFileText, AnAliasBombIsRefusedAtOnceWithAPosition) {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'z'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *" +
            char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
  }
  auto start = std::chrono::steady_clock::now();
  std::string err = Check(bomb);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(err.rfind("t/task.yaml:1:4: YAML anchors are not allowed", 0), 0u) << err;
  EXPECT_EQ(Check("a: 1\nb: *a\n").rfind("t/task.yaml:2:4: ", 0), 0u) << Check("a: 1\nb: *a\n");
}

TEST(TaskFileText, BytesThatAreNotUtf8AreNamedByLineAndColumn) {
  EXPECT_EQ(Check("a: 1\nb: ok\xff\n"), "t/task.yaml:2:6: bytes that are not UTF-8 (task files are UTF-8 text)");
  EXPECT_NE(Check("a: \xc0\xaf\n").find(":1:4: bytes that are not UTF-8"), std::string::npos);  // overlong
  EXPECT_NE(Check("a: \xed\xa0\x80\n").find("not UTF-8"), std::string::npos);              // surrogate
  EXPECT_NE(Check(std::string("a: 1\0\n", 6)).find(":1:5: a NUL byte"), std::string::npos);
  EXPECT_EQ(Check("name: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"), "");
}

TEST(TaskFileText, ADuplicateKeyIsRefused) {
  EXPECT_EQ(Check("a: 1\nb:\n  c: 2\n  c: 3\n"),
            "t/task.yaml:4:3: key 'c' is given twice in this mapping");
  EXPECT_EQ(Check("- {c: 1}\n- {c: 2}\n"), "");  // the same key in two mappings
}

TEST(TaskFileText, DepthAndSizeAreBounded) {
  EXPECT_NE(Check(std::string(100, '[') + std::string(100, ']')).find("nested deeper than 32"),
            std::string::npos);
  EXPECT_NE(Check("a: \"" + std::string(kMaxTaskFileBytes, 'x') + "\"\n").find("larger than"),
            std::string::npos);
}

TEST(TaskFileText, EndlessEmptyDocumentsAreBounded) {
  // yaml-cpp yields empty document after empty document for a stray ','
  // at the top level, never reaching the end.
  auto start = std::chrono::steady_clock::now();
  const std::string err = Check(",    max_evals: 40\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_NE(err.find("more than 64 YAML documents"), std::string::npos) << err;
  EXPECT_TRUE(std::regex_search(err, std::regex(R"(^t/task\.yaml:\d+:\d+: )"))) << err;
  EXPECT_EQ(Check("a: 1\n---\nb: 2\n"), "");  // a few documents are still read
}

TEST(TaskFileText, SyntaxErrorsKeepTheirPosition) {
  EXPECT_EQ(Check("a: [1, 2\n").rfind("t/task.yaml:", 0), 0u);
}

class TaskFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::TempDir() + "/folder_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    dir_ = root_ + "/tasks/fam/suite/t";
    fs::create_directories(dir_);
    std::ofstream(dir_ + "/task.yaml") << "family: fam\n";
  }
  std::string root_, dir_;
};

TEST_F(TaskFolder, FilesPass) {
  EXPECT_TRUE(CheckTaskFolder(dir_, "fam/suite/t", {"task.yaml", "kernel.py"}).ok());
}

TEST_F(TaskFolder, ALinkToAHostFileIsRefused) {
  fs::create_symlink("/etc/passwd", dir_ + "/kernel.py");
  Status st = CheckTaskFolder(dir_, "fam/suite/t", {"task.yaml", "kernel.py"});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("kernel.py: a link to '/etc/passwd', outside the task"),
            std::string::npos)
      << st.message();
}

TEST_F(TaskFolder, ALinkThatMirrorsTheSameFileIsARunfilesTree) {
  fs::create_directories(root_ + "/src/fam/suite/t");
  std::ofstream(root_ + "/src/fam/suite/t/kernel.py") << "x = 1\n";
  fs::create_symlink(root_ + "/src/fam/suite/t/kernel.py", dir_ + "/kernel.py");
  EXPECT_TRUE(CheckTaskFolder(dir_, "fam/suite/t", {"task.yaml", "kernel.py"}).ok());
}

TEST_F(TaskFolder, ALinkThatIsNoFileOfTheTaskIsLeftAlone) {
  fs::create_symlink("/etc/passwd", dir_ + "/notes");  // never copied to an agent
  EXPECT_TRUE(CheckTaskFolder(dir_, "fam/suite/t", {"task.yaml"}).ok());
}

TEST_F(TaskFolder, APipeIsRefused) {
  ASSERT_EQ(mkfifo((dir_ + "/reference.py").c_str(), 0600), 0);
  Status st = CheckTaskFolder(dir_, "fam/suite/t", {"task.yaml", "kernel.py"});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("not a regular file"), std::string::npos);
}

}  // namespace
}  // namespace arena
