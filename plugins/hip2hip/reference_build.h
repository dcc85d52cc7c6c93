// How the hip2hip family builds a task's CPU reference (reference.cpp) into
// a shared library: g++ with OpenMP, or without where g++ has none (the
// family then builds it again so), the harness's C ABI on the include
// path. The family and each task's reference_threads test build it alike.
#ifndef ARENA_PLUGINS_HIP2HIP_REFERENCE_BUILD_H_
#define ARENA_PLUGINS_HIP2HIP_REFERENCE_BUILD_H_

#include <string>
#include <vector>

namespace arena {

inline std::vector<std::string> ReferenceBuildArgv(const std::string& include_dir, const std::string& source,
                                                   const std::string& library, bool openmp) {
  std::vector<std::string> argv = {"g++", "-std=c++17", "-O2", "-shared", "-fPIC"};
  if (openmp) argv.push_back("-fopenmp");
  for (const std::string& a : {"-I" + include_dir, source, std::string("-o"), library}) argv.push_back(a);
  return argv;
}

}  // namespace arena

#endif  // ARENA_PLUGINS_HIP2HIP_REFERENCE_BUILD_H_
