// `arena import kernelbench DIR --out TASKS/torch2hip/SUITE`: KernelBench
// problems (a Python file each: Model, get_inputs(), get_init_inputs(), the
// sizes as module-level integer constants) into PyTorch-to-HIP tasks that
// ship no HIP (files.starter: false: the agent writes kernel.hip from
// scratch; the problem's file, with an adapter, is the reference).
//
// Each file is planned by kernelbench_probe.py, run sandboxed (the
// problem's code runs there, not in the arena): its sizes, held-out sizes
// derived from them, the tensors' shapes from PyTorch's meta device, the
// small configuration run for real on the CPU. Files it cannot convert
// (a non-tensor input, an output of no tensor, a model the meta device
// cannot run) are listed with the reason.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/harness_worker.h"
#include "core/importer.h"
#include "core/process.h"
#include "core/sandbox.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kProbe[] = "plugins/torch2hip/importer/kernelbench_probe.py";

// A task folder name from a problem file: "19_ReLU.py" -> "19_relu",
// prefixed by its level's folder when it has one ("level1_19_relu").
std::string TaskName(const fs::path& source_root, const fs::path& file) {
  std::string name;
  const fs::path rel = file.lexically_relative(source_root);
  for (const auto& part : rel.parent_path()) name += part.string() + "_";
  name += file.stem().string();
  std::string out;
  for (char c : name) {
    out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  }
  return out;
}

class KernelBenchImporter : public TaskImporter {
 public:
  std::string Family() const override { return "torch2hip"; }

  Result<std::vector<ImportOutcome>> Import(const ImportOptions& options) const override {
    std::error_code ec;
    if (!fs::is_directory(options.source, ec)) return NotFound(options.source + ": not a folder");
    const fs::path probe = fs::path(options.project_root) / kProbe;
    if (!fs::is_regular_file(probe)) return NotFound("the KernelBench probe is missing: " + probe.string());
    if (std::string why = SandboxUnavailableReason(); !why.empty()) {
      return Unavailable("the problems' code runs only in the sandbox, which cannot run here: " + why);
    }
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(options.source, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".py" && it->path().filename() != "__init__.py") {
        files.push_back(it->path());
      }
    }
    if (ec) return Internal(options.source + ": " + ec.message());
    std::sort(files.begin(), files.end());
    const std::string python = HarnessPython(options.project_root);
    ARENA_ASSIGN_OR_RETURN(PythonInstall install, PythonInstallation(python));
    std::vector<ImportOutcome> outcomes;
    for (const auto& file : files) {
      ImportOutcome o;
      o.source = file.string();
      auto plan = Plan(options, probe, python, install, file);
      if (!plan.ok()) {
        o.refused = plan.status().message();
      } else if (plan->contains("refused")) {
        o.refused = (*plan)["refused"].get<std::string>();
      } else {
        ImportedTask task;
        task.name = TaskName(options.source, file);
        task.files["task.yaml"] = (*plan)["task_yaml"].get<std::string>();
        task.files["reference.py"] = (*plan)["reference_py"].get<std::string>();
        task.files["BUILD.bazel"] =
            "load(\"//tools/bazel:defs.bzl\", \"arena_task\")\n\narena_task(family = \"torch2hip\")\n";
        auto dir = WriteImportedTask(options, task);
        if (dir.ok()) {
          o.task_dir = *dir;
        } else {
          o.refused = dir.status().message();
        }
      }
      outcomes.push_back(std::move(o));
    }
    return outcomes;
  }

 private:
  // The probe's answer for one file, run in the sandbox: the problem's file
  // and the probe alone, read-only, the Python installation read-only, no
  // network, no GPU, a minute and 8 GiB at most.
  static Result<Json> Plan(const ImportOptions& options, const fs::path& probe, const std::string& python,
                           const PythonInstall& install, const fs::path& file) {
    const fs::path scratch = fs::temp_directory_path() / ScratchName("kernelbench");
    ARENA_RETURN_IF_ERROR(ResetDir(scratch.string()));
    struct Cleanup {
      fs::path dir;
      ~Cleanup() { RemoveTree(dir.string()).ok(); }
    } cleanup{scratch};
    ARENA_RETURN_IF_ERROR(CopyFile(probe.string(), (scratch / "probe.py").string()));
    ARENA_RETURN_IF_ERROR(CopyFile(file.string(), (scratch / file.filename()).string()));
    SandboxOptions sb;
    sb.workspace = scratch.string();
    sb.workspace_read_only = true;
    for (const auto& p : install.folders) sb.read_only.push_back({p, p});
    sb.env = {{"PYTHONNOUSERSITE", "1"}, {"PYTHONPATH", install.path}, {"CUDA_VISIBLE_DEVICES", ""}};
    sb.memory_bytes = 8ll << 30;
    std::string python_inside = python;
    if (python.find('/') != std::string::npos) python_inside = fs::absolute(python).string();
    ARENA_ASSIGN_OR_RETURN(
        ProcessOptions p,
        SandboxedProcess(sb, {python_inside, "-s", "-B", std::string(kSandboxWorkspace) + "/probe.py",
                              std::string(kSandboxWorkspace) + "/" + file.filename().string()}));
    p.timeout_s = 120;
    ARENA_ASSIGN_OR_RETURN(ProcessResult r, RunProcess(p));
    if (!r.success()) {
      std::string err = r.err.size() > 800 ? r.err.substr(r.err.size() - 800) : r.err;
      return Internal("the probe failed (" + r.Describe() + "): " + err);
    }
    Json plan = Json::parse(r.out, nullptr, false);
    if (plan.is_discarded() || !plan.is_object() ||
        !(plan.contains("refused") || (plan.contains("task_yaml") && plan.contains("reference_py")))) {
      return Internal("the probe's answer is not a plan: " + r.out.substr(0, 400));
    }
    return plan;
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_TASK_IMPORTER("kernelbench", arena::KernelBenchImporter);
