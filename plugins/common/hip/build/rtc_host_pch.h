// What runtime compilation's host side includes precompiled
// (rtc_compile.h's HostSideCommand): the layer's headers that every split
// host side, or most, includes first, and <math.h> (most kernels include
// it, and in C++ it brings much of the standard library); a host side
// includes them again, a no-op behind their guards. Its own header, so
// that the build code that keeps the precompiled form (hip_build.cc) needs
// no NVRTC.
#ifndef ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_HOST_PCH_H_
#define ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_HOST_PCH_H_

namespace arena::hip2hip {

inline constexpr char kHostPchHeader[] =
    "// The HIP-on-CUDA layer's headers, precompiled for the host side of runtime compilation.\n"
    "#include <hip/hip_runtime.h>\n"
    "#include \"hip/nvidia_on_cuda/rtc_launch.h\"\n"
    "#include <hip/hip_fp16.h>\n"
    "#include <math.h>\n";

}  // namespace arena::hip2hip

#endif  // ARENA_PLUGINS_COMMON_HIP_BUILD_RTC_HOST_PCH_H_
