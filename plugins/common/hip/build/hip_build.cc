#include "plugins/common/hip/build/hip_build.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include <openssl/sha.h>

#include "core/env.h"
#include "core/files.h"
#include "core/harness_worker.h"
#include "core/process.h"
#include "core/sandbox.h"
#include "plugins/common/hip/build/rtc_host_pch.h"

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

// SHA-256 of a byte string, in hex.
std::string Sha256Hex(const std::string& bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : digest) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

// Every regular file below `dir`, by relative path, with its contents.
std::string TreeContents(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::string all;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    all += fs::relative(f, dir).generic_string() + '\0';
    all += std::string(std::istreambuf_iterator<char>(in), {}) + '\0';
  }
  return all;
}

// What `make` gives for `key` of `kind`, made once per process: the inputs
// of a build that do not change while the arena runs.
std::string OncePerProcess(const char* kind, const std::string& key, const std::function<std::string()>& make) {
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(mu);
  const std::string at = std::string(kind) + '\0' + key;
  auto it = known.find(at);
  if (it != known.end()) return it->second;
  return known[at] = make();
}

// The digest of a folder of headers (the HIP layer, arena_hip.h).
std::string HeaderDigest(const std::string& dir) {
  return OncePerProcess("headers", dir, [&] { return Sha256Hex(TreeContents(dir)); });
}

// A compiler's identity: its path and what --version says.
std::string CompilerIdentity(const HipBuildOptions& options, const std::string& compiler) {
  return OncePerProcess("compiler", compiler, [&] {
    ProcessResult r = RunBuildStep(options, {compiler, "--version"});
    return compiler + '\0' + r.out + r.err;
  });
}

// A file's digest (the runtime build tool).
std::string FileDigest(const std::string& path) {
  return OncePerProcess("file", path, [&] {
    auto text = ReadFile(path);
    return text.ok() ? Sha256Hex(*text) : std::string();
  });
}

// Where built libraries are kept, keyed by everything that went into them:
// $ARENA_HIP_CACHE ("off" disables), else the user's cache folder.
std::string CacheDir() { return UserCacheDir("ARENA_HIP_CACHE", "hip"); }

