// The HIP build: real compilers (nvcc through the HIP-on-CUDA layer; hipcc
// where installed), and its cache of built libraries.
#include "plugins/common/hip/build/hip_build.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <gtest/gtest.h>

#include "core/files.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kKernel[] = R"(#include <hip/hip_runtime.h>
#include "arena_hip.h"
__global__ void scale(float* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= 2.0f;
}
extern "C" int arena_run(const ArenaTensor* in, int nin, ArenaTensor* out, int nout,
                         const ArenaParam* p, int np, hipStream_t stream) {
  hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, stream, static_cast<float*>(out[0].data), 64LL);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
)";

// kKernel launched with triple chevrons, which runtime compilation refuses.
std::string WithChevronLaunch() {
  const std::string launch = "hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, stream, ";
  std::string text = kKernel;
  return text.replace(text.find(launch), launch.size(), "scale<<<1, 64, 0, stream>>>(");
}

class HipBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::TempDir() + "/hip_build_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(ResetDir(root_).ok());
    setenv("ARENA_HIP_CACHE", (root_ + "/cache").c_str(), 1);
    options_.project_root = fs::current_path().string();  // compilers run elsewhere
    options_.work_dir = root_ + "/work";
    fs::create_directories(options_.work_dir);
  }
  void TearDown() override {
    unsetenv("ARENA_HIP_CACHE");
    unsetenv("ARENA_HIP_RTC");
  }

  StageOutcome Build(const std::string& text, const std::string& name) {
    const std::string src = root_ + "/src_" + name + "/kernel.hip";
    EXPECT_TRUE(WriteFileAtomic(src, text).ok());
    std::string lib;
    StageOutcome o = BuildHip(options_, src, name, &lib);
    if (o.passed()) {
      EXPECT_TRUE(fs::is_regular_file(lib)) << lib;
    }
    return o;
  }

  std::string root_;
  HipBuildOptions options_;
};

TEST_F(HipBuild, SameInputsAreBuiltOnceThenTakenFromTheCache) {
  setenv("ARENA_HIP_RTC", "0", 1);  // nvcc's builds
  StageOutcome first = Build(kKernel, "a");
  ASSERT_TRUE(first.passed()) << first.detail << first.log;
  EXPECT_EQ(first.metrics.value("cache", ""), "miss");
  EXPECT_TRUE(first.metrics.contains("nvidia_compile_s"));
  EXPECT_EQ(first.metrics.value("nvidia_arch", ""), "sm_90");

  StageOutcome again = Build(kKernel, "b");  // same file name and contents, another folder
  ASSERT_TRUE(again.passed()) << again.detail;
  EXPECT_EQ(again.metrics.value("cache", ""), "hit");
  EXPECT_FALSE(again.metrics.contains("nvidia_compile_s")) << "a hit is not a compile time";
  EXPECT_EQ(*ReadFile(options_.work_dir + "/a.so"), *ReadFile(options_.work_dir + "/b.so"));

  std::string changed = kKernel;
  changed.replace(changed.find("2.0f"), 4, "3.0f");
  EXPECT_EQ(Build(changed, "c").metrics.value("cache", ""), "miss");
}

TEST_F(HipBuild, FailuresAreNeverCachedAndTheCacheCanBeTurnedOff) {
  StageOutcome bad = Build("this is not C++\n", "bad");
  EXPECT_EQ(bad.status, StageStatus::kFailed);
  EXPECT_NE(bad.detail.find("does not compile"), std::string::npos) << bad.detail;
  EXPECT_EQ(Build("this is not C++\n", "bad2").status, StageStatus::kFailed);
  setenv("ARENA_HIP_CACHE", "off", 1);
  StageOutcome off = Build(kKernel, "off");
  ASSERT_TRUE(off.passed()) << off.detail << off.log;
  EXPECT_FALSE(off.metrics.contains("cache"));
}

TEST_F(HipBuild, AnEditableHeaderBesideTheSourceIsPartOfTheKey) {
  const std::string with_header = std::string("#include \"knobs.h\"\n") + kKernel;
  ASSERT_TRUE(WriteFileAtomic(root_ + "/src_h1/knobs.h", "#define KNOB 1\n").ok());
  ASSERT_TRUE(Build(with_header, "h1").passed());
  ASSERT_TRUE(WriteFileAtomic(root_ + "/src_h2/knobs.h", "#define KNOB 2\n").ok());
  StageOutcome h2 = Build(with_header, "h2");
  EXPECT_EQ(h2.metrics.value("cache", ""), "miss") << h2.metrics.dump() << h2.log;
}

