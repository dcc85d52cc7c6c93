// The split for runtime compilation, on shipped HIP kernels: NVRTC compiles
// every device side (with the launched kernels' names lowered) and g++
// every host side, into a shared library (build/rtc_compile.h); and what the split cannot take
// is refused with its reason, for nvcc to build.
#include "plugins/common/hip/build/rtc_split.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/files.h"
#include "core/process.h"
#include "plugins/common/hip/build/rtc_compile.h"

namespace arena::hip2hip {
namespace {
namespace fs = std::filesystem;

constexpr const char* kKernels[] = {
    "tasks/hip2hip/elementwise/silu_mul/kernel.hip",
    "tasks/hip2hip/elementwise/gelu_bias/kernel.hip",
    "tasks/hip2hip/elementwise/bias_relu_dropout_free/kernel.hip",
    "tasks/hip2hip/softmax/softmax_rows/kernel.hip",
    "tasks/hip2hip/attention/attention_small/kernel.hip",
};

const std::string kLayer = "plugins/common/hip/hip_on_cuda/include";
const std::string kAbi = "plugins/common/hip/include";

TEST(RtcSplit, ShippedKernelsCompileOnBothSides) {
  for (const char* path : kKernels) {
    SCOPED_TRACE(path);
    auto source = ReadFile(path);
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    auto split = SplitForRuntimeCompilation(*source);
    ASSERT_TRUE(split.ok()) << split.status().ToString();
    ASSERT_FALSE(split->kernels.empty());
    EXPECT_EQ(split->device_source.find("arena_run"), std::string::npos);
    EXPECT_NE(split->host_source.find("arena_run"), std::string::npos);
    // Lines are kept, so that compilers' messages point into kernel.hip.
    EXPECT_EQ(std::count(split->device_source.begin(), split->device_source.end(), '\n'),
              std::count(source->begin(), source->end(), '\n'));

    auto module = CompileDeviceSide(*split, "sm_90", (fs::current_path() / kAbi).string());
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    EXPECT_EQ(std::count(module->names.begin(), module->names.end(), '\n'),
              static_cast<long>(split->kernels.size()))
        << module->names;

    const std::string dir = testing::TempDir() + "/rtc_" + fs::path(path).parent_path().filename().string();
    ASSERT_TRUE(ResetDir(dir).ok());
    ASSERT_TRUE(WriteFileAtomic(dir + "/host.cc", split->host_source).ok());
    ProcessOptions p;
    p.argv = HostSideCommand(dir + "/host.cc", dir + "/subject.so", kLayer, kAbi, "/usr/local/cuda");
    p.timeout_s = 120;
    auto built = RunProcess(p);
    ASSERT_TRUE(built.ok()) << built.status().ToString();
    EXPECT_TRUE(built->success()) << built->Describe() << "\n" << built->err;
  }
}

TEST(RtcSplit, DefinitionsGoWhereTheyRun) {
  const std::string source =
      "#include <hip/hip_runtime.h>\n"
      "#define N 4\n"
      "struct Pair { float a, b; };\n"
      "__device__ float twice(float x) { return 2 * x; }\n"
      "__host__ __device__ inline int both(int x) { return x + 1; }\n"
      "__device__ int counter;\n"
      "constexpr int kWidth = 8;\n"
      "static int* scratch = nullptr;\n"
      "static int host_helper(int x) { return x * N; }\n"
      "int host_prototype(int);\n"
      "template <int B> __global__ void k(float* y) { y[threadIdx.x] = twice(B); }\n"
      "extern \"C\" int arena_run(float* y, hipStream_t s) {\n"
      "  hipLaunchKernelGGL(HIP_KERNEL_NAME(k<N>), dim3(1), dim3(N), 0, s, y);\n"
      "  return host_helper(both(0));\n"
      "}\n";
  auto split = SplitForRuntimeCompilation(source);
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  EXPECT_EQ(split->kernels, std::vector<std::string>{"k<N>"});
  const std::string& dev = split->device_source;
  const std::string& host = split->host_source;
  for (const char* both : {"struct Pair", "both(int x)", "#define N 4", "constexpr int kWidth"}) {
    EXPECT_NE(dev.find(both), std::string::npos) << both;
    EXPECT_NE(host.find(both), std::string::npos) << both;
  }
  for (const char* device_only : {"twice(float x)", "__device__ int counter"}) {
    EXPECT_NE(dev.find(device_only), std::string::npos) << device_only;
    EXPECT_EQ(host.find(device_only), std::string::npos) << device_only;
  }
  for (const char* host_only : {"host_helper", "host_prototype", "arena_run", "scratch"}) {
    EXPECT_EQ(dev.find(host_only), std::string::npos) << host_only;
    EXPECT_NE(host.find(host_only), std::string::npos) << host_only;
  }
  // The kernel: whole on the device side, an empty stub on the host side.
  EXPECT_NE(dev.find("y[threadIdx.x] = twice(B);"), std::string::npos);
  EXPECT_EQ(host.find("y[threadIdx.x]"), std::string::npos);
  EXPECT_NE(host.find("__global__ void k(float* y) {}"), std::string::npos) << host;
  EXPECT_NE(host.find("{reinterpret_cast<const void*>(&k<N>), \"k<N>\"}"), std::string::npos) << host;
}

TEST(RtcSplit, WhatNeedsTheWholeProgramIsLeftToNvcc) {
  auto refused = [](const std::string& source) {
    auto split = SplitForRuntimeCompilation(source);
    return split.ok() ? std::string("split") : split.status().message();
  };
  EXPECT_EQ(refused("__global__ void k() {}\nvoid f() { k<<<1, 1>>>(); }\n"),
            "line 2: a triple-chevron launch (runtime compilation takes hipLaunchKernelGGL)");
  EXPECT_EQ(refused("__constant__ float c[4];\nvoid f(float* h) { hipMemcpyToSymbol(c, h, 16); }\n"),
            "line 2: hipMemcpyToSymbol needs the whole program built at once");
  EXPECT_EQ(refused("__global__ void k() {}\nvoid f() {\n  hipFuncSetAttribute((const void*)k, "
                    "hipFuncAttributeMaxDynamicSharedMemorySize, 1 << 16);\n}\n"),
            "line 3: hipFuncSetAttribute needs the whole program built at once");
  EXPECT_EQ(refused("__global__ void k(\n#ifdef WIDE\nlong n\n#else\nint n\n#endif\n) {}\n"),
            "line 2: a preprocessor conditional inside a declaration");
  EXPECT_EQ(refused("__global__ void k() {}\nstruct Runner {\n  void go(hipStream_t s) {\n"
                    "    hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, s);\n  }\n};\n"),
            "a hipLaunchKernelGGL outside a namespace-scope host function");
  EXPECT_EQ(refused("#define LAUNCH(...) hipLaunchKernelGGL(__VA_ARGS__)\n__global__ void k() {}\n"
                    "void f(hipStream_t s) { LAUNCH(k, dim3(1), dim3(1), 0, s); }\n"),
            "line 1: a hipLaunchKernelGGL inside a macro");
  EXPECT_EQ(refused("__global__ void k() {\n"), "line 1: unbalanced braces");
  EXPECT_EQ(refused("const char* s = \"open;\n"), "line 1: unterminated literal");
}

// The split reads a candidate's source, hostile by assumption: mutations
// of shipped kernels either split or are refused, never crash or hang.
TEST(RtcSplit, MutatedSourcesSplitOrAreRefused) {
  constexpr const char* kPieces[] = {"{", "}", "(", ")", ";", "\"", "'", "/*", "//", "#if X\n",
                                     "#endif\n", "<<<", ">>>", "__global__ ", "__device__ ",
                                     "hipLaunchKernelGGL(", "R\"x(", "\\\n", "template <", ","};
  std::mt19937_64 rng(20261202);
  int split = 0, refused = 0;
  for (const char* path : kKernels) {
    auto source = ReadFile(path);
    ASSERT_TRUE(source.ok());
    for (int i = 0; i < 400; ++i) {
      std::string s = *source;
      for (int e = 0; e < 1 + static_cast<int>(rng() % 3) && !s.empty(); ++e) {
        const size_t at = rng() % s.size();
        switch (rng() % 3) {
          case 0: s.insert(at, kPieces[rng() % (sizeof(kPieces) / sizeof(*kPieces))]); break;
          case 1: s.erase(at, 1 + rng() % 24); break;
          default: s[at] = static_cast<char>(rng() % 256);
        }
      }
      const auto start = std::chrono::steady_clock::now();
      auto r = SplitForRuntimeCompilation(s);
      EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << s;
      (r.ok() ? split : refused)++;
      if (r.ok()) {
        // Whatever splits keeps every line on both sides.
        EXPECT_EQ(std::count(r->device_source.begin(), r->device_source.end(), '\n'),
                  std::count(s.begin(), s.end(), '\n'));
      }
    }
  }
  EXPECT_GT(split, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace arena::hip2hip