// Copies `from` to `to` through a temporary file and a rename.
bool CopyAtomically(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  const fs::path tmp = to.string() + ".tmp." + std::to_string(::getpid());
  fs::copy_file(from, tmp, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::rename(tmp, to, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

}  // namespace

std::string FindNvcc() { return FindTool("ARENA_NVCC", {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"}); }
std::string FindHipcc() { return FindTool("ARENA_HIPCC", {"/usr/bin/hipcc", "/opt/rocm/bin/hipcc"}); }

std::string ArenaHipIncludeDir(const std::string& project_root) {
  return (fs::path(project_root) / "plugins/common/hip/include").string();
}

std::string FindBuiltBinary(const std::string& project_root, const std::string& rel) {
  for (const std::string& prefix : {std::string(), std::string("bazel-bin/")}) {
    fs::path p = fs::path(project_root) / (prefix + rel);
    if (fs::exists(p)) return p.string();
  }
  return "";
}

namespace {

// Runs one build command; a command that cannot even start is a result
// saying why (the build's failure, with its message in the log).
ProcessResult RunStep(const ProcessOptions& o) {
  auto r = RunProcess(o);
  if (r.ok()) return *r;
  ProcessResult failed;
  failed.err = r.status().message();
  return failed;
}

}  // namespace

ProcessResult RunBuildStep(const HipBuildOptions& options, std::vector<std::string> argv) {
  ProcessOptions o;
  o.argv = std::move(argv);
  o.timeout_s = options.timeout_s;
  o.cwd = options.work_dir;
  o.isolate_network = true;
  return RunStep(o);
}

namespace {

constexpr char kSandboxInclude[] = "/opt/arena/include";
constexpr char kSandboxLayer[] = "/opt/arena/hip_on_cuda";

// A build command run in the sandbox, on `stage` (bound read-write at
// kSandboxWorkspace) and the two include folders (read-only).
ProcessResult RunSandboxedBuildStep(const HipBuildOptions& options, const std::string& stage,
                                    const std::string& include, const std::string& layer,
                                    std::vector<std::string> argv,
                                    const std::vector<std::string>& also_read_only = {}) {
  SandboxOptions sb;
  sb.workspace = stage;
  sb.read_only = {{include, kSandboxInclude}, {layer, kSandboxLayer}};
  for (const auto& path : also_read_only) sb.read_only.push_back({path, path});
  // A compiler installed outside /usr (ARENA_NVCC=/opt/cuda/bin/nvcc, say):
  // its installation, read-only, at the same path.
  std::error_code ec;
  const fs::path compiler = fs::canonical(argv.front(), ec);
  if (!ec && compiler.string().rfind("/usr/", 0) != 0) {
    const std::string install = compiler.parent_path().parent_path().string();
    sb.read_only.push_back({install, install});
  }
  auto p = SandboxedProcess(sb, argv);
  if (!p.ok()) {
    ProcessResult failed;
    failed.err = p.status().message();
    return failed;
  }
  p->timeout_s = options.timeout_s;
  return RunStep(*p);
}

// Runtime compilation, the default on NVIDIA (ARENA_HIP_RTC=0 turns it
// off): build/hip_rtc_build splits the source, NVRTC builds its device side
// and g++ its host side; what the split refuses is built by nvcc.
bool RuntimeCompilationAsked() {
  return SwitchOn("ARENA_HIP_RTC");
}

constexpr char kFellBack[] = "fell back to nvcc: ";

// The host side's precompiled header for runtime compilation
// (rtc_compile.h), kept in the build cache (`cache`) beside the libraries:
// made once per set of headers, g++ and build tool by `rtc_tool --pch`, in
// the build sandbox when `sandboxed`, from the project's headers alone (no
// subject's file is in it), and only ever read by the builds that use it.
// Returns the header's path (its .gch beside it), or "" where there is none
// to use (no cache, or making it failed: the host side then parses the
// headers as text, slower but the same build).
std::string HostPch(const HipBuildOptions& options, const std::string& cache, const std::string& rtc_tool,
                    const std::string& include, const std::string& layer, const std::string& cuda,
                    bool sandboxed) {
  if (cache.empty()) return "";
  const std::string key = Sha256Hex(FileDigest(rtc_tool) + '\0' + CompilerIdentity(options, "g++") + '\0' +
                                    HeaderDigest(layer) + HeaderDigest(include) + cuda + '\0' +
                                    hip2hip::kHostPchHeader);
  const fs::path dir = fs::path(cache) / ("rtc-pch-" + key);
  const fs::path header = dir / "arena_rtc_host.h";
  const fs::path gch = dir / "arena_rtc_host.h.gch";
  std::error_code ec;
  // The header is stored last: one without its .gch beside it is never taken.
  if (fs::is_regular_file(header, ec) && fs::is_regular_file(gch, ec)) return header.string();
  const std::string stage = (fs::path(options.work_dir) / "build-pch").string();
  if (!ResetDir(stage).ok()) return "";
  ProcessResult made =
      sandboxed ? RunSandboxedBuildStep(options, stage, include, layer,
                                        {rtc_tool, "--pch", kSandboxWorkspace, kSandboxLayer, kSandboxInclude, cuda},
                                        {fs::path(rtc_tool).parent_path().string(), cuda})
                : RunBuildStep(options, {rtc_tool, "--pch", stage, layer, include, cuda});
  const fs::path built = fs::path(stage) / "arena_rtc_host.h";
  const bool kept = made.success() && CopyAtomically(built.string() + ".gch", gch) && CopyAtomically(built, header);
  fs::remove_all(stage, ec);
  if (kept) {
    // Entries of other headers, compilers or tools (about 27 MB each), not
    // made in the last day, go: what an older version of the arena that
    // still runs here needs, it makes again.
    const auto day_ago = fs::file_time_type::clock::now() - std::chrono::hours(24);
    for (fs::directory_iterator it(cache, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path other = it->path();
      if (other == dir || other.filename().string().rfind("rtc-pch-", 0) != 0) continue;
      std::error_code age;
      const auto made_at = fs::last_write_time(other / "arena_rtc_host.h.gch", age);
      if (age || made_at < day_ago) {
        std::error_code gone;
        fs::remove_all(other, gone);
      }
    }
  }
  return kept ? header.string() : "";
}

// The files a runtime-compiled library loads beside it (NAME.cubin and
// NAME.names for NAME.so).
std::vector<std::string> SideFiles(const std::string& library) {
  const std::string base = library.substr(0, library.size() - 3);
  return {base + ".cubin", base + ".names"};
}

}  // namespace

bool FellBackToNvcc(const StageOutcome& build) {
  return build.metrics.value("rtc", "").rfind(kFellBack, 0) == 0;
}

namespace {

// A compiler's failure as the stage's verdict: the target it was for, how
// it ended, and what it printed.
StageOutcome DoesNotCompile(const std::string& target, const ProcessResult& r) {
  return StageOutcome::Failed("does not compile for " + target + " (" + r.Describe() + ")", r.out + r.err);
}

// The end of a build for an AMD GPU (`o`, its metrics so far): hipcc's
// library is the one loaded (copied to `lib`); nvcc's, where `nv_arch`
// names one, only had to build.
StageOutcome FinishAmdBuild(StageOutcome o, const HipBuildOptions& options, const std::string& stage,
                            const std::string& amd_name, const std::string& amd_arch, const ProcessResult& nv,
                            const std::string& nv_arch, const ProcessResult& amd, const std::string& lib,
                            std::string* library) {
  o.metrics["amd"] = amd_arch;
  o.metrics["amd_compile_s"] = amd.wall_s;
  if (!amd.success()) {
    return DoesNotCompile("AMD " + amd_arch, amd);
  }
  if (nv_arch.empty()) {
    o.metrics["nvidia_arch"] = "not checked: nvcc not installed";
  } else {
    o.metrics["nvidia_arch"] = nv_arch;
    o.metrics["nvidia_compile_s"] = nv.wall_s;
    if (!nv.success()) {
      return DoesNotCompile("NVIDIA " + nv_arch, nv);
    }
  }
  const fs::path built = fs::path(stage.empty() ? options.work_dir : stage) / amd_name;
  std::error_code ec;
  if (built != fs::path(lib)) fs::copy_file(built, lib, fs::copy_options::overwrite_existing, ec);
  if (ec) return StageOutcome::Failed("harness: " + lib + ": " + ec.message());
  *library = lib;
  o.detail = "built for AMD " + amd_arch + (nv_arch.empty() ? "" : " and NVIDIA " + nv_arch);
  return o;
}

}  // namespace

StageOutcome BuildHip(const HipBuildOptions& options, const std::string& source_path,
                      const std::string& name, std::string* library) {
  std::string include = ArenaHipIncludeDir(options.project_root);
  std::string layer =
      (fs::path(options.project_root) / "plugins/common/hip/hip_on_cuda/include").string();
  // Untrusted source: a copy of the editable files alone, built sandboxed.
  const bool sandboxed = !options.editable.empty();
  std::string source = source_path;
  std::string stage;
  if (sandboxed) {
    if (std::string why = SandboxUnavailableReason(); !why.empty()) {
      return StageOutcome::Failed("harness: the build sandbox cannot run here: " + why);
    }
    stage = (fs::path(options.work_dir) / ("build-" + name)).string();
    std::error_code ec;
    Status reset = ResetDir(stage);
    if (!reset.ok()) return StageOutcome::Failed("harness: " + reset.message());
    auto missing = CopyRegularFiles(fs::path(source_path).parent_path().string(), options.editable, stage);
    if (!missing.ok()) return StageOutcome::Failed("harness: " + missing.status().message());
    if (!missing->empty()) return StageOutcome::Failed(missing->front() + " is missing or not a regular file");
    source = (fs::path(stage) / fs::path(source_path).filename()).string();
    // The headers as real files: a Bazel runfiles tree is links that point
    // outside the sandbox.
    const fs::path headers = fs::path(options.work_dir) / "build-headers";
    if (!fs::is_directory(headers / "include", ec) || !fs::is_directory(headers / "hip_on_cuda", ec)) {
      fs::remove_all(headers, ec);
      Status copied = CopyTree(include, (headers / "include").string());
      if (copied.ok()) copied = CopyTree(layer, (headers / "hip_on_cuda").string());
      if (!copied.ok()) return StageOutcome::Failed("harness: " + copied.message());
    }
    include = (headers / "include").string();
    layer = (headers / "hip_on_cuda").string();
  }
  // Paths as the compilers see them.
  const std::string in_include = sandboxed ? kSandboxInclude : include;
  const std::string in_layer = sandboxed ? kSandboxLayer : layer;
  const std::string in_source =
      sandboxed ? std::string(kSandboxWorkspace) + "/" + fs::path(source).filename().string() : source;
  auto run_step = [&](std::vector<std::string> argv) {
    return sandboxed ? RunSandboxedBuildStep(options, stage, include, layer, std::move(argv))
                     : RunBuildStep(options, std::move(argv));
  };
  StageOutcome o = StageOutcome::Passed();
  // On an AMD GPU the library loaded is hipcc's for that GPU, and nvcc
  // checks portability where it is installed; elsewhere the library is
  // nvcc's (or NVRTC's) and hipcc checks the build for gfx90a.
  const bool on_amd = options.device.platform == "rocm";
  const std::string amd_arch = on_amd && !options.device.arch.empty() ? options.device.arch : "gfx90a";
  const std::string nvcc = FindNvcc();
  const std::string hipcc = FindHipcc();
  if (nvcc.empty() && !on_amd) return StageOutcome::Failed("harness: nvcc not found (set ARENA_NVCC)");
  if (hipcc.empty() && on_amd) return StageOutcome::Failed("harness: hipcc not found (set ARENA_HIPCC)");
  const std::string lib = (fs::path(options.work_dir) / (name + ".so")).string();
  // Files of an earlier runtime-compiled build of this name are never
  // taken for this one's.
  for (const auto& side : SideFiles(lib)) {
    std::error_code ec;
    fs::remove(side, ec);
  }
  const std::string arch = options.device.platform == "cuda" && !options.device.arch.empty()
                               ? options.device.arch
                               : "sm_90";
  const std::vector<std::string> nv_flags = {"-x", "cu", "-std=c++17", "-O3", "-t", "0",
                                             "-arch=" + arch, "-shared", "-Xcompiler", "-fPIC",
                                             "-cudart", "shared"};
  const bool rtc_asked = RuntimeCompilationAsked();
  std::string rtc_tool;  // hip_rtc_build, where runtime compilation is on
  if (rtc_asked && !options.nvcc_only && !on_amd) {
    std::error_code ec;
    const std::string tool = FindBuiltBinary(options.project_root, "plugins/common/hip/hip_rtc_build");
    if (!tool.empty()) rtc_tool = fs::canonical(tool, ec).string();
    if (rtc_tool.empty()) o.metrics["rtc"] = "not used: hip_rtc_build not found";
  }
  const bool rtc = !rtc_tool.empty();
  // The cache key: the compilers, the flags, the source's folder (the
  // editable files it may include), and the headers it is built against;
  // for a runtime-compiled build also the build tool and g++.
  const std::string cache = CacheDir();
  std::string key;
  if (!cache.empty() && !on_amd) {
    std::string what = CompilerIdentity(options, nvcc) + '\0';
    if (rtc) {
      what += std::string("rtc") + '\0' + FileDigest(rtc_tool) + '\0' + CompilerIdentity(options, "g++") + '\0';
    }
    if (!hipcc.empty()) what += CompilerIdentity(options, hipcc) + '\0';
    for (const auto& f : nv_flags) what += f + '\0';
    what += fs::path(source).filename().string() + '\0' + TreeContents(fs::path(source).parent_path());
    what += HeaderDigest(layer) + HeaderDigest(include);
    key = Sha256Hex(what);
  }
  // Not cached on an AMD GPU (the key names nvcc's flags). A runtime-compiled
  // entry is three files: its module and kernel names, then the library,
  // stored last and taken only with both beside it.
  const fs::path cached = key.empty() ? fs::path() : fs::path(cache) / (key + ".so");
  const fs::path amd_ok = key.empty() ? fs::path() : fs::path(cache) / (key + ".gfx90a-ok");
  const std::vector<std::string> cached_sides = rtc && !cached.empty() ? SideFiles(cached.string())
                                                                       : std::vector<std::string>{};
  auto take_cached = [&] {
    if (cached.empty() || !fs::is_regular_file(cached) || (!hipcc.empty() && !fs::is_regular_file(amd_ok))) {
      return false;
    }
    const auto sides = SideFiles(lib);
    for (size_t i = 0; i < cached_sides.size(); ++i) {
      if (!fs::is_regular_file(cached_sides[i]) || !CopyAtomically(cached_sides[i], sides[i])) return false;
    }
    return CopyAtomically(cached, lib);
  };
  if (take_cached()) {
    // Built before from exactly these inputs (the baseline of every
    // evaluation; a candidate checked through ./feedback, then evaluated).
    o.metrics["nvidia_arch"] = arch;
    o.metrics["cache"] = "hit";
    if (rtc) o.metrics["rtc"] = "nvrtc+g++";
    o.metrics["amd"] = hipcc.empty() ? "not checked: hipcc not installed" : "gfx90a";
    *library = lib;
    o.detail = "built for NVIDIA " + arch + (rtc ? " (NVRTC and g++)" : "") +
               (hipcc.empty() ? "" : " and AMD gfx90a") + " (cached: same source, headers and compilers)";
    return o;
  }
  for (const auto& side : SideFiles(lib)) {  // a partial copy of an entry
    std::error_code ec;
    fs::remove(side, ec);
  }
  // Outputs: in the stage when sandboxed (the only folder it may write),
  // moved out after.
  const std::string amd_name = name + "_" + amd_arch + ".so";
  const std::string amd_out = sandboxed ? std::string(kSandboxWorkspace) + "/" + amd_name
                                        : (fs::path(options.work_dir) / amd_name).string();
  const std::string nv_out = sandboxed ? std::string(kSandboxWorkspace) + "/" + name + ".so" : lib;
  // AMD first, in the background: the same source must build there too,
  // and the two compilers need not wait for each other.
  ProcessResult amd;
  std::thread amd_build;
  if (!hipcc.empty()) {
    amd_build = std::thread([&] {
      amd = run_step({hipcc, "--offload-arch=" + amd_arch, "-std=c++17", "-O3", "-fPIC", "-shared",
                      "-I" + in_include, in_source, "-o", amd_out});
    });
  }
  ProcessResult nv;
  bool built = false;
  if (rtc_asked && options.nvcc_only && !on_amd) {
    o.metrics["rtc"] =
        "not used: the other subject was built by nvcc (both are built the same way)";
  }
  if (rtc) {
    // NVRTC and g++ on the split source; what the split refuses, or a
    // compiler rejects, goes to nvcc below, saying why.
    std::error_code ec;
    const std::string cuda = fs::canonical(nvcc, ec).parent_path().parent_path().string();
    const std::string out_dir = sandboxed ? std::string(kSandboxWorkspace) : options.work_dir;
    std::vector<std::string> rtc_argv = {rtc_tool, in_source, out_dir, name, arch, in_layer,
                                         in_include, cuda};
    std::vector<std::string> read_only = {fs::path(rtc_tool).parent_path().string(), cuda};
    const std::string pch = HostPch(options, cache, rtc_tool, include, layer, cuda, sandboxed);
    if (!pch.empty()) {
      rtc_argv.push_back(pch);
      read_only.push_back(fs::path(pch).parent_path().string());
      o.metrics["rtc_host_pch"] = true;
    }
    nv = sandboxed ? RunSandboxedBuildStep(options, stage, include, layer, rtc_argv, read_only)
                   : RunBuildStep(options, rtc_argv);
    if (nv.success()) {
      built = true;
      o.metrics["rtc"] = "nvrtc+g++";
      if (sandboxed) {
        for (const char* ext : {".so", ".cubin", ".names"}) {
          fs::copy_file(fs::path(stage) / (name + ext), fs::path(options.work_dir) / (name + ext),
                        fs::copy_options::overwrite_existing, ec);
          if (ec) return StageOutcome::Failed("harness: " + name + ext + ": " + ec.message());
        }
      }
    } else {
      const std::string why = nv.err.substr(0, nv.err.find('\n'));
      o.metrics["rtc"] = kFellBack + (why.empty() ? nv.Describe() : why);
      for (const auto& side : SideFiles(lib)) fs::remove(side, ec);
    }
  }
  if (!built && !nvcc.empty()) {
    // -t 0: nvcc runs its host and device passes side by side (about 15%
    // faster for one translation unit).
    std::vector<std::string> argv = {nvcc};
    argv.insert(argv.end(), nv_flags.begin(), nv_flags.end());
    argv.insert(argv.end(), {"-I" + in_layer, "-I" + in_include, in_source, "-o", nv_out});
    nv = run_step(argv);
  }
  if (amd_build.joinable()) amd_build.join();
  if (on_amd) {
    return FinishAmdBuild(std::move(o), options, stage, amd_name, amd_arch, nv, nvcc.empty() ? "" : arch, amd,
                          lib, library);
  }
  if (sandboxed && nv.success() && !built) {
    std::error_code ec;
    fs::copy_file(fs::path(stage) / (name + ".so"), lib, fs::copy_options::overwrite_existing, ec);
    if (ec) return StageOutcome::Failed("harness: " + lib + ": " + ec.message());
  }
  o.metrics["nvidia_arch"] = arch;
  o.metrics["nvidia_compile_s"] = nv.wall_s;
  if (!nv.success()) {
    return DoesNotCompile("NVIDIA " + arch, nv);
  }
  if (hipcc.empty()) {
    o.metrics["amd"] = "not checked: hipcc not installed";
  } else {
    o.metrics["amd_compile_s"] = amd.wall_s;
    if (!amd.success()) {
      return DoesNotCompile("AMD gfx90a", amd);
    }
    o.metrics["amd"] = "gfx90a";
  }
  // A build that fell back to nvcc under runtime compilation is not kept:
  // its entry would be taken later without saying it fell back.
  if (!cached.empty() && (!rtc || built)) {
    o.metrics["cache"] = "miss";
    if (!hipcc.empty()) {
      std::error_code ec;
      fs::create_directories(cache, ec);
      std::ofstream(amd_ok) << "built for gfx90a\n";
    }
    const auto sides = SideFiles(lib);
    bool sides_kept = true;
    for (size_t i = 0; i < cached_sides.size() && sides_kept; ++i) {
      sides_kept = CopyAtomically(sides[i], cached_sides[i]);
    }
    if (sides_kept) CopyAtomically(lib, cached);  // the markers first: a library alone is never taken
  }
  *library = lib;
  o.detail = "built for NVIDIA " + arch + (built ? " (NVRTC and g++)" : "") +
             (hipcc.empty() ? "" : " and AMD gfx90a");
  return o;
}

std::string HipSource(const TaskSpec& task) {
  for (const auto& e : task.editable) {
    if (fs::path(e).extension() == ".hip") return e;
  }
  return task.editable.front();
}

Result<Section> ValidateHipTask(const TaskSpec& task, const std::string& section,
                                const std::vector<FieldSpec>& more,
                                const std::string& reference_ext) {
  SectionSchema schema{section, {{"reference", FieldType::kString, /*required=*/true}}};
  schema.fields.insert(schema.fields.end(), more.begin(), more.end());
  ARENA_ASSIGN_OR_RETURN(Section s, DecodeSection(task, schema));
  const std::string ref = s.String("reference");
  if (std::find(task.harness.begin(), task.harness.end(), ref) == task.harness.end()) {
    return s.Error("reference", "'" + ref + "' must be one of the task's harness files");
  }
  if (fs::path(ref).extension() != reference_ext) {
    return s.Error("reference", "expected a " + reference_ext + " file");
  }
  if (fs::path(HipSource(task)).extension() != ".hip") {
    return InvalidArgument(task.yaml_path + ": files.editable: a " + section +
                           " task edits a .hip file");
  }
  return s;
}

Json HipToolchain() {
  static const Json cached = [] {
    Json j = Json::object();
    // The line of `compiler --version` that holds `key`.
    auto version = [](const std::string& compiler, const std::string& key) -> std::string {
      if (compiler.empty()) return "";
      ProcessOptions o;
      o.argv = {compiler, "--version"};
      o.timeout_s = 60;
      auto r = RunProcess(o);
      if (!r.ok()) return "";
      std::istringstream lines(r->out + "\n" + r->err);
      for (std::string line; std::getline(lines, line);) {
        if (line.find(key) != std::string::npos) return line;
      }
      return "";
    };
    if (std::string v = version(FindNvcc(), "release"); !v.empty()) j["nvcc"] = v;
    if (std::string v = version(FindHipcc(), "HIP version"); !v.empty()) j["hipcc"] = v;
    return j;
  }();
  return cached;
}

namespace {

// The file ldconfig's cache (or a usual folder) has for `soname`, or "".
std::string FindSystemLibrary(const std::string& soname) {
  for (const char* ldconfig : {"/sbin/ldconfig", "/usr/sbin/ldconfig"}) {
    if (!fs::exists(ldconfig)) continue;
    ProcessOptions p;
    p.argv = {ldconfig, "-p"};
    p.timeout_s = 30;
    auto r = RunProcess(p);
    if (!r.ok() || !r->success()) continue;
    std::istringstream lines(r->out);
    for (std::string line; std::getline(lines, line);) {
      // "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1"
      std::istringstream words(line);
      std::string name, abi, arrow, path;
      words >> name >> abi >> arrow >> path;
      if (name == soname && abi.find("x86-64") != std::string::npos && fs::exists(path)) return path;
    }
  }
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/nvidia/lib64", "/usr/lib/wsl/lib"}) {
    const fs::path f = fs::path(dir) / soname;
    if (fs::exists(f)) return f.string();
  }
  return "";
}

}  // namespace

std::string KitBinary(const DeviceInfo& device, const std::string& name) {
  return "plugins/common/hip/" + name + (device.platform == "rocm" ? "_rocm" : "");
}

Result<std::vector<std::pair<std::string, std::string>>> HipRunnerLibraries(const std::string& runner) {
  static std::mutex mu;
  static std::map<std::string, std::vector<std::pair<std::string, std::string>>> known;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = known.find(runner); it != known.end()) return it->second;
  // Libraries the runner does not link but the driver or the runner opens
  // at run time, and their own dependencies, join the runner's closure.
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> extra;
  auto add_from = [&](const fs::path& dir, const std::vector<std::string>& prefixes) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      for (const auto& prefix : prefixes) {
        if (name.rfind(prefix, 0) == 0 && e.is_regular_file(ec)) {
          extra.emplace_back(e.path().string(), name);
          files.push_back(e.path().string());
        }
      }
    }
  };
  // The driver, and the companions it opens itself (the PTX JIT).
  if (std::string cuda = FindSystemLibrary("libcuda.so.1"); !cuda.empty()) {
    add_from(fs::path(cuda).parent_path(),
             {"libcuda.so", "libnvidia-ptxjitcompiler.so", "libnvidia-nvvm.so", "libnvidia-gpucomp.so"});
  }
  ARENA_ASSIGN_OR_RETURN(auto libs, SharedLibraryClosure({runner}));
  // The code-object manager ROCm's HIP runtime opens itself.
  for (const auto& [path, name] : libs) {
    if (name.rfind("libamdhip64.so", 0) == 0) add_from(fs::path(path).parent_path(), {"libamd_comgr.so"});
  }
  // CUPTI, beside the runtime the runner loads (or in the toolkit's extras).
  for (const auto& [path, name] : libs) {
    if (name.rfind("libcudart.so", 0) != 0) continue;
    const fs::path dir = fs::path(path).parent_path();
    add_from(dir, {"libcupti.so"});
    add_from(dir / ".." / "extras" / "CUPTI" / "lib64", {"libcupti.so"});
  }
  ARENA_ASSIGN_OR_RETURN(auto more, SharedLibraryClosure(files));
  std::set<std::string> names;
  for (const auto& l : libs) names.insert(l.second);
  for (const auto* list : {&more, &extra}) {
    for (const auto& l : *list) {
      if (names.insert(l.second).second) libs.push_back(l);
    }
  }
  return known[runner] = libs;
}

Result<Json> HipRunner(const EvaluationContext& ctx, const std::string& subject, const std::string& lib) {
  if (lib.empty()) return Json{{"argv", Json::array()}};
  if (std::string why = SandboxUnavailableReason(); !why.empty()) {
    // Code under test never runs outside the sandbox.
    return Unavailable("the candidate sandbox cannot run here: " + why);
  }
  const std::string runner = KitBinary(ctx.device, "hip_runner");
  const std::string bin = FindBuiltBinary(ctx.project_root, runner);
  if (bin.empty()) return NotFound(runner + " not found under " + ctx.project_root);
  // The runner's binary, copied (a Bazel runfiles tree is links that point
  // outside the sandbox), and the subject's library alone in a folder of
  // its own, fresh for every runner: nothing of the harness, the other
  // subject or an earlier build.
  const fs::path code = fs::path(ctx.work_dir) / "runner_code";
  ARENA_RETURN_IF_ERROR(MakeDirs(code.string()));
  if (!fs::exists(code / "hip_runner")) {
    ARENA_RETURN_IF_ERROR(CopyFile(bin, (code / "hip_runner").string()));
    std::error_code ec;
    fs::permissions(code / "hip_runner", fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec) return Internal("cannot make the runner executable: " + ec.message());
  }
  static std::atomic<int> runners{0};
  const fs::path dir = fs::path(ctx.work_dir) / "runners" / (subject + "." + std::to_string(++runners));
  ARENA_RETURN_IF_ERROR(ResetDir(dir.string()));
  ARENA_RETURN_IF_ERROR(CopyFile(lib, (dir / (subject + ".so")).string()));
  // A runtime-compiled library's module and kernel names, beside it.
  const std::vector<std::string> sides = SideFiles(lib);
  const std::vector<std::string> sides_in = SideFiles((dir / (subject + ".so")).string());
  for (size_t i = 0; i < sides.size(); ++i) {
    if (fs::exists(sides[i])) ARENA_RETURN_IF_ERROR(CopyFile(sides[i], sides_in[i]));
  }
  SandboxOptions sb;
  sb.workspace = dir.string();
  sb.workspace_read_only = true;
  // Its /tmp (the host's memory) serves at most the driver's JIT cache.
  sb.tmp_bytes = 1LL << 30;
  sb.read_only = {{code.string(), "/opt/arena/runner"}};
  ARENA_ASSIGN_OR_RETURN(sb.libraries, HipRunnerLibraries(bin));
  AllowDevice(ctx.device, &sb);
  ARENA_ASSIGN_OR_RETURN(
      std::vector<std::string> argv,
      SandboxArgv(sb, {"/opt/arena/runner/hip_runner",
                       "--lib=" + std::string(kSandboxWorkspace) + "/" + subject + ".so"}));
  return Json{{"argv", argv}};
}

namespace {

bool QuietRounds() {
  return SwitchOn("ARENA_HIP_QUIET_ROUNDS");
}

// A check's trials drawn by the judge's device generator, as the timed
// rounds' sets are (ARENA_HIP_DEVICE_TRIALS=0: on the host).
bool DeviceTrials() {
  return SwitchOn("ARENA_HIP_DEVICE_TRIALS");
}

// The threads of a CPU reference built with OpenMP: ARENA_HIP_REFERENCE_THREADS
// (a count), else (or 0) OpenMP's default, every core ("" here).
Result<std::string> ReferenceThreads() {
  const char* v = std::getenv("ARENA_HIP_REFERENCE_THREADS");
  if (v == nullptr || *v == '\0') return std::string();
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0 || n > 4096) {
    return InvalidArgument("ARENA_HIP_REFERENCE_THREADS: '" + std::string(v) + "' is not a thread count (0-4096)");
  }
  return n == 0 ? std::string() : std::to_string(n);
}

}  // namespace

Result<std::unique_ptr<WorkerProcess>> StartHipWorker(const EvaluationContext& ctx,
                                                      const std::map<std::string, std::string>& libs,
                                                      const std::string& reference) {
  const std::string judge = KitBinary(ctx.device, "hip_judge");
  std::string bin = FindBuiltBinary(ctx.project_root, judge);
  if (bin.empty()) return NotFound(judge + " not found under " + ctx.project_root);
  Json runners = Json::object();
  for (const auto& [subject, lib] : libs) {
    ARENA_ASSIGN_OR_RETURN(runners[subject], HipRunner(ctx, subject, lib));
  }
  ProcessOptions o;
  o.argv = {bin};
  o.cwd = ctx.work_dir;
  for (const auto& [k, v] : AccessTo(ctx.device).env) o.env[k] = v;
  // A reference's OpenMP threads sleep between its loops: none spins on a
  // core beside a timed round (prefetches end before the rounds anyway).
  o.env["OMP_WAIT_POLICY"] = "passive";
  ARENA_ASSIGN_OR_RETURN(std::string omp_threads, ReferenceThreads());
  if (omp_threads.empty()) {
    o.unset_env.push_back("OMP_NUM_THREADS");
  } else {
    o.env["OMP_NUM_THREADS"] = omp_threads;
  }
  // It starts the runners' sandboxes (ProcessOptions says why no user
  // namespace of its own); the subjects' code runs only in those.
  o.isolate_network = true;
  o.network_via_user_namespace = false;
  ARENA_ASSIGN_OR_RETURN(std::unique_ptr<WorkerProcess> worker, WorkerProcess::Start(o));
  Json init = {{"op", "init"},
               {"task", ctx.task->ToJson()},
               {"device_index", 0},
               {"runners", runners},
               {"reference", reference},
               {"log_dir", ctx.work_dir},
               // The judge gives up on a runner before this process gives
               // up on the judge, so the right subject is blamed.
               {"timeout_s", std::max(1.0, ctx.stage_timeout_s * 0.9 - 1.0)},
               // ARENA_HIP_QUIET_ROUNDS=0: timed replays observed as checked
               // calls are (copy records on; for comparing the two).
               {"quiet_rounds", QuietRounds()},
               {"device_trials", DeviceTrials()}};
  ARENA_RETURN_IF_ERROR(InitializeWorker(*worker, init, 120, "hip worker"));
  return worker;
}

}  // namespace arena
