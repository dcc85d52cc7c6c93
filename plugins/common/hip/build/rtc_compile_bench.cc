// What runtime compilation would cost per HIP candidate, beside nvcc: each
// kernel.hip given on the command line is split (build/rtc_split.h), its
// device side compiled by NVRTC (through the layer's hipRTC) while g++
// builds its host side into a shared library (with the layer's headers
// precompiled, as the HIP build does, and again without), and the same
// file built by nvcc as the HIP families build it. Prints a markdown table
// and medians.
//
//   bazel run -c opt //plugins/common/hip:rtc_compile_bench -- $PWD/tasks/hip2hip/*/*/kernel.hip
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include "core/files.h"
#include "core/process.h"
#include "plugins/common/hip/build/rtc_compile.h"
#include "plugins/common/hip/build/rtc_split.h"

namespace arena::hip2hip {
namespace {
namespace fs = std::filesystem;

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return 0.5 * (v[(v.size() - 1) / 2] + v[v.size() / 2]);
}

int Main(int argc, char** argv) {
  // `bazel run` starts it in its runfiles; the headers are read from the
  // workspace it was run from.
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string root =
      workspace != nullptr ? std::string(workspace) : fs::current_path().string();
  const std::string layer = root + "/plugins/common/hip/hip_on_cuda/include";
  const std::string abi = root + "/plugins/common/hip/include";
  const std::string scratch = fs::temp_directory_path() / "arena_rtc_bench";
  std::vector<double> rtc_wall, nvrtc_s, host_s, plain_s, nvcc_s;
  int refused = 0;
  // The layer's headers precompiled once, as the HIP build keeps them.
  const std::string pch_dir = fs::temp_directory_path() / "arena_rtc_bench_pch";
  (void)ResetDir(pch_dir);
  const std::string pch = pch_dir + "/arena_rtc_host.h";
  (void)WriteFileAtomic(pch, kHostPchHeader);
  ProcessOptions make_pch;
  make_pch.argv = HostPchCommand(pch, pch + ".gch", layer, abi, "/usr/local/cuda");
  make_pch.timeout_s = 300;
  const auto p0 = std::chrono::steady_clock::now();
  auto made = RunProcess(make_pch);
  const double pch_s = Since(p0);
  const bool pch_ok = made.ok() && made->success();
  std::printf("| kernel | split | NVRTC s | g++ host s (precompiled headers) | both, side by side s | "
              "g++ host s (no precompiled headers) | nvcc s |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (int i = 1; i < argc; ++i) {
    const std::string path = argv[i];
    const std::string name = fs::path(path).parent_path().filename().string();
    auto source = ReadFile(path);
    if (!source.ok()) continue;
    (void)ResetDir(scratch);
    ProcessOptions nvcc;
    nvcc.argv = {"/usr/local/cuda/bin/nvcc", "-x", "cu", "-t", "0", "-std=c++17", "-O3", "-arch=sm_90",
                 "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-I" + layer, "-I" + abi,
                 path, "-o", scratch + "/nvcc.so"};
    nvcc.timeout_s = 300;
    auto t0 = std::chrono::steady_clock::now();
    auto nv = RunProcess(nvcc);
    const double nvcc_time = Since(t0);
    const bool nvcc_ok = nv.ok() && nv->success();
    if (nvcc_ok) nvcc_s.push_back(nvcc_time);

    t0 = std::chrono::steady_clock::now();
    auto split = SplitForRuntimeCompilation(*source);
    if (!split.ok()) {
      ++refused;
      std::printf("| %s | refused: %s | | | | | %.2f |\n", name.c_str(), split.status().message().c_str(),
                  nvcc_time);
      continue;
    }
    (void)WriteFileAtomic(scratch + "/host.cc", split->host_source);
    double device_time = 0;
    bool device_ok = false;
    std::thread device([&] {
      const auto d0 = std::chrono::steady_clock::now();
      device_ok = CompileDeviceSide(*split, "sm_90", abi).ok();
      device_time = Since(d0);
    });
    ProcessOptions host;
    host.argv = HostSideCommand(scratch + "/host.cc", scratch + "/host.so", layer, abi,
                                "/usr/local/cuda", "", pch_ok ? pch : "");
    host.timeout_s = 300;
    const auto h0 = std::chrono::steady_clock::now();
    auto h = RunProcess(host);
    const double host_time = Since(h0);
    device.join();
    const double wall = Since(t0);
    const bool host_ok = h.ok() && h->success();
    ProcessOptions plain = host;
    plain.argv = HostSideCommand(scratch + "/host.cc", scratch + "/plain.so", layer, abi, "/usr/local/cuda");
    const auto q0 = std::chrono::steady_clock::now();
    auto q = RunProcess(plain);
    const double plain_time = Since(q0);
    if (q.ok() && q->success()) plain_s.push_back(plain_time);
    if (device_ok && host_ok) {
      rtc_wall.push_back(wall);
      nvrtc_s.push_back(device_time);
      host_s.push_back(host_time);
    } else {
      ++refused;
    }
    std::printf("| %s | %s | %.2f%s | %.2f%s | %.2f | %.2f | %.2f%s |\n", name.c_str(), "ok", device_time,
                device_ok ? "" : " (failed)", host_time, host_ok ? "" : " (failed)", wall, plain_time, nvcc_time,
                nvcc_ok ? "" : " (failed)");
  }
  std::printf("\n%zu of %d built both ways; medians: NVRTC %.2f s, g++ host %.2f s (%.2f s without "
              "precompiled headers), side by side %.2f s; nvcc %.2f s; the precompiled headers %s in %.2f s, "
              "once\n",
              rtc_wall.size(), argc - 1, Median(nvrtc_s), Median(host_s), Median(plain_s), Median(rtc_wall),
              Median(nvcc_s), pch_ok ? "made" : "FAILED", pch_s);
  return 0;
}

}  // namespace
}  // namespace arena::hip2hip

int main(int argc, char** argv) { return arena::hip2hip::Main(argc, argv); }
