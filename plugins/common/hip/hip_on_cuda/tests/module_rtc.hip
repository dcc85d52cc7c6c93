// hipRTC and the module API: compile HIP source at run time (options, an
// in-memory header, name expressions, errors and logs, cubin and PTX), then
// load it (from memory and from a file), find kernels and globals, launch
// with an argument array and with a packed argument buffer, and ask the
// occupancy of a module's kernel.
//
// The hipRTC checks need no device and run everywhere; loading and
// launching need one.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "hip_test_util.h"

namespace {

#if defined(__HIP_PLATFORM_NVIDIA__)
const char* const kFixedArch = "sm_90";  // for the checks that need no device
#else
const char* const kFixedArch = "gfx90a";
#endif

// HIP source as a program would carry it. Uses HIP's device names (through
// hipRTC's prelude on NVIDIA), an in-memory header and a template kernel.
const char* const kSource = R"src(
#include <hip/hip_runtime.h>
#include "rtc_params.h"

#if defined(__HIP_PLATFORM_NVIDIA__)
static_assert(warpSize == 32, "warpSize is a constant");
#endif

extern "C" __global__ void block_sum(const int* in, int* out, int n) {
  const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  int v = i < n ? in[i] * RTC_SCALE : 0;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  const unsigned long long everyone = __ballot(1);
  if (threadIdx.x % warpSize == 0 && everyone != 0) atomicAdd(out, v);
}

__device__ int rtc_counter;

extern "C" __global__ void bump(int amount) {
  if (threadIdx.x == 0) atomicAdd(&rtc_counter, amount);
}

extern "C" __global__ void axpb(float* out, float a, int n, double b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * static_cast<float>(i) + static_cast<float>(b);
}

template <typename T>
__global__ void fill(T* out, T value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
)src";

const char* const kHeaderName = "rtc_params.h";
const char* const kHeaderSource = "#define RTC_SCALE 3\n";

struct Compiled {
  hiprtcResult result = HIPRTC_ERROR_INTERNAL_ERROR;
  std::vector<char> code;
  std::string log;
  std::string lowered_fill;  // the mangled name of fill<float>
};

Compiled compile(const char* source, const std::vector<std::string>& options) {
  Compiled c;
  hiprtcProgram prog;
  const char* headers[] = {kHeaderSource};
  const char* names[] = {kHeaderName};
  c.result = hiprtcCreateProgram(&prog, source, "test_program.hip", 1, headers, names);
  if (c.result != HIPRTC_SUCCESS) return c;
  const bool has_fill = std::strstr(source, "fill(") != nullptr;
  if (has_fill) hiprtcAddNameExpression(prog, "fill<float>");
  std::vector<const char*> opts;
  for (const auto& o : options) opts.push_back(o.c_str());
  c.result = hiprtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  size_t log_size = 0;
  if (hiprtcGetProgramLogSize(prog, &log_size) == HIPRTC_SUCCESS && log_size > 0) {
    std::vector<char> log(log_size + 1, '\0');
    if (hiprtcGetProgramLog(prog, log.data()) == HIPRTC_SUCCESS) c.log = log.data();
  }
  if (c.result == HIPRTC_SUCCESS) {
    size_t size = 0;
    hiprtcResult r = hiprtcGetCodeSize(prog, &size);
    if (r == HIPRTC_SUCCESS) {
      c.code.resize(size);
      r = hiprtcGetCode(prog, c.code.data());
    }
    if (r == HIPRTC_SUCCESS && has_fill) {
      const char* lowered = nullptr;
      r = hiprtcGetLoweredName(prog, "fill<float>", &lowered);
      if (r == HIPRTC_SUCCESS && lowered != nullptr) c.lowered_fill = lowered;
    }
    c.result = r;
  }
  hiprtcDestroyProgram(&prog);
  return c;
}

bool compiled_ok(const Compiled& c) {
  if (c.result == HIPRTC_SUCCESS) return true;
  std::printf("  hipRTC: %s\n%s\n", hiprtcGetErrorString(c.result), c.log.c_str());
  return false;
}

// --- hipRTC: no device needed ------------------------------------------------

bool test_rtc_version() {
  const char* name = "hiprtcVersion";
  bool ok = true;
  int major = 0, minor = -1;
  HT_EXPECT(hiprtcVersion(&major, &minor) == HIPRTC_SUCCESS);
  std::printf("  hipRTC version %d.%d\n", major, minor);
  HT_EXPECT(major > 0 && minor >= 0);
  return hiptest::report(name, ok);
}

bool test_rtc_compile_binary() {
  const char* name = "hiprtcCompileProgram to a binary, with options and a name expression";
  bool ok = true;
  const Compiled c =
      compile(kSource, {std::string("--gpu-architecture=") + kFixedArch, "-O3", "-ffast-math"});
  HT_EXPECT(compiled_ok(c));
  HT_EXPECT(c.code.size() > 4);
  if (c.code.size() > 4) HT_EXPECT(std::memcmp(c.code.data(), "\x7f" "ELF", 4) == 0);
  HT_EXPECT(c.lowered_fill.compare(0, 2, "_Z") == 0);
  std::printf("  %zu bytes of code; fill<float> is %s\n", c.code.size(), c.lowered_fill.c_str());
  return hiptest::report(name, ok);
}

#if defined(__HIP_PLATFORM_NVIDIA__)
bool test_rtc_ptx() {
  const char* name = "hiprtcGetCode gives PTX for a virtual architecture (NVIDIA)";
  bool ok = true;
  const Compiled c = compile(kSource, {"--gpu-architecture=compute_90"});
  HT_EXPECT(compiled_ok(c));
  const std::string ptx(c.code.begin(), c.code.end());
  HT_EXPECT(ptx.find(".version") != std::string::npos);
  HT_EXPECT(ptx.find(".entry block_sum") != std::string::npos);
  HT_EXPECT(!c.code.empty() && c.code.back() == '\0');
  return hiptest::report(name, ok);
}
#endif

bool test_rtc_compile_error() {
  const char* name = "a compile error: HIPRTC_ERROR_COMPILATION, a log, hiprtcGetErrorString";
  bool ok = true;
  const Compiled c = compile("extern \"C\" __global__ void broken(int* x) { x[0] = undefined_name; }\n",
                             {std::string("--gpu-architecture=") + kFixedArch});
  HT_EXPECT(c.result == HIPRTC_ERROR_COMPILATION);
  HT_EXPECT(c.log.find("undefined_name") != std::string::npos);
  HT_EXPECT(std::strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") == 0);
  HT_EXPECT(std::strcmp(hiprtcGetErrorString(HIPRTC_SUCCESS), "HIPRTC_SUCCESS") == 0);
  return hiptest::report(name, ok);
}

bool test_rtc_half_header() {
  const char* name = "hipRTC programs can include hip/hip_fp16.h and hip/hip_bfloat16.h";
  bool ok = true;
  const char* source = R"src(
#include <hip/hip_fp16.h>
#include <hip/hip_bfloat16.h>
extern "C" __global__ void halve(__half* x, hip_bfloat16* y) {
  x[threadIdx.x] = __hmul(x[threadIdx.x], __float2half(0.5f));
  y[threadIdx.x] = y[threadIdx.x] * hip_bfloat16(0.5f);
}
)src";
  const Compiled c = compile(source, {std::string("--gpu-architecture=") + kFixedArch});
  HT_EXPECT(compiled_ok(c));
  return hiptest::report(name, ok);
}

// --- modules: device needed --------------------------------------------------

std::string device_arch() {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return std::string();
  return prop.gcnArchName;
}

bool test_module_launch_params() {
  const char* name = "hipModuleLoadData + hipModuleGetFunction + hipModuleLaunchKernel(params)";
  bool ok = true;
  const Compiled c = compile(kSource, {"--gpu-architecture=" + device_arch()});
  if (!compiled_ok(c)) return hiptest::report(name, false);
  hipModule_t module;
  HT_REQUIRE(hipModuleLoadData(&module, c.code.data()));
  hipFunction_t f;
  HT_REQUIRE(hipModuleGetFunction(&f, module, "block_sum"));
  hipFunction_t missing;
  HT_EXPECT(hipModuleGetFunction(&missing, module, "no_such_kernel") != hipSuccess);
  (void)hipGetLastError();
  const int n = 10000;
  std::vector<int> h(n);
  long long expect = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 31) % 101 - 50;
    expect += 3LL * h[i];
  }
  int *in = nullptr, *out = nullptr;
  HT_REQUIRE(hipMalloc(&in, n * sizeof(int)));
  HT_REQUIRE(hipMalloc(&out, sizeof(int)));
  HT_CALL(hipMemcpy(in, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HT_CALL(hipMemset(out, 0, sizeof(int)));
  int count = n;
  void* params[] = {&in, &out, &count};
  HT_CALL(hipModuleLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  int sum = 0;
  HT_CALL(hipMemcpy(&sum, out, sizeof(int), hipMemcpyDeviceToHost));
  std::printf("  sum %d, expected %lld\n", sum, expect);
  HT_EXPECT(sum == expect);
  HT_CALL(hipFree(in));
  HT_CALL(hipFree(out));
  HT_CALL(hipModuleUnload(module));
  return hiptest::report(name, ok);
}

bool test_module_extra_buffer() {
  const char* name = "hipModuleLaunchKernel with a packed argument buffer (extra)";
  bool ok = true;
  const Compiled c = compile(kSource, {"--gpu-architecture=" + device_arch()});
  if (!compiled_ok(c)) return hiptest::report(name, false);
  hipModule_t module;
  HT_REQUIRE(hipModuleLoadData(&module, c.code.data()));
  hipFunction_t f;
  HT_REQUIRE(hipModuleGetFunction(&f, module, "axpb"));
  const int n = 1000;
  float* out = nullptr;
  HT_REQUIRE(hipMalloc(&out, n * sizeof(float)));
  struct {
    float* out;
    float a;
    int n;
    double b;
  } args{out, 0.5f, n, 4.0};
  size_t args_size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                   HIP_LAUNCH_PARAM_END};
  HT_CALL(hipModuleLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
  std::vector<float> h(n);
  HT_CALL(hipMemcpy(h.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == 0.5f * i + 4.0f);
  HT_CALL(hipFree(out));
  HT_CALL(hipModuleUnload(module));
  return hiptest::report(name, ok);
}

bool test_module_global_and_lowered_name() {
  const char* name = "hipModuleGetGlobal, a template kernel by its lowered name, HtoD/DtoH";
  bool ok = true;
  const Compiled c = compile(kSource, {"--gpu-architecture=" + device_arch()});
  if (!compiled_ok(c)) return hiptest::report(name, false);
  hipModule_t module;
  HT_REQUIRE(hipModuleLoadData(&module, c.code.data()));
  hipDeviceptr_t counter = nullptr;
  size_t bytes = 0;
  HT_REQUIRE(hipModuleGetGlobal(&counter, &bytes, module, "rtc_counter"));
  HT_EXPECT(bytes == sizeof(int));
  int value = 0;
  HT_CALL(hipMemcpyHtoD(counter, &value, sizeof(int)));
  hipFunction_t bump;
  HT_REQUIRE(hipModuleGetFunction(&bump, module, "bump"));
  int amount = 5;
  void* params[] = {&amount};
  for (int i = 0; i < 3; ++i) {
    HT_CALL(hipModuleLaunchKernel(bump, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  }
  HT_CALL(hipMemcpyDtoH(&value, counter, sizeof(int)));
  HT_EXPECT(value == 15);
  hipFunction_t fill;
  HT_REQUIRE(hipModuleGetFunction(&fill, module, c.lowered_fill.c_str()));
  const int n = 100;
  float* out = nullptr;
  HT_REQUIRE(hipMalloc(&out, n * sizeof(float)));
  float v = 2.5f;
  int count = n;
  void* fill_params[] = {&out, &v, &count};
  HT_CALL(hipModuleLaunchKernel(fill, 1, 1, 1, 128, 1, 1, 0, nullptr, fill_params, nullptr));
  std::vector<float> h(n);
  HT_CALL(hipMemcpy(h.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == 2.5f);
  HT_CALL(hipFree(out));
  HT_CALL(hipModuleUnload(module));
  return hiptest::report(name, ok);
}

bool test_module_occupancy() {
  const char* name = "hipModuleOccupancyMaxPotentialBlockSize / MaxActiveBlocksPerMultiprocessor";
  bool ok = true;
  const Compiled c = compile(kSource, {"--gpu-architecture=" + device_arch()});
  if (!compiled_ok(c)) return hiptest::report(name, false);
  hipModule_t module;
  HT_REQUIRE(hipModuleLoadData(&module, c.code.data()));
  hipFunction_t f;
  HT_REQUIRE(hipModuleGetFunction(&f, module, "block_sum"));
  int grid = 0, block = 0, active = 0;
  HT_CALL(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0));
  HT_CALL(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&active, f, 256, 0));
  hipDeviceProp_t prop;
  HT_CALL(hipGetDeviceProperties(&prop, 0));
  std::printf("  block %d, grid %d, %d blocks of 256 per SM\n", block, grid, active);
  HT_EXPECT(block >= warpSize && block <= prop.maxThreadsPerBlock);
  HT_EXPECT(grid >= prop.multiProcessorCount);
  HT_EXPECT(active >= 1 && active * 256 <= prop.maxThreadsPerMultiProcessor);
  HT_CALL(hipModuleUnload(module));
  return hiptest::report(name, ok);
}

bool test_module_load_file() {
  const char* name = "hipModuleLoad from a file";
  bool ok = true;
  const Compiled c = compile(kSource, {"--gpu-architecture=" + device_arch()});
  if (!compiled_ok(c)) return hiptest::report(name, false);
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/hip_on_cuda_module_test.bin";
  {
    std::ofstream file(path, std::ios::binary);
    file.write(c.code.data(), static_cast<std::streamsize>(c.code.size()));
    HT_EXPECT(file.good());
  }
  hipModule_t module;
  HT_REQUIRE(hipModuleLoad(&module, path.c_str()));
  hipFunction_t f;
  HT_REQUIRE(hipModuleGetFunction(&f, module, "axpb"));
  const int n = 64;
  float* out = nullptr;
  HT_REQUIRE(hipMalloc(&out, n * sizeof(float)));
  float a = 2.0f;
  int count = n;
  double b = -1.0;
  void* params[] = {&out, &a, &count, &b};
  HT_CALL(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> h(n);
  HT_CALL(hipMemcpy(h.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == 2.0f * i - 1.0f);
  HT_CALL(hipFree(out));
  HT_CALL(hipModuleUnload(module));
  std::remove(path.c_str());
  return hiptest::report(name, ok);
}

#if defined(__HIP_PLATFORM_NVIDIA__)
bool test_module_ptx_jit() {
  const char* name = "hipModuleLoadData of PTX (compiled by the driver) runs (NVIDIA)";
  bool ok = true;
  hipDeviceProp_t prop;
  HT_REQUIRE(hipGetDeviceProperties(&prop, 0));
  const std::string arch = "compute_" + std::to_string(prop.major) + std::to_string(prop.minor);
  const Compiled c = compile(kSource, {"--gpu-architecture=" + arch});
  if (!compiled_ok(c)) return hiptest::report(name, false);
  hipModule_t module;
  HT_REQUIRE(hipModuleLoadData(&module, c.code.data()));
  hipFunction_t f;
  HT_REQUIRE(hipModuleGetFunction(&f, module, "axpb"));
  const int n = 32;
  float* out = nullptr;
  HT_REQUIRE(hipMalloc(&out, n * sizeof(float)));
  float a = 1.0f;
  int count = n;
  double b = 0.5;
  void* params[] = {&out, &a, &count, &b};
  HT_CALL(hipModuleLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> h(n);
  HT_CALL(hipMemcpy(h.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) HT_EXPECT(h[i] == i + 0.5f);
  HT_CALL(hipFree(out));
  HT_CALL(hipModuleUnload(module));
  return hiptest::report(name, ok);
}
#endif

}  // namespace

int main() {
  test_rtc_version();
  test_rtc_compile_binary();
#if defined(__HIP_PLATFORM_NVIDIA__)
  test_rtc_ptx();
#endif
  test_rtc_compile_error();
  test_rtc_half_header();
  if (!hiptest::gpu_available()) return hiptest::finish_without_gpu("module_rtc");
  test_module_launch_params();
  test_module_extra_buffer();
  test_module_global_and_lowered_name();
  test_module_occupancy();
  test_module_load_file();
#if defined(__HIP_PLATFORM_NVIDIA__)
  test_module_ptx_jit();
#endif
  return hiptest::finish("module_rtc");
}
