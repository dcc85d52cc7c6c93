// Builds a HIP candidate through runtime compilation (build/rtc_split.h):
// its device side by NVRTC (the layer's hipRTC) into NAME.cubin with
// NAME.names (each launched kernel's name expression and lowered name),
// while g++ builds its host side into NAME.so; the three files side by side
// are what the layer's launcher (hip/nvidia_on_cuda/rtc_launch.h) loads.
//
//   hip_rtc_build SOURCE OUT_DIR NAME ARCH LAYER_INCLUDE ABI_INCLUDE CUDA_ROOT
//
// Exit 0: built. Exit 3: the split refused the source (the reason on
// stderr; the caller builds it with nvcc). Exit 1: a compiler failed (its
// messages on stderr).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/process.h"
#include "plugins/common/hip/build/rtc_compile.h"
#include "plugins/common/hip/build/rtc_split.h"

namespace {

int Main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: hip_rtc_build SOURCE OUT_DIR NAME ARCH LAYER_INCLUDE ABI_INCLUDE CUDA_ROOT\n");
    return 2;
  }
  const std::string source_path = argv[1], out = argv[2], name = argv[3], arch = argv[4],
                    layer = argv[5], abi = argv[6], cuda = argv[7];
  std::ifstream in(source_path);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read\n", source_path.c_str());
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto split = arena::hip2hip::SplitForRuntimeCompilation(text.str());
  if (!split.ok()) {
    std::fprintf(stderr, "%s\n", split.status().message().c_str());
    return 3;
  }
  const std::string host_cc = out + "/" + name + ".host.cc";
  std::ofstream(host_cc) << split->host_source;

  // The device side, in this process, while g++ builds the host side.
  arena::Result<arena::hip2hip::RtcModule> module = arena::Internal("not compiled");
  // Headers the source includes beside it are found in its own folder.
  std::string source_dir = source_path.substr(0, source_path.find_last_of('/') + 1);
  if (source_dir.empty()) source_dir = ".";
  std::thread device([&] { module = arena::hip2hip::CompileDeviceSide(*split, arch, abi, source_dir); });
  arena::ProcessOptions host;
  host.argv =
      arena::hip2hip::HostSideCommand(host_cc, out + "/" + name + ".so", layer, abi, cuda, source_dir);
  host.timeout_s = 600;
  auto built = arena::RunProcess(host);
  device.join();
  bool device_ok = module.ok();
  if (device_ok) {
    std::ofstream(out + "/" + name + ".cubin", std::ios::binary) << module->code;
    std::ofstream(out + "/" + name + ".names") << module->names;
  }
  const bool host_ok = built.ok() && built->success();
  if (!host_ok) {
    std::fprintf(stderr, "host side (g++): %s\n%s", built.ok() ? built->Describe().c_str() : "",
                 built.ok() ? built->err.c_str() : built.status().message().c_str());
  }
  if (!device_ok) std::fprintf(stderr, "device side (NVRTC):\n%s\n", module.status().message().c_str());
  return host_ok && device_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
