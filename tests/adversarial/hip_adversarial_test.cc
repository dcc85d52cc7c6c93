// The adversarial HIP candidates (hip/*/kernel.hip) on a machine without a
// GPU: each says what it must get and builds for both platforms, so that
// tools/gpu/adversarial_hip.sh, which runs them on a GPU, runs what is
// here. Their classes only show on a GPU.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/files.h"
#include "plugins/common/hip/build/hip_build.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

std::set<std::string> Candidates() {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator("tests/adversarial/hip")) {
    if (fs::is_regular_file(e.path() / "kernel.hip")) names.insert(e.path().filename().string());
  }
  return names;
}

TEST(HipAdversarial, TheSuiteHoldsEveryClassItClaims) {
  const std::set<std::string> names = Candidates();
  for (const char* name : {"honest", "count_calls", "cache_by_address", "answer_early", "modify_inputs",
                           "escape_probe", "kill_everyone", "slow_the_baseline", "host_compute", "pinned_host",
                           "vendor_library", "hmm_host", "l2_persist", "host_node", "device_copy", "share_memory",
                           "skip_some_sets", "keep_by_content", "sloppy_when_timed", "launch_between_requests",
                           "deferred_by_writes", "deferred_to_last_call", "ahead_of_its_call"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
}

TEST(HipAdversarial, EachSaysWhatItMustGetAndBuildsForBothPlatforms) {
  const std::string root = testing::TempDir() + "/hip_adversarial";
  ASSERT_TRUE(ResetDir(root).ok());
  setenv("ARENA_HIP_CACHE", "off", 1);
  HipBuildOptions options;
  options.project_root = fs::current_path().string();
  options.work_dir = root;
  for (const std::string& name : Candidates()) {
    const std::string src = "tests/adversarial/hip/" + name + "/kernel.hip";
    std::ifstream in(src);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, std::regex("// expect: (\\w+)"))) << name;
    EXPECT_TRUE(m[1] == "passed" || m[1] == "failed" || m[1] == "integrity") << name << ": " << m[1];
    std::string lib;
    StageOutcome o = BuildHip(options, fs::absolute(src).string(), name, &lib);
    EXPECT_TRUE(o.passed()) << name << ": " << o.detail << "\n" << o.log;
    if (!FindHipcc().empty()) {
      EXPECT_EQ(o.metrics.value("amd", ""), "gfx90a") << name << o.metrics.dump();
    }
  }
}

}  // namespace
}  // namespace arena