TEST_F(HipBuild, AnUntrustedSourceSeesItsEditableFilesAlone) {
  // A candidate that includes the task's reference (beside it in the staged
  // task folder, or by an absolute path into the project) to compute its
  // outputs on the host: built sandboxed, on a copy of the editable files,
  // it finds neither.
  setenv("ARENA_HIP_CACHE", "off", 1);
  options_.editable = {"kernel.hip"};
  const std::string secret = root_ + "/src_leak/reference.cpp";
  ASSERT_TRUE(WriteFileAtomic(secret, "#error the reference was reachable\n").ok());
  StageOutcome beside = Build(std::string("#include \"reference.cpp\"\n") + kKernel, "leak");
  EXPECT_EQ(beside.status, StageStatus::kFailed);
  EXPECT_EQ(beside.log.find("the reference was reachable"), std::string::npos) << beside.log;
  EXPECT_NE(beside.log.find("reference.cpp"), std::string::npos) << beside.log;  // not found
  const std::string project_file = (fs::current_path() / "plugins/common/hip/build/hip_build.cc").string();
  StageOutcome absolute = Build("#include \"" + project_file + "\"\n" + kKernel, "abs");
  EXPECT_EQ(absolute.status, StageStatus::kFailed);
  // Without the sandbox (harness code) the same include would be found.
  options_.editable.clear();
  StageOutcome trusted = Build(std::string("#include \"reference.cpp\"\n") + kKernel, "leak");
  EXPECT_NE(trusted.log.find("the reference was reachable"), std::string::npos) << trusted.log;
  // An honest source still builds, sandboxed.
  options_.editable = {"kernel.hip"};
  StageOutcome honest = Build(kKernel, "honest");
  EXPECT_TRUE(honest.passed()) << honest.detail << honest.log;
}

TEST_F(HipBuild, RuntimeCompilationBuildsTheSplitAndFallsBackToNvcc) {
  // ARENA_HIP_RTC=1: NVRTC and g++ on the split source, sandboxed; the
  // library's module and kernel names beside it, for the runner.
  setenv("ARENA_HIP_RTC", "1", 1);
  options_.editable = {"kernel.hip"};
  StageOutcome rtc = Build(kKernel, "rtc");
  ASSERT_TRUE(rtc.passed()) << rtc.detail << rtc.log;
  EXPECT_EQ(rtc.metrics.value("rtc", ""), "nvrtc+g++") << rtc.metrics.dump();
  EXPECT_NE(rtc.detail.find("(NVRTC and g++)"), std::string::npos) << rtc.detail;
  auto names = ReadFile(options_.work_dir + "/rtc.names");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, "scale\t_Z5scalePfx\n");
  EXPECT_GT(fs::file_size(options_.work_dir + "/rtc.cubin"), 0u);
  // What the split refuses is built by nvcc, saying why.
  const std::string chevrons = WithChevronLaunch();
  StageOutcome nvcc = Build(chevrons, "rtc");
  ASSERT_TRUE(nvcc.passed()) << nvcc.detail << nvcc.log;
  EXPECT_EQ(nvcc.metrics.value("rtc", ""),
            "fell back to nvcc: line 9: a triple-chevron launch (runtime compilation takes "
            "hipLaunchKernelGGL)");
  EXPECT_FALSE(fs::exists(options_.work_dir + "/rtc.cubin")) << "a stale module beside an nvcc build";
  // A source that does not compile fails with the compilers' messages.
  StageOutcome broken = Build(std::string(kKernel) + "int broken(", "rtc");
  EXPECT_EQ(broken.status, StageStatus::kFailed);
  unsetenv("ARENA_HIP_RTC");
}

