#include "core/files.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

namespace arena {
namespace {
namespace fs = std::filesystem;

TEST(Files, StaleTemporariesOfDeadWritersAreRemovedAndLiveOnesKept) {
  const std::string dir = testing::TempDir() + "/stale";
  ASSERT_TRUE(ResetDir(dir).ok());
  // A pid above the kernel's maximum (4194304) belongs to no process.
  const std::string dead = dir + "/sub/result.json.tmp.99999999.12345";
  const std::string live = dir + "/result.json.tmp." + std::to_string(getpid()) + ".7";
  ASSERT_TRUE(WriteFileAtomic(dead, "half").ok());
  ASSERT_TRUE(WriteFileAtomic(live, "being written").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/result.json", "whole").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/notes.tmp.txt", "not a temporary").ok());
  EXPECT_EQ(RemoveStaleTemporaries(dir), 1);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_EQ(*ReadFile(dir + "/result.json"), "whole");
  EXPECT_TRUE(fs::exists(dir + "/notes.tmp.txt"));
  EXPECT_EQ(RemoveStaleTemporaries(dir + "/missing"), 0);
}

TEST(Files, ScratchFoldersOfDeadArenasAreRemoved) {
  const std::string dir = testing::TempDir() + "/scratch";
  ASSERT_TRUE(ResetDir(dir).ok());
  const std::string live = dir + "/" + ScratchName("eval");
  // The same name with a pid above the kernel's maximum: no such process.
  std::string dead_name = ScratchName("eval");
  dead_name.replace(dead_name.find(std::to_string(getpid())), std::to_string(getpid()).size(),
                    "99999999");
  const std::string dead = dir + "/" + dead_name;
  const std::string dead_fb = dir + "/" + dead_name.replace(6, 4, "fb") + "-3";
  // Another PID namespace (a container sharing /tmp): not ours to judge.
  const std::string elsewhere = dir + "/arena-eval-99999999-1";
  for (const auto& d : {dead, dead_fb, live, elsewhere, dir + "/arena-notes"}) {
    ASSERT_TRUE(WriteFileAtomic(d + "/f", "x").ok());
  }
  EXPECT_EQ(RemoveOrphanedScratch(dir), 2);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(dead_fb)) << dead_fb;
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(elsewhere));
  EXPECT_TRUE(fs::exists(dir + "/arena-notes"));
  EXPECT_EQ(RemoveOrphanedScratch(dir + "/missing"), 0);
}

}  // namespace
}  // namespace arena
