// Importers of PyTorch problems into PyTorch-to-HIP tasks that ship no HIP
// (files.starter: false: the agent writes kernel.hip from scratch; the
// problem's file, with an adapter, is the reference):
//
//   arena import kernelbench DIR --out TASKS/torch2hip/SUITE
//     KernelBench problems: a Python file each (Model, get_inputs(),
//     get_init_inputs(), the sizes as module-level integer constants).
//   arena import aka DIR --out TASKS/torch2hip/SUITE
//     AgentKernelArena task folders (config.yaml): those of task_type
//     torch2hip and hip2hip, from their PyTorch module
//     (pytorch_code_module/*.py: an nn.Module of any name, get_inputs()
//     yielding one input set per case). Their HIP is a PyTorch extension
//     (another ABI): it is not shipped. Other task types keep their inputs,
//     reference and checks in scripts of their own: listed, not converted.
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
#include <yaml-cpp/yaml.h>

#include "core/files.h"
#include "core/harness_worker.h"
#include "core/importer.h"
#include "core/process.h"
#include "core/sandbox.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr char kProbe[] = "plugins/torch2hip/importer/kernelbench_probe.py";

// A task folder name from a path under the source: "level1/19_ReLU.py" ->
// "level1_19_relu".
std::string TaskName(const fs::path& source_root, const fs::path& path) {
  std::string name;
  const fs::path rel = path.lexically_relative(source_root);
  for (const auto& part : rel.parent_path()) name += part.string() + "_";
  name += path.stem().string();
  std::string out;
  for (char c : name) {
    out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  }
  return out;
}

