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

TEST(Files, MissingEntriesAreAddedWholeAndLinksLeftOut) {
  const std::string from = testing::TempDir() + "/entries_from";
  const std::string to = testing::TempDir() + "/entries_to";
  ASSERT_TRUE(ResetDir(from).ok());
  ASSERT_TRUE(ResetDir(to).ok());
  ASSERT_TRUE(WriteFileAtomic(from + "/a/k.json", "new").ok());
  ASSERT_TRUE(WriteFileAtomic(from + "/a/sub/k.cubin", "bin").ok());
  ASSERT_TRUE(WriteFileAtomic(from + "/b/k.json", "from").ok());
  ASSERT_TRUE(WriteFileAtomic(to + "/b/k.json", "kept").ok());
  ASSERT_TRUE(WriteFileAtomic(from + "/.a.copy-1/k.json", "half").ok());
  fs::create_symlink("/etc/hostname", from + "/a/link");
  fs::create_symlink("/etc", from + "/c");
  EXPECT_EQ(AddMissingEntries(from, to), 1);  // a
  EXPECT_EQ(*ReadFile(to + "/a/k.json"), "new");
  EXPECT_EQ(*ReadFile(to + "/a/sub/k.cubin"), "bin");
  EXPECT_EQ(*ReadFile(to + "/b/k.json"), "kept");  // what `to` had stays
  EXPECT_FALSE(fs::exists(fs::symlink_status(to + "/a/link")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(to + "/c")));
  EXPECT_FALSE(fs::exists(to + "/.a.copy-1"));
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(to, ec)) {
    EXPECT_NE(e.path().filename().string().rfind(".", 0), 0u) << e.path() << " left behind";
  }
  EXPECT_EQ(AddMissingEntries(from, to), 0);
  EXPECT_EQ(AddMissingEntries(from + "/missing", to), 0);
}

}  // namespace
}  // namespace arena
