// A runner's sandbox holds the libraries the runner needs and nothing else
// of the system: the CUDA runtime (and CUPTI, where the machine has it)
// load inside it; cuBLAS, cuDNN, NVRTC and the compilers are not there for
// a subject to call, although the machine has them (the same probe in the
// agents' sandbox, which binds all of /usr, finds cuBLAS). The runner built
// for ROCm starts in its own.
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/process.h"
#include "core/sandbox.h"
#include "plugins/common/hip/build/hip_build.h"
#include "plugins/common/hip/runner/runner_client.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

const char* const kProbes[] = {"libcudart.so.13", "libcupti.so.13", "libcublas.so.13", "libcublasLt.so.13",
                               "libcudnn.so.9",   "libnvrtc.so.13", "libtorch.so",     "/usr/local/cuda",
                               "/usr/bin/gcc",    "/usr/bin/python3"};

// What the probe says, by probe, in a sandbox with `libs` (all of /usr
// when empty).
std::map<std::string, std::string> Probe(const std::vector<std::pair<std::string, std::string>>& libs) {
  const fs::path dir = fs::path(std::getenv("TEST_TMPDIR")) / (libs.empty() ? "usr" : "libs");
  EXPECT_TRUE(ResetDir(dir.string()).ok());
  EXPECT_TRUE(CopyFile("plugins/common/hip/library_probe", (dir / "library_probe").string()).ok());
  fs::permissions(dir / "library_probe", fs::perms::owner_all);
  SandboxOptions sb;
  sb.workspace = dir.string();
  sb.workspace_read_only = true;
  sb.libraries = libs;
  std::vector<std::string> argv = {std::string(kSandboxWorkspace) + "/library_probe"};
  argv.insert(argv.end(), std::begin(kProbes), std::end(kProbes));
  auto p = SandboxedProcess(sb, argv);
  EXPECT_TRUE(p.ok()) << p.status().message();
  p->timeout_s = 30;
  auto r = RunProcess(*p);
  EXPECT_TRUE(r.ok() && r->success()) << (r.ok() ? r->err : r.status().message());
  std::map<std::string, std::string> seen;
  std::istringstream lines(r.ok() ? r->out : "");
  for (std::string line; std::getline(lines, line);) {
    const size_t colon = line.rfind(": ");
    if (colon != std::string::npos) seen[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return seen;
}

TEST(RunnerSandbox, HoldsTheRuntimeAndNoVendorLibraryOrCompiler) {
  if (std::string why = SandboxUnavailableReason(); !why.empty()) GTEST_SKIP() << "no sandbox: " << why;
  auto libs = HipRunnerLibraries(fs::absolute("plugins/common/hip/hip_runner").string());
  ASSERT_TRUE(libs.ok()) << libs.status().message();
  auto probe = SharedLibraryClosure({fs::absolute("plugins/common/hip/library_probe").string()});
  ASSERT_TRUE(probe.ok()) << probe.status().message();
  std::set<std::string> names;
  for (const auto& l : *libs) names.insert(l.second);
  for (const auto& l : *probe) {
    if (names.insert(l.second).second) libs->push_back(l);
  }
  const std::map<std::string, std::string> inside = Probe(*libs);
  EXPECT_EQ(inside.at("libcudart.so.13"), "loaded");
  bool host_has_cupti = false;
  for (const auto& l : *libs) host_has_cupti |= l.second.rfind("libcupti.so", 0) == 0;
  if (host_has_cupti) {
    EXPECT_EQ(inside.at("libcupti.so.13"), "loaded");
  }
  for (const char* absent : {"libcublas.so.13", "libcublasLt.so.13", "libcudnn.so.9", "libnvrtc.so.13",
                             "libtorch.so", "/usr/local/cuda", "/usr/bin/gcc", "/usr/bin/python3"}) {
    EXPECT_EQ(inside.at(absent), "absent") << absent;
  }
  // The control: where all of /usr is bound, the same probe finds what the
  // runner's sandbox hides (on a machine that has it).
  const std::map<std::string, std::string> usr = Probe({});
  EXPECT_EQ(usr.at("/usr/local/cuda"), fs::exists("/usr/local/cuda") ? "exists" : "absent");
  EXPECT_EQ(usr.at("/usr/bin/python3"), fs::exists("/usr/bin/python3") ? "exists" : "absent");
}

// The runner built for ROCm starts in its sandbox with the libraries it
// needs (the HIP runtime, and the code-object manager it opens itself) and,
// on a machine without an AMD GPU, says so over its channel.
TEST(RunnerSandbox, TheRocmRunnerStartsAndSaysWhyWithoutAnAmdGpu) {
  if (std::string why = SandboxUnavailableReason(); !why.empty()) GTEST_SKIP() << "no sandbox: " << why;
  if (fs::exists("/dev/kfd")) GTEST_SKIP() << "this machine has an AMD GPU";
  const std::string runner = fs::absolute("plugins/common/hip/hip_runner_rocm").string();
  auto libs = HipRunnerLibraries(runner);
  ASSERT_TRUE(libs.ok()) << libs.status().message();
  std::set<std::string> names;
  for (const auto& l : *libs) names.insert(l.second);
  EXPECT_EQ(names.count("libamdhip64.so.5") + names.count("libamdhip64.so.6"), 1u);
  bool comgr = false;
  for (const auto& name : names) comgr |= name.rfind("libamd_comgr.so", 0) == 0;
  EXPECT_TRUE(comgr);
  EXPECT_EQ(names.count("libcudart.so.13"), 0u);

  const fs::path dir = fs::path(std::getenv("TEST_TMPDIR")) / "rocm";
  ASSERT_TRUE(ResetDir(dir.string()).ok());
  ASSERT_TRUE(CopyFile(runner, (dir / "hip_runner").string()).ok());
  fs::permissions(dir / "hip_runner", fs::perms::owner_all);
  SandboxOptions sb;
  sb.workspace = dir.string();
  sb.workspace_read_only = true;
  sb.libraries = *libs;
  auto argv = SandboxArgv(sb, {std::string(kSandboxWorkspace) + "/hip_runner",
                               "--lib=" + std::string(kSandboxWorkspace) + "/subject.so"});
  ASSERT_TRUE(argv.ok()) << argv.status().message();
  hip2hip::RunnerClient client("candidate", *argv, (fs::path(std::getenv("TEST_TMPDIR")) / "rocm.log").string());
  const Status started = client.Start(60);
  ASSERT_FALSE(started.ok());
  EXPECT_NE(started.message().find("candidate: HIP: hipError"), std::string::npos)
      << started.message() << "\n" << client.LogTail();
}

}  // namespace
}  // namespace arena
