#include "plugins/hip2hip/build/hip_build.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "core/harness_worker.h"
#include "core/process.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

std::string FindTool(const char* env, const std::vector<std::string>& candidates) {
  if (const char* v = std::getenv(env); v != nullptr && *v) return v;
  for (const auto& c : candidates) {
    if (fs::exists(c)) return c;
  }
  return "";
}

}  // namespace

std::string FindNvcc() { return FindTool("ARENA_NVCC", {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"}); }
std::string FindHipcc() { return FindTool("ARENA_HIPCC", {"/usr/bin/hipcc", "/opt/rocm/bin/hipcc"}); }

std::string ArenaHipIncludeDir(const std::string& project_root) {
  return (fs::path(project_root) / "plugins/hip2hip/include").string();
}

std::string FindBuiltBinary(const std::string& project_root, const std::string& rel) {
  for (const std::string& prefix : {std::string(), std::string("bazel-bin/")}) {
    fs::path p = fs::path(project_root) / (prefix + rel);
    if (fs::exists(p)) return p.string();
  }
  return "";
}

ProcessResult RunBuildStep(const HipBuildOptions& options, std::vector<std::string> argv) {
  ProcessOptions o;
  o.argv = std::move(argv);
  o.timeout_s = options.timeout_s;
  o.cwd = options.work_dir;
  o.isolate_network = true;
  auto r = RunProcess(o);
  if (r.ok()) return *r;
  ProcessResult failed;
  failed.err = r.status().message();
  return failed;
}

StageOutcome BuildHip(const HipBuildOptions& options, const std::string& source,
                      const std::string& name, std::string* library) {
  const std::string include = ArenaHipIncludeDir(options.project_root);
  const std::string layer =
      (fs::path(options.project_root) / "plugins/hip2hip/hip_on_cuda/include").string();
  StageOutcome o = StageOutcome::Passed();
  const std::string nvcc = FindNvcc();
  if (nvcc.empty()) return StageOutcome::Failed("harness: nvcc not found (set ARENA_NVCC)");
  const std::string lib = (fs::path(options.work_dir) / (name + ".so")).string();
  const std::string arch = options.device.platform == "cuda" && !options.device.arch.empty()
                               ? options.device.arch
                               : "sm_90";
  // AMD first, in the background: the same source must build there too,
  // and the two compilers need not wait for each other.
  const std::string hipcc = FindHipcc();
  ProcessResult amd;
  std::thread amd_build;
  if (!hipcc.empty()) {
    amd_build = std::thread([&] {
      amd = RunBuildStep(options, {hipcc, "--offload-arch=gfx90a", "-std=c++17", "-O3", "-fPIC",
                                   "-shared", "-I" + include, source, "-o",
                                   (fs::path(options.work_dir) / (name + "_gfx90a.so")).string()});
    });
  }
  // -t 0: nvcc runs its host and device passes side by side (about 15%
  // faster for one translation unit).
  auto nv = RunBuildStep(options, {nvcc, "-x", "cu", "-std=c++17", "-O3", "-t", "0",
                                   "-arch=" + arch, "-shared", "-Xcompiler", "-fPIC", "-cudart",
                                   "shared", "-I" + layer, "-I" + include, source, "-o", lib});
  if (amd_build.joinable()) amd_build.join();
  o.metrics["nvidia_arch"] = arch;
  o.metrics["nvidia_compile_s"] = nv.wall_s;
  if (!nv.success()) {
    return StageOutcome::Failed("does not compile for NVIDIA " + arch + " (" + nv.Describe() + ")",
                                nv.out + nv.err);
  }
  if (hipcc.empty()) {
    o.metrics["amd"] = "not checked: hipcc not installed";
  } else {
    o.metrics["amd_compile_s"] = amd.wall_s;
    if (!amd.success()) {
      return StageOutcome::Failed("does not compile for AMD gfx90a (" + amd.Describe() + ")",
                                  amd.out + amd.err);
    }
    o.metrics["amd"] = "gfx90a";
  }
  *library = lib;
  o.detail = "built for NVIDIA " + arch + (hipcc.empty() ? "" : " and AMD gfx90a");
  return o;
}

std::string HipSource(const TaskSpec& task) {
  for (const auto& e : task.editable) {
    if (fs::path(e).extension() == ".hip") return e;
  }
  return task.editable.front();
}

Status ValidateHipTask(const TaskSpec& task, const std::string& section,
                       const std::vector<std::string>& keys, const std::string& reference_ext) {
  const YAML::Node& s = task.family_section;
  if (!s.IsDefined() || !s.IsMap() || !s["reference"].IsDefined()) {
    return InvalidArgument(task.yaml_path + ": " + section + ".reference: missing (the reference file)");
  }
  for (const auto& kv : s) {
    const std::string key = kv.first.Scalar();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      return FieldError(task.yaml_path, kv.first, section + "." + key, "unknown field");
    }
  }
  const std::string ref = s["reference"].Scalar();
  if (std::find(task.harness.begin(), task.harness.end(), ref) == task.harness.end()) {
    return FieldError(task.yaml_path, s["reference"], section + ".reference",
                      "'" + ref + "' must be one of the task's harness files");
  }
  if (fs::path(ref).extension() != reference_ext) {
    return FieldError(task.yaml_path, s["reference"], section + ".reference",
                      "expected a " + reference_ext + " file");
  }
  if (fs::path(HipSource(task)).extension() != ".hip") {
    return InvalidArgument(task.yaml_path + ": files.editable: a " + section +
                           " task edits a .hip file");
  }
  return OkStatus();
}

Result<std::unique_ptr<WorkerProcess>> StartHipWorker(const EvaluationContext& ctx, const Json& libs) {
  std::string bin = FindBuiltBinary(ctx.project_root, "plugins/hip2hip/hip2hip_worker");
  if (bin.empty()) return NotFound("hip2hip worker binary not found under " + ctx.project_root);
  ProcessOptions o;
  o.argv = {bin};
  o.cwd = ctx.work_dir;
  o.env["CUDA_VISIBLE_DEVICES"] = std::to_string(ctx.device.index);
  o.isolate_network = true;
  ARENA_ASSIGN_OR_RETURN(std::unique_ptr<WorkerProcess> worker, WorkerProcess::Start(o));
  Json init = {{"op", "init"}, {"task", ctx.task->ToJson()}, {"device_index", 0}, {"libs", libs}};
  ARENA_RETURN_IF_ERROR(InitializeWorker(*worker, init, 120, "hip worker"));
  return worker;
}

}  // namespace arena