TEST_F(HipBuild, RuntimeCompilationsHostSideTakesTheLayersHeadersPrecompiled) {
  options_.editable = {"kernel.hip"};
  StageOutcome first = Build(kKernel, "p1");
  ASSERT_TRUE(first.passed()) << first.detail << first.log;
  EXPECT_EQ(first.metrics.value("rtc", ""), "nvrtc+g++") << first.metrics.dump();
  EXPECT_TRUE(first.metrics.value("rtc_host_pch", false)) << first.metrics.dump();
  // Made once, in the cache, and read from there.
  std::vector<fs::path> pch;
  for (const auto& e : fs::directory_iterator(root_ + "/cache")) {
    if (e.path().filename().string().rfind("rtc-pch-", 0) == 0) pch.push_back(e.path());
  }
  ASSERT_EQ(pch.size(), 1u);
  ASSERT_TRUE(fs::is_regular_file(pch[0] / "arena_rtc_host.h"));
  ASSERT_GT(fs::file_size(pch[0] / "arena_rtc_host.h.gch"), 1000u);
  // Another version's entry, made over a day ago, goes when one is made;
  // one made within the day stays.
  const fs::path stale = fs::path(root_) / "cache/rtc-pch-stale";
  const fs::path recent = fs::path(root_) / "cache/rtc-pch-recent";
  for (const auto& d : {stale, recent}) {
    ASSERT_TRUE(WriteFileAtomic((d / "arena_rtc_host.h.gch").string(), "x").ok());
  }
  fs::last_write_time(stale / "arena_rtc_host.h.gch",
                      fs::file_time_type::clock::now() - std::chrono::hours(48));
  fs::remove_all(pch[0]);
  std::string other = kKernel;  // not in the library cache
  other.replace(other.find("2.0f"), 4, "4.0f");
  StageOutcome remade = Build(other, "p0");
  ASSERT_TRUE(remade.passed()) << remade.detail << remade.log;
  EXPECT_TRUE(fs::is_regular_file(pch[0] / "arena_rtc_host.h.gch"));
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(recent));
  fs::remove_all(recent);
  // A host side whose names clash with the precompiled headers' (a type
  // of its own named __half, where it never includes hip_fp16.h) is built
  // again without them, still by runtime compilation.
  std::string clash = std::string("typedef int __half;\n") + kKernel;
  StageOutcome own = Build(clash, "p2");
  ASSERT_TRUE(own.passed()) << own.detail << own.log;
  EXPECT_EQ(own.metrics.value("rtc", ""), "nvrtc+g++") << own.metrics.dump();
  // A precompiled form g++ cannot use is read as text instead: same build.
  ASSERT_TRUE(WriteFileAtomic((pch[0] / "arena_rtc_host.h.gch").string(), "not a precompiled header").ok());
  std::string changed = kKernel;
  changed.replace(changed.find("2.0f"), 4, "3.0f");
  StageOutcome junk = Build(changed, "p3");
  ASSERT_TRUE(junk.passed()) << junk.detail << junk.log;
  EXPECT_EQ(junk.metrics.value("rtc", ""), "nvrtc+g++") << junk.metrics.dump();
}

TEST_F(HipBuild, RuntimeCompilationIsTheDefaultAndItsBuildsAreCachedWhole) {
  options_.editable = {"kernel.hip"};
  StageOutcome first = Build(kKernel, "r1");
  ASSERT_TRUE(first.passed()) << first.detail << first.log;
  EXPECT_EQ(first.metrics.value("rtc", ""), "nvrtc+g++") << first.metrics.dump();
  EXPECT_EQ(first.metrics.value("cache", ""), "miss");
  // The same source again: the library and the two files it loads beside it.
  StageOutcome again = Build(kKernel, "r2");
  ASSERT_TRUE(again.passed()) << again.detail << again.log;
  EXPECT_EQ(again.metrics.value("cache", ""), "hit");
  EXPECT_EQ(again.metrics.value("rtc", ""), "nvrtc+g++");
  for (const char* ext : {".so", ".cubin", ".names"}) {
    auto a = ReadFile(options_.work_dir + "/r1" + ext);
    auto b = ReadFile(options_.work_dir + "/r2" + ext);
    ASSERT_TRUE(a.ok() && b.ok()) << ext;
    EXPECT_EQ(*a, *b) << ext;
  }
  // An entry missing a side file is never taken: built again, whole.
  int removed = 0;
  for (const auto& e : fs::directory_iterator(root_ + "/cache")) {
    if (e.path().extension() == ".cubin") removed += fs::remove(e.path()) ? 1 : 0;
  }
  ASSERT_EQ(removed, 1);
  StageOutcome rebuilt = Build(kKernel, "r3");
  ASSERT_TRUE(rebuilt.passed()) << rebuilt.detail << rebuilt.log;
  EXPECT_EQ(rebuilt.metrics.value("cache", ""), "miss");
  EXPECT_GT(fs::file_size(options_.work_dir + "/r3.cubin"), 0u);
  // nvcc's build of the same source is another entry, with no module beside it.
  setenv("ARENA_HIP_RTC", "0", 1);
  StageOutcome nvcc = Build(kKernel, "n1");
  ASSERT_TRUE(nvcc.passed()) << nvcc.detail << nvcc.log;
  EXPECT_EQ(nvcc.metrics.value("cache", ""), "miss");
  EXPECT_FALSE(nvcc.metrics.contains("rtc")) << nvcc.metrics.dump();
  EXPECT_FALSE(fs::exists(options_.work_dir + "/n1.cubin"));
  // A build that fell back to nvcc is not kept under runtime compilation's
  // key: taken later, it would not say that it fell back.
  unsetenv("ARENA_HIP_RTC");
  const std::string chevrons = WithChevronLaunch();
  for (const char* name : {"f1", "f2"}) {
    StageOutcome fell = Build(chevrons, name);
    ASSERT_TRUE(fell.passed()) << fell.detail << fell.log;
    EXPECT_EQ(fell.metrics.value("rtc", "").rfind("fell back to nvcc: ", 0), 0u) << fell.metrics.dump();
    EXPECT_FALSE(fell.metrics.contains("cache")) << fell.metrics.dump();
  }
}

}  // namespace
}  // namespace arena
