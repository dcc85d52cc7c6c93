// Builds a HIP candidate through runtime compilation (build/rtc_split.h):
// its device side by NVRTC (the layer's hipRTC) into NAME.cubin with
// NAME.names (each launched kernel's name expression and lowered name),
// while g++ builds its host side into NAME.so; the three files side by side
// are what the layer's launcher (hip/nvidia_on_cuda/rtc_launch.h) loads.
//
//   hip_rtc_build SOURCE OUT_DIR NAME ARCH LAYER_INCLUDE ABI_INCLUDE CUDA_ROOT [PCH_HEADER]
//   hip_rtc_build --pch OUT_DIR LAYER_INCLUDE ABI_INCLUDE CUDA_ROOT
//
// Exit 0: built. Exit 3: the split refused the source (the reason on
// stderr; the caller builds it with nvcc). Exit 1: a compiler failed (its
// messages on stderr).
//
// PCH_HEADER: the host side's precompiled header (rtc_compile.h), made by
// the second form as OUT_DIR/arena_rtc_host.h and its .gch. A host side
// that does not build with it included first (a name of its own that
// clashes with one of the header's) is built again without it.
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

constexpr char kUsage[] =
    "usage: hip_rtc_build SOURCE OUT_DIR NAME ARCH LAYER_INCLUDE ABI_INCLUDE CUDA_ROOT [PCH_HEADER]\n"
    "       hip_rtc_build --pch OUT_DIR LAYER_INCLUDE ABI_INCLUDE CUDA_ROOT\n";

// The second form: OUT_DIR/arena_rtc_host.h and its precompiled form.
int MakePch(const std::string& out, const std::string& layer, const std::string& abi, const std::string& cuda) {
  const std::string header = out + "/arena_rtc_host.h";
  if (!(std::ofstream(header) << arena::hip2hip::kHostPchHeader)) {
    std::fprintf(stderr, "%s: cannot write\n", header.c_str());
    return 1;
  }
  arena::ProcessOptions pch;
  pch.argv = arena::hip2hip::HostPchCommand(header, header + ".gch", layer, abi, cuda);
  pch.timeout_s = 600;
  auto built = arena::RunProcess(pch);
  if (!built.ok() || !built->success()) {
    std::fprintf(stderr, "precompiling the host side's header (g++): %s\n%s",
                 built.ok() ? built->Describe().c_str() : "",
                 built.ok() ? built->err.c_str() : built.status().message().c_str());
    return 1;
  }
  return 0;
}

int Main(int argc, char** argv) {
  if (argc == 6 && std::string(argv[1]) == "--pch") return MakePch(argv[2], argv[3], argv[4], argv[5]);
  if (argc != 8 && argc != 9) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  const std::string source_path = argv[1], out = argv[2], name = argv[3], arch = argv[4],
                    layer = argv[5], abi = argv[6], cuda = argv[7];
  const std::string pch = argc == 9 ? argv[8] : "";
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
      arena::hip2hip::HostSideCommand(host_cc, out + "/" + name + ".so", layer, abi, cuda, source_dir, pch);
  host.timeout_s = 600;
  auto built = arena::RunProcess(host);
  if (!pch.empty() && !(built.ok() && built->success())) {
    host.argv = arena::hip2hip::HostSideCommand(host_cc, out + "/" + name + ".so", layer, abi, cuda, source_dir);
    built = arena::RunProcess(host);
  }
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
