#include "plugins/common/hip/build/rtc_compile.h"

#include <iterator>

#include "hip/hiprtc.h"

namespace arena::hip2hip {
namespace {

// The host side's language flags: a precompiled header is taken only by a
// compile with the same ones, so both commands below use these.
constexpr const char* kHostLanguageFlags[] = {"-std=c++17", "-O2", "-fPIC"};

}  // namespace

Result<RtcModule> CompileDeviceSide(const RtcSplit& split, const std::string& arch,
                                    const std::string& abi_include, const std::string& source_dir) {
  hiprtcProgram prog;
  if (hiprtcCreateProgram(&prog, split.device_source.c_str(), "kernel.hip", 0, nullptr, nullptr) !=
      HIPRTC_SUCCESS) {
    return Internal("hiprtcCreateProgram failed");
  }
  for (const auto& k : split.kernels) hiprtcAddNameExpression(prog, ("&" + k).c_str());
  const std::string gpu = "--gpu-architecture=" + arch;
  const std::string include = "-I" + abi_include;
  const std::string beside = "-I" + source_dir;
  std::vector<const char*> options = {gpu.c_str(), "-std=c++17", include.c_str()};
  if (!source_dir.empty()) options.push_back(beside.c_str());
  const hiprtcResult r = hiprtcCompileProgram(prog, static_cast<int>(options.size()), options.data());
  RtcModule m;
  size_t n = 0;
  hiprtcGetProgramLogSize(prog, &n);
  std::string log(n, '\0');
  if (n > 0) hiprtcGetProgramLog(prog, &log[0]);
  m.log = log.c_str();
  Status status = OkStatus();
  if (r != HIPRTC_SUCCESS) {
    status = InvalidArgument(m.log.empty() ? "NVRTC failed" : m.log);
  } else {
    size_t size = 0;
    hiprtcGetCodeSize(prog, &size);
    m.code.assign(size, '\0');
    if (size > 0) hiprtcGetCode(prog, &m.code[0]);
    for (const auto& k : split.kernels) {
      const char* lowered = nullptr;
      if (hiprtcGetLoweredName(prog, ("&" + k).c_str(), &lowered) != HIPRTC_SUCCESS ||
          lowered == nullptr) {
        status = InvalidArgument("the launched kernel " + k + " could not be named");
        break;
      }
      m.names += k + "\t" + lowered + "\n";
    }
    if (status.ok() && m.code.empty()) status = Internal("NVRTC produced no code");
  }
  hiprtcDestroyProgram(&prog);
  if (!status.ok()) return status;
  return m;
}

std::vector<std::string> HostSideCommand(const std::string& host_source, const std::string& library,
                                         const std::string& layer_include,
                                         const std::string& abi_include,
                                         const std::string& cuda_root, const std::string& source_dir,
                                         const std::string& pch_header) {
  std::vector<std::string> argv = {"g++"};
  argv.insert(argv.end(), std::begin(kHostLanguageFlags), std::end(kHostLanguageFlags));
  argv.push_back("-shared");
  if (!pch_header.empty()) argv.insert(argv.end(), {"-include", pch_header});
  if (!source_dir.empty()) argv.push_back("-iquote" + source_dir);
  argv.insert(argv.end(), {"-I" + layer_include, "-I" + abi_include, "-I" + cuda_root + "/include", host_source, "-o",
                           library, "-L" + cuda_root + "/lib64", "-lcudart", "-Wl,-rpath," + cuda_root + "/lib64"});
  return argv;
}

std::vector<std::string> HostPchCommand(const std::string& header, const std::string& gch,
                                        const std::string& layer_include, const std::string& abi_include,
                                        const std::string& cuda_root) {
  std::vector<std::string> argv = {"g++"};
  argv.insert(argv.end(), std::begin(kHostLanguageFlags), std::end(kHostLanguageFlags));
  argv.insert(argv.end(), {"-I" + layer_include, "-I" + abi_include, "-I" + cuda_root + "/include", "-x",
                           "c++-header", header, "-o", gch});
  return argv;
}

}  // namespace arena::hip2hip
