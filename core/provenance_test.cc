#include "core/provenance.h"

#include <gtest/gtest.h>

#include "core/files.h"

namespace arena {
namespace {

TaskSpec Task(const std::string& dir) {
  TaskSpec t;
  t.id = "suite/t";
  t.dir = dir;
  t.editable = {"kernel.hip"};
  t.harness = {"reference.cpp"};
  return t;
}

TEST(Provenance, TheTaskHashFollowsEveryDeclaredFile) {
  const std::string dir = testing::TempDir() + "/provenance_task";
  ASSERT_TRUE(ResetDir(dir).ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/task.yaml", "family: x\n").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/kernel.hip", "k").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/reference.cpp", "r").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/notes.txt", "not declared").ok());
  auto first = TaskContentHash(Task(dir));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->size(), 64u);
  EXPECT_EQ(*TaskContentHash(Task(dir)), *first);  // stable
  ASSERT_TRUE(WriteFileAtomic(dir + "/notes.txt", "changed, not declared").ok());
  EXPECT_EQ(*TaskContentHash(Task(dir)), *first);
  for (const char* f : {"task.yaml", "kernel.hip", "reference.cpp"}) {
    ASSERT_TRUE(WriteFileAtomic(dir + "/" + f, std::string("changed ") + f).ok());
    auto now = TaskContentHash(Task(dir));
    ASSERT_TRUE(now.ok());
    EXPECT_NE(*now, *first) << f;
    first = now;
  }
  // Moving bytes from one file to the next is another task.
  ASSERT_TRUE(WriteFileAtomic(dir + "/kernel.hip", "ab").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/reference.cpp", "c").ok());
  auto a = TaskContentHash(Task(dir));
  ASSERT_TRUE(WriteFileAtomic(dir + "/kernel.hip", "a").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/reference.cpp", "bc").ok());
  EXPECT_NE(*TaskContentHash(Task(dir)), *a);
  // A missing file is an error, not a hash of less.
  std::filesystem::remove(dir + "/reference.cpp");
  EXPECT_FALSE(TaskContentHash(Task(dir)).ok());
}

TEST(Provenance, TheCandidateHashFollowsTheEditableFilesOnly) {
  const std::string dir = testing::TempDir() + "/provenance_candidate";
  ASSERT_TRUE(ResetDir(dir).ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/kernel.hip", "k").ok());
  const std::string first = CandidateContentHash(Task(dir), dir);
  EXPECT_EQ(first.size(), 64u);
  ASSERT_TRUE(WriteFileAtomic(dir + "/reference.cpp", "not the candidate's").ok());
  EXPECT_EQ(CandidateContentHash(Task(dir), dir), first);
  ASSERT_TRUE(WriteFileAtomic(dir + "/kernel.hip", "k2").ok());
  EXPECT_NE(CandidateContentHash(Task(dir), dir), first);
  // A missing file is hashed as missing: neither an error nor an empty file.
  ASSERT_TRUE(WriteFileAtomic(dir + "/kernel.hip", "").ok());
  const std::string empty = CandidateContentHash(Task(dir), dir);
  std::filesystem::remove(dir + "/kernel.hip");
  const std::string missing = CandidateContentHash(Task(dir), dir);
  EXPECT_EQ(missing.size(), 64u);
  EXPECT_NE(missing, empty);
}

TEST(Provenance, RecordsBuildDeviceAndScoring) {
  const std::string dir = testing::TempDir() + "/provenance_task2";
  ASSERT_TRUE(ResetDir(dir).ok());
  for (const char* f : {"task.yaml", "kernel.hip", "reference.cpp"}) {
    ASSERT_TRUE(WriteFileAtomic(dir + "/" + f, f).ok());
  }
  DeviceInfo gpu;
  gpu.name = "NVIDIA H200";
  gpu.arch = "sm_90";
  const auto p = MakeProvenance(Task(dir), gpu);
  EXPECT_EQ(p["task_hash"].get<std::string>().size(), 64u);
  EXPECT_EQ(p["arena_build"].get<std::string>().size(), 64u);
  EXPECT_EQ(p["scoring_version"], kScoringVersion);
  EXPECT_EQ(p["arena_version"], "unstamped");
  SetArenaVersion("0123abc+modified");
  EXPECT_EQ(MakeProvenance(Task(dir), gpu)["arena_version"], "0123abc+modified");
  SetArenaVersion("");
  EXPECT_EQ(ArenaVersion(), "unstamped");
  EXPECT_EQ(ComparableKey(p), "NVIDIA H200 (sm_90), scoring v" + std::to_string(kScoringVersion));
  DeviceInfo cpu;
  EXPECT_NE(ComparableKey(MakeProvenance(Task(dir), cpu)), ComparableKey(p));
  EXPECT_EQ(ComparableKey(nlohmann::json::object()), "");  // stored before provenance
}

}  // namespace
}  // namespace arena
