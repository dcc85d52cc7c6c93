// Whether a HIP task's CPU reference writes the same bytes on one OpenMP
// thread as on several. The judge may spread a reference over the
// machine's cores (ARENA_HIP_REFERENCE_THREADS), and no verdict may depend
// on how many it has: a loop spread over threads must not change any
// summation's order. The reference is built as the family builds it
// (g++ -fopenmp), and run on each of the task's configurations small
// enough for a test, with inputs drawn as the judge draws them on the
// host, on 1, 3 and 8 threads; the reference must also accept every one of
// those inputs. A reference with no OpenMP loop (libgomp not linked in) is
// serial whatever the judge asks: it is run once.
//
//   reference_threads TASKS_ROOT TASK_YAML INCLUDE_DIR WORK_DIR
//
// Exit 0 when every configuration run agrees (at least one must run), 1
// otherwise, with what differs on stderr.
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "core/expr.h"
#include "core/process.h"
#include "core/task.h"
#include "plugins/common/hip/include/arena_hip.h"
#include "plugins/common/hip/worker/tensors.h"
#include "plugins/hip2hip/reference_build.h"

namespace arena {
namespace {

namespace fs = std::filesystem;
using hip2hip::Doubles;
using hip2hip::HostTensor;

// Inputs and outputs of a configuration past this many elements are left
// to the GPU runs: the test stays within seconds on two cores.
constexpr int64_t kMaxElements = int64_t{1} << 22;
constexpr int kThreadCounts[] = {1, 3, 8};

using SetThreadsFn = void (*)(int);
using hip2hip::Numel;

// One configuration: "" when every thread count wrote the same bytes (or
// it was too large to run: `*ran` false), else what differs.
Result<std::string> CheckConfig(const TaskSpec& task, const Configuration& c, hip2hip::ReferenceFn reference,
                                SetThreadsFn set_threads, const std::vector<int>& thread_counts, bool* ran) {
  *ran = false;
  const ParameterValues& p = c.numeric;
  std::vector<std::vector<int64_t>> in_shapes, out_shapes;
  int64_t elements = 0;
  for (const auto& t : task.inputs) {
    ARENA_ASSIGN_OR_RETURN(auto shape, hip2hip::EvaluateShape(t.shape, p));
    elements += Numel(shape);
    in_shapes.push_back(shape);
  }
  for (const auto& t : task.outputs) {
    ARENA_ASSIGN_OR_RETURN(auto shape, hip2hip::EvaluateShape(t.shape, p));
    elements += Numel(shape);
    out_shapes.push_back(shape);
  }
  if (elements > kMaxElements) return std::string();
  *ran = true;
  std::vector<Doubles> wide;
  for (size_t i = 0; i < task.inputs.size(); ++i) {
    ARENA_ASSIGN_OR_RETURN(Json init, hip2hip::EvaluateInit(task.inputs[i].init, p));
    ARENA_ASSIGN_OR_RETURN(ArenaDtype dtype, hip2hip::ParseDtype(task.inputs[i].dtype));
    ARENA_ASSIGN_OR_RETURN(HostTensor x, hip2hip::DrawInput(dtype, in_shapes[i], init, 7919 * (i + 1)));
    wide.push_back(hip2hip::Widen(x));
  }
  const hip2hip::ConfigParams params(c.params);
  std::vector<std::vector<Doubles>> written;  // by thread count, then output
  std::vector<int> codes;
  for (int threads : thread_counts) {
    if (set_threads != nullptr) set_threads(threads);
    std::vector<Doubles> outs;
    codes.push_back(hip2hip::RunReference(reference, wide, in_shapes, out_shapes, params.args, &outs));
    written.push_back(std::move(outs));
  }
  if (codes[0] != 0) return "the reference rejected inputs drawn as the task says (returned " +
                            std::to_string(codes[0]) + ")";
  for (size_t k = 1; k < written.size(); ++k) {
    const std::string on = "on " + std::to_string(thread_counts[k]) + " threads";
    if (codes[k] != codes[0]) return on + " it returned " + std::to_string(codes[k]) + ", on one 0";
    for (size_t i = 0; i < written[k].size(); ++i) {
      const Doubles& a = written[0][i];
      const Doubles& b = written[k][i];
      if (a.size() != b.size() || (!a.empty() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) != 0)) {
        size_t at = 0;
        while (at < a.size() && std::memcmp(&a[at], &b[at], sizeof(double)) == 0) ++at;
        return "output '" + task.outputs[i].name + "' differs " + on + " from one thread's, first at element " +
               std::to_string(at);
      }
    }
  }
  return std::string();
}

int Main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: reference_threads TASKS_ROOT TASK_YAML INCLUDE_DIR WORK_DIR\n";
    return 2;
  }
  auto task = LoadTask(argv[1], argv[2]);
  if (!task.ok()) {
    std::cerr << task.status().message() << "\n";
    return 1;
  }
  const std::string source = (fs::path(task->dir) / task->family_json.value("reference", "reference.cpp")).string();
  const std::string library = (fs::absolute(argv[4]) / "reference.so").string();
  ProcessOptions build;
  build.argv = ReferenceBuildArgv(argv[3], source, library, /*openmp=*/true);
  build.timeout_s = 120;
  auto built = RunProcess(build);
  if (!built.ok() || !built->success()) {
    std::cerr << source << ": does not build with -fopenmp: "
              << (built.ok() ? built->Describe() + "\n" + built->err : built.status().message()) << "\n";
    return 1;
  }
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    std::cerr << library << ": " << dlerror() << "\n";
    return 1;
  }
  auto reference = reinterpret_cast<hip2hip::ReferenceFn>(dlsym(handle, "arena_reference"));
  auto set_threads = reinterpret_cast<SetThreadsFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  if (reference == nullptr) {
    std::cerr << source << ": no arena_reference\n";
    return 1;
  }
  std::vector<int> thread_counts = {1};
  if (set_threads != nullptr) thread_counts.assign(std::begin(kThreadCounts), std::end(kThreadCounts));
  const std::string same = set_threads != nullptr ? "the same bytes on 1, 3 and 8 threads"
                                                  : "ran (serial: no OpenMP loop in the reference)";
  int ran = 0, failed = 0;
  for (const Configuration& c : task->configs) {
    bool this_ran = false;
    auto verdict = CheckConfig(*task, c, reference, set_threads, thread_counts, &this_ran);
    const std::string where = task->yaml_path + ":" + std::to_string(c.line) + ": configuration " + c.name;
    if (!verdict.ok()) {
      std::cerr << where << ": " << verdict.status().message() << "\n";
      ++failed;
    } else if (!verdict->empty()) {
      std::cerr << where << ": " << *verdict << "\n";
      ++failed;
    } else {
      std::cout << where << ": " << (this_ran ? same : "skipped: too large here") << "\n";
    }
    ran += this_ran ? 1 : 0;
  }
  if (ran == 0) {
    std::cerr << task->yaml_path << ": no configuration has at most " << kMaxElements
              << " elements: nothing was run\n";
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace arena

int main(int argc, char** argv) { return arena::Main(argc, argv); }
