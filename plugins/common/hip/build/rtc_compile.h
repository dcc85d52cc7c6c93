// The device side of a split candidate (build/rtc_split.h) compiled by
// NVRTC, through the HIP-on-CUDA layer's hipRTC.
//
//   ARENA_ASSIGN_OR_RETURN(RtcModule m, CompileDeviceSide(split, "sm_90", abi));
//   // m.code: the cubin; m.names: "EXPRESSION\tLOWERED\n" per kernel launched
#ifndef ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_COMPILE_H_
#define ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_COMPILE_H_

#include <string>
#include <vector>

#include "core/status.h"
#include "plugins/common/hip/build/rtc_host_pch.h"
#include "plugins/common/hip/build/rtc_split.h"

namespace arena::hip2hip {

struct RtcModule {
  std::string code;   // a cubin for `arch`
  std::string names;  // each launched kernel's name expression, a tab, its lowered name
  std::string log;    // NVRTC's messages
};

// An error carries NVRTC's messages; every launched kernel must be named.
// `source_dir`, where set, is the original source's folder: the headers it
// includes beside it (an editable header) are found there.
Result<RtcModule> CompileDeviceSide(const RtcSplit& split, const std::string& arch,
                                    const std::string& abi_include, const std::string& source_dir = "");

// The host compiler's command line for a split candidate's host side
// (`host_source`, written to a file) into the shared library `library`:
// g++ with the HIP-on-CUDA layer's headers (`layer_include`), the C ABI's
// (`abi_include`) and the CUDA runtime under `cuda_root`; `source_dir` as
// for CompileDeviceSide. `pch_header`, where set, is a copy of
// kHostPchHeader with its precompiled form (HostPchCommand) beside it as
// PCH_HEADER.gch: included first, it spares g++ parsing the layer's and
// CUDA's headers again (about half of the host side's time). A .gch that
// does not fit (another compiler, other flags) is ignored by g++, which
// then reads the header as text.
std::vector<std::string> HostSideCommand(const std::string& host_source, const std::string& library,
                                         const std::string& layer_include,
                                         const std::string& abi_include,
                                         const std::string& cuda_root,
                                         const std::string& source_dir = "",
                                         const std::string& pch_header = "");

// g++'s command line that precompiles `header` (kHostPchHeader's text)
// into `gch` with exactly HostSideCommand's language flags.
std::vector<std::string> HostPchCommand(const std::string& header, const std::string& gch,
                                        const std::string& layer_include, const std::string& abi_include,
                                        const std::string& cuda_root);

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_COMPILE_H_
