// The judge's input generator compiles (NVRTC needs no GPU), and its
// source, built for the host with a few lines standing in for CUDA's
// built-ins and each block run in turn, draws set k of a draw alone as it
// draws it among others; drawing on the GPU is exercised on the GPU machine
// by the family's timing (and checked there when the generator loads).
#include "plugins/common/hip/worker/device_fill.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/process.h"

namespace arena::hip2hip {
namespace {

TEST(DeviceFill, TheGeneratorCompilesForTheArchitecturesInUse) {
  for (const char* arch : {"compute_80", "compute_90"}) {
    auto ptx = DeviceFillPtx(arch);
    ASSERT_TRUE(ptx.ok()) << arch << ": " << ptx.status().message();
    EXPECT_NE(ptx->find(".entry arena_fill"), std::string::npos) << arch;
    EXPECT_NE(ptx->find(".entry arena_gather"), std::string::npos) << arch;
    EXPECT_NE(ptx->find(".entry arena_differs"), std::string::npos) << arch;
  }
}

// CUDA's built-ins for the host, and a main that runs the kernel's blocks
// one after another.
constexpr char kHostShim[] = R"(
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
struct dim { unsigned x = 0, y = 0, z = 0; };
static dim blockIdx, blockDim, threadIdx, gridDim;
struct float2 { float x, y; };
static float2 make_float2(float x, float y) { return {x, y}; }
static unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
#define __logf(x) std::log(static_cast<float>(x))
#define __cosf(x) std::cos(static_cast<float>(x))
static double cospi(double x) { return std::cos(3.141592653589793 * x); }
#define __device__
#define __global__
)";

constexpr char kHostMain[] = R"(
typedef void (*Fill)(char*, u64, u64, int, int, double, double, u64, u64);
static void Launch(char* base, u64 stride, u64 n, int sets, int dtype, int dist, double a, double b, u64 seed,
                   u64 first) {
  gridDim.x = 3; blockDim.x = 8;
  for (unsigned y = 0; y < (unsigned)sets; ++y)
    for (unsigned x = 0; x < gridDim.x; ++x)
      for (unsigned t = 0; t < blockDim.x; ++t) {
        blockIdx.x = x; blockIdx.y = y; threadIdx.x = t;
        arena_fill(base, stride, n, dtype, dist, a, b, seed, first);
      }
}
int main() {
  const u64 n = 1000, stride = 8 * 1024;
  int bad = 0;
  for (int dtype = 0; dtype <= 9; ++dtype)
    for (int dist = 0; dist <= 2; ++dist) {
      std::vector<char> many(4 * stride, 0), alone(stride, 0);
      const double a = dist == 2 ? -5 : 0.5, b = dist == 2 ? 7 : 2;
      Launch(many.data(), stride, n, 4, dtype, dist, a, b, 99, 0);
      Launch(alone.data(), stride, n, 1, dtype, dist, a, b, 99, 2);
      if (std::memcmp(many.data() + 2 * stride, alone.data(), stride) != 0) {
        std::printf("dtype %d dist %d: drawn alone, set 2 is not what it is among four\n", dtype, dist);
        ++bad;
      }
      // (bool from these normal and uniform draws is true everywhere.)
      if (std::memcmp(many.data() + 1 * stride, alone.data(), stride) == 0 && !(dtype == 9 && dist < 2)) {
        std::printf("dtype %d dist %d: set 2 is set 1\n", dtype, dist);
        ++bad;
      }
    }
  std::printf("%d\n", bad);
  return 0;
}
)";

TEST(DeviceFill, ASetDrawnAloneIsThatSetOfADrawOfMany) {
  const std::string dir = testing::TempDir();
  const std::string src = dir + "/fill_on_host.cc", bin = dir + "/fill_on_host";
  std::ofstream(src) << kHostShim << DeviceFillSource() << kHostMain;
  ProcessOptions build;
  build.argv = {"g++", "-std=c++17", "-O1", "-w", "-o", bin, src};
  build.timeout_s = 120;
  auto built = RunProcess(build);
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  ASSERT_TRUE(built->success()) << built->err;
  ProcessOptions run;
  run.argv = {bin};
  auto ran = RunProcess(run);
  ASSERT_TRUE(ran.ok()) << ran.status().ToString();
  ASSERT_TRUE(ran->success()) << ran->err;
  // For every dtype and distribution: set 2 alone equals set 2 among
  // four, and differs from set 1.
  EXPECT_EQ(ran->out, "0\n");
}

TEST(DeviceFill, AnUnknownArchitectureIsAnError) {
  auto ptx = DeviceFillPtx("compute_1");
  EXPECT_FALSE(ptx.ok());
}

}  // namespace
}  // namespace arena::hip2hip