// The probe's answer for one file, run in the sandbox: the file and the
// probe alone, read-only, the Python installation read-only, no network, no
// GPU, two minutes and 8 GiB at most.
Result<Json> Plan(const ImportOptions& options, const fs::path& file, const std::vector<std::string>& flags) {
  const fs::path probe = fs::path(options.project_root) / kProbe;
  if (!fs::is_regular_file(probe)) return NotFound("the probe is missing: " + probe.string());
  const std::string python = HarnessPython(options.project_root);
  ARENA_ASSIGN_OR_RETURN(PythonInstall install, PythonInstallation(python));
  const fs::path scratch = fs::temp_directory_path() / ScratchName("import");
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
  std::vector<std::string> argv = {python_inside, "-s", "-B", std::string(kSandboxWorkspace) + "/probe.py"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back(std::string(kSandboxWorkspace) + "/" + file.filename().string());
  ARENA_ASSIGN_OR_RETURN(ProcessOptions p, SandboxedProcess(sb, argv));
  p.timeout_s = 120;
  ARENA_ASSIGN_OR_RETURN(ProcessResult r, RunProcess(p));
  if (!r.success()) {
    std::string err = r.err.size() > 800 ? r.err.substr(r.err.size() - 800) : r.err;
    return Internal("the probe failed (" + r.Describe() + "): " + err);
  }
  Json plan = Json::parse(r.out, nullptr, false);
  bool ok = !plan.is_discarded() && plan.is_object() &&
            ((plan.contains("refused") && plan["refused"].is_string()) ||
             (plan.contains("tasks") && plan["tasks"].is_array() && !plan["tasks"].empty()));
  for (const auto& t : ok && plan.contains("tasks") ? plan["tasks"] : Json::array()) {
    ok &= t.is_object() && t.value("suffix", Json()).is_string() && t.value("task_yaml", Json()).is_string() &&
          t.value("reference_py", Json()).is_string();
  }
  if (!ok) return Internal("the probe's answer is not a plan: " + r.out.substr(0, 400));
  return plan;
}

// One problem file planned and, if it converts, written as OUT/name (one
// task per rank of its inputs: OUT/name_1d, OUT/name_2d, ...).
std::vector<ImportOutcome> Convert(const ImportOptions& options, const fs::path& file, const std::string& name,
                                   const std::vector<std::string>& flags, const std::string& source) {
  ImportOutcome refused;
  refused.source = source;
  auto plan = Plan(options, file, flags);
  if (!plan.ok()) {
    refused.refused = plan.status().message();
    return {refused};
  }
  if (plan->contains("refused")) {
    refused.refused = (*plan)["refused"].get<std::string>();
    return {refused};
  }
  std::vector<ImportOutcome> outcomes;
  for (const auto& t : (*plan)["tasks"]) {
    ImportOutcome o;
    o.source = source;
    ImportedTask task;
    task.name = name + t["suffix"].get<std::string>();
    task.files["task.yaml"] = t["task_yaml"].get<std::string>();
    task.files["reference.py"] = t["reference_py"].get<std::string>();
    task.files["BUILD.bazel"] =
        "load(\"//tools/bazel:defs.bzl\", \"arena_task\")\n\narena_task(family = \"torch2hip\")\n";
    auto dir = WriteImportedTask(options, task);
    if (dir.ok()) {
      o.task_dir = *dir;
    } else {
      o.refused = dir.status().message();
    }
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

Status CheckSource(const ImportOptions& options) {
  std::error_code ec;
  if (!fs::is_directory(options.source, ec)) return NotFound(options.source + ": not a folder");
  if (std::string why = SandboxUnavailableReason(); !why.empty()) {
    return Unavailable("the problems' code runs only in the sandbox, which cannot run here: " + why);
  }
  return OkStatus();
}

// Every file under `dir` named `filename`, or with extension `ext`, sorted.
Result<std::vector<fs::path>> FilesUnder(const std::string& dir, const std::string& filename,
                                         const std::string& ext) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const fs::path& p = it->path();
    if ((!filename.empty() && p.filename() == filename) ||
        (!ext.empty() && p.extension() == ext && p.filename() != "__init__.py")) {
      files.push_back(p);
    }
  }
  if (ec) return Internal(dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

class KernelBenchImporter : public TaskImporter {
 public:
  std::string Family() const override { return "torch2hip"; }

  Result<std::vector<ImportOutcome>> Import(const ImportOptions& options) const override {
    ARENA_RETURN_IF_ERROR(CheckSource(options));
    ARENA_ASSIGN_OR_RETURN(std::vector<fs::path> files, FilesUnder(options.source, "", ".py"));
    std::vector<ImportOutcome> outcomes;
    for (const auto& file : files) {
      for (auto& o : Convert(options, file, TaskName(options.source, file), {}, file.string())) {
        outcomes.push_back(std::move(o));
      }
    }
    return outcomes;
  }
};

class AkaImporter : public TaskImporter {
 public:
  std::string Family() const override { return "torch2hip"; }

  Result<std::vector<ImportOutcome>> Import(const ImportOptions& options) const override {
    ARENA_RETURN_IF_ERROR(CheckSource(options));
    ARENA_ASSIGN_OR_RETURN(std::vector<fs::path> configs, FilesUnder(options.source, "config.yaml", ""));
    std::vector<ImportOutcome> outcomes;
    for (const auto& config : configs) {
      const fs::path dir = config.parent_path();
      ImportOutcome o;
      o.source = dir.string();
      std::string type;
      try {
        YAML::Node root = YAML::LoadFile(config.string());
        if (root.IsMap() && root["task_type"].IsScalar()) type = root["task_type"].Scalar();
      } catch (const YAML::Exception& e) {
        o.refused = config.string() + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg;
        outcomes.push_back(std::move(o));
        continue;
      }
      if (type != "torch2hip" && type != "hip2hip") {
        o.refused = "task_type '" + type + "': its inputs, reference and checks live in scripts of its own; "
                    "only torch2hip and hip2hip folders (a PyTorch module) convert";
        outcomes.push_back(std::move(o));
        continue;
      }
      auto modules = FilesUnder((dir / "pytorch_code_module").string(), "", ".py");
      if (!modules.ok() || modules->size() != 1) {
        o.refused = "expected one PyTorch module in pytorch_code_module/";
        outcomes.push_back(std::move(o));
        continue;
      }
      const fs::path rel = dir.lexically_relative(options.source);
      for (auto& out : Convert(options, modules->front(), TaskName(options.source, dir),
                               {"--aka", "--label=AgentKernelArena " + rel.generic_string()}, dir.string())) {
        outcomes.push_back(std::move(out));
      }
    }
    return outcomes;
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_TASK_IMPORTER("kernelbench", arena::KernelBenchImporter);
ARENA_REGISTER_TASK_IMPORTER("aka", arena::AkaImporter);
