// Building a HIP translation unit the way the HIP families do: into a
// shared library for the NVIDIA target through the HIP-on-CUDA layer (nvcc),
// and for AMD gfx90a with hipcc where it is installed, so that a candidate
// stays portable. Compiler output goes verbatim into the stage's log.
//
//   HipBuildOptions o{.project_root = root, .work_dir = dir, .device = device};
//   StageOutcome s = BuildHip(o, "kernel.hip", "candidate", &library);
#ifndef ARENA_PLUGINS_HIP2HIP_BUILD_HIP_BUILD_H_
#define ARENA_PLUGINS_HIP2HIP_BUILD_HIP_BUILD_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/family.h"
#include "core/process.h"
#include "core/section.h"

namespace arena {

struct HipBuildOptions {
  std::string project_root;  // finds plugins/common/hip/{include,hip_on_cuda/include}
  std::string work_dir;      // where libraries are written
  DeviceInfo device;         // its arch when it is a CUDA device, else sm_90
  double timeout_s = 300;
  // The files of the source's folder the compilers may see (the task's
  // editable files). Set, the build runs in the sandbox (core/sandbox) on a
  // copy of these files alone: `#include "reference.cpp"` or an absolute
  // path into the project finds nothing. Empty: the folder as it is,
  // unsandboxed (harness code the arena trusts).
  std::vector<std::string> editable;
  // Built by nvcc even where runtime compilation is asked (ARENA_HIP_RTC=1):
  // the other subject of the evaluation was, and both are built the same
  // way, so that a candidate cannot choose the way it is built against the
  // baseline's.
  bool nvcc_only = false;
};

// nvcc (ARENA_NVCC, else /usr/local/cuda/bin/nvcc) and hipcc (ARENA_HIPCC,
// else /usr/bin/hipcc or /opt/rocm/bin/hipcc); empty when not found.
std::string FindNvcc();
std::string FindHipcc();

// Whether a build that runtime compilation was asked for went to nvcc
// because the split or a compiler refused the source (its `rtc` metric).
bool FellBackToNvcc(const StageOutcome& build);

// Builds `source` into work_dir/<name>.so for NVIDIA (the library a worker
// loads, in *library) and checks that it builds for AMD gfx90a. Metrics:
// nvidia_arch, nvidia_compile_s, amd, amd_compile_s.
StageOutcome BuildHip(const HipBuildOptions& options, const std::string& source,
                      const std::string& name, std::string* library);

// Runs a build command with the options' time limit, in work_dir, without
// network.
ProcessResult RunBuildStep(const HipBuildOptions& options, std::vector<std::string> argv);

// The include folder holding arena_hip.h.
std::string ArenaHipIncludeDir(const std::string& project_root);

// Finds a binary built next to the plugins: ROOT/<rel> or ROOT/bazel-bin/<rel>.
std::string FindBuiltBinary(const std::string& project_root, const std::string& rel);

// The task's editable HIP source (its first .hip file).
std::string HipSource(const TaskSpec& task);

// Checks what the HIP families share in task.yaml: the family's `section`
// has `reference`, one of the task's harness files ending in
// `reference_ext`, and the fields in `more` (the family's own), nothing
// else; the editable file is a .hip file. Returns the decoded section.
Result<Section> ValidateHipTask(const TaskSpec& task, const std::string& section,
                                const std::vector<FieldSpec>& more,
                                const std::string& reference_ext);

// The compilers' versions ({"nvcc": "...release 13.0, V13.0.88", "hipcc":
// "HIP version: ..."}, those found), asked once per process.
Json HipToolchain();

// The HIP kit's binary `name` ("hip_judge", "hip_runner") for `device`, a
// path under the project root: plugins/common/hip/<name>, or <name>_rocm
// (the same built against ROCm's HIP runtime) on an AMD GPU.
std::string KitBinary(const DeviceInfo& device, const std::string& name);

// The command line of a subject's runner (plugins/common/hip/hip_runner)
// for the judge: the runner in the sandbox (core/sandbox), on the context's
// GPU, seeing `lib` (copied into a folder of its own) and nothing else, as
// {"argv": [...]}; an empty `lib` gives an empty command (no subject).
// Without a sandbox, an error: code under test never runs outside one.
Result<Json> HipRunner(const EvaluationContext& ctx, const std::string& subject, const std::string& lib);

// All that a runner's sandbox holds of the system (SandboxOptions::
// libraries): the libraries `runner` loads (the C++ and CUDA runtimes),
// the driver (libcuda and the companions it opens), CUPTI, and what those
// load. No vendor library (cuBLAS, cuDNN, ...) and no compiler is there for
// a subject to call. Asked once per runner binary.
Result<std::vector<std::pair<std::string, std::string>>> HipRunnerLibraries(const std::string& runner);

// Starts the HIP judge (plugins/common/hip/hip_judge) on the context's
// device with a runner per subject in `libs` ({"baseline", "candidate"}:
// shared libraries, empty for a subject that did not build) and the CPU
// reference library `reference` (empty where the family sends trial data),
// and initialises it.
Result<std::unique_ptr<WorkerProcess>> StartHipWorker(const EvaluationContext& ctx,
                                                      const std::map<std::string, std::string>& libs,
                                                      const std::string& reference);

}  // namespace arena

#endif  // ARENA_PLUGINS_HIP2HIP_BUILD_HIP_BUILD_H_
