#include "agents/cli/cli_agent.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <utility>

#include "agents/cli/cli_output.h"
#include "core/files.h"
#include "core/net_forward.h"
#include "core/process.h"
#include "core/sandbox.h"

namespace arena {
namespace fs = std::filesystem;

namespace {

// Stream-json transcripts of long sessions run to tens of megabytes, and the
// usage totals come last, so the capture keeps far more than the default.
constexpr size_t kTranscriptCapBytes = size_t{64} << 20;
// Agents start compilers, test runs and language servers; a fork bomb still
// stops here.
constexpr int kMaxProcesses = 1024;
constexpr char kPromptFileName[] = ".arena-prompt.md";
// Sources the secrets file, deletes it, and becomes the CLI: keys reach the CLI
// without ever appearing on a command line (bubblewrap's --setenv would put
// them in /proc/<pid>/cmdline for the whole run).
constexpr char kSecretsLauncher[] = ". \"$0\" && rm -f -- \"$0\" && exec \"$@\"";
// Inside the sandbox: the proxy to the arena's forwarder, listening before
// the CLI starts ($0: the arena binary).
constexpr char kNetInside[] = "/run/arena-net";
constexpr char kProxyListen[] = "127.0.0.1:3128";
constexpr char kForwardLauncher[] =
    "\"$0\" forward --daemon --listen 127.0.0.1:3128 --socket /run/arena-net/s && exec \"$@\"";

// ---------------------------------------------------------------- config

bool IsEnvName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

Result<std::vector<std::string>> StringList(const Json& value, const std::string& key,
                                            const std::string& who, bool allow_scalars) {
  if (!value.is_array()) return InvalidArgument(who + ": '" + key + "' must be a list");
  std::vector<std::string> out;
  for (const Json& e : value) {
    if (e.is_string()) {
      out.push_back(e.get<std::string>());
    } else if (allow_scalars && (e.is_number() || e.is_boolean())) {
      // YAML turns `[--max-turns, 40]` into a number; the CLI wants its text.
      out.push_back(e.dump());
    } else {
      return InvalidArgument(who + ": '" + key + "' must hold strings, not " + e.dump());
    }
  }
  return out;
}

// ---------------------------------------------------------------- host paths

// Without trailing separators, so components compare.
fs::path Clean(const fs::path& p) {
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return fs::path(s);
}

// Whether `child` is `parent` or lies under it.
bool IsWithin(const fs::path& child, const fs::path& parent) {
  fs::path c = Clean(child), p = Clean(parent);
  auto ci = c.begin();
  for (auto pi = p.begin(); pi != p.end(); ++pi, ++ci) {
    if (ci == c.end() || *ci != *pi) return false;
  }
  return true;
}

// Already visible inside the sandbox: core/sandbox.cc binds /usr and /etc and
// makes /bin, /sbin, /lib and /lib64 links into /usr, as on merged-/usr hosts.
bool IsSystemPath(const fs::path& p) {
  for (const char* dir : {"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64"}) {
    if (IsWithin(p, dir)) return true;
  }
  return false;
}

fs::path Canonical(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::canonical(p, ec);
  return ec ? Clean(p) : c;
}

// The first executable `name` on the host's PATH, as found (links not resolved).
std::optional<fs::path> FindOnHostPath(const std::string& name) {
  const char* env = std::getenv("PATH");
  const std::string dirs = env ? env : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    start = end + 1;
    // Relative entries would depend on the arena's own working directory.
    if (dir.empty() || dir[0] != '/') continue;
    fs::path candidate = fs::path(dir) / name;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) {
      return Clean(candidate);
    }
  }
  return std::nullopt;
}

// What the sandbox must show, read-only and at the same paths, for a CLI
// installed outside /usr to run: its install folder, the folder it was found
// in (on the sandbox's PATH, for the interpreters it starts by name), and its
// script interpreter's installation. Folders that would expose more than the
// CLI (/, a top-level folder, the home folder, anything holding the workspace
// or the project) are never bound whole; the single file is bound instead.
class SandboxBinds {
 public:
  SandboxBinds(std::vector<fs::path> keep_out, fs::path home)
      : keep_out_(std::move(keep_out)), home_(std::move(home)) {}

  // Makes `found` (a PATH hit) runnable inside; returns the path to run.
  fs::path AddProgram(const fs::path& found) {
    const fs::path real = Canonical(found);
    if (!IsSystemPath(real)) BindInstallOf(real);
    AddPathFolderOf(found);
    AddInterpreterOf(real);
    return real;
  }

  // A config mount: bound as given.
  void AddMount(const fs::path& host, const fs::path& inside) {
    mounts_.emplace_back(host.string(), inside.string());
    std::error_code ec;
    if (fs::is_directory(host, ec) && Clean(inside).filename() == "bin") {
      AddPathDir(Clean(inside).string());
    }
  }

  std::vector<std::pair<std::string, std::string>> ReadOnly() const {
    std::vector<fs::path> sorted = same_path_;
    std::sort(sorted.begin(), sorted.end(), [](const fs::path& a, const fs::path& b) {
      return std::distance(a.begin(), a.end()) < std::distance(b.begin(), b.end());
    });
    std::vector<fs::path> kept;
    for (const fs::path& p : sorted) {
      bool covered = false;
      for (const fs::path& k : kept) covered = covered || IsWithin(p, k);
      if (!covered) kept.push_back(p);
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (const fs::path& p : kept) out.emplace_back(p.string(), p.string());
    out.insert(out.end(), mounts_.begin(), mounts_.end());
    return out;
  }

  std::string SearchPath() const {
    std::string path;
    for (const std::string& d : path_dirs_) path += d + ":";
    return path + "/usr/local/bin:/usr/bin:/bin";
  }

 private:
  bool TooBroad(const fs::path& dir) const {
    const fs::path d = Clean(dir);
    if (std::distance(d.begin(), d.end()) <= 2) return true;  // "/", "/tmp", "/home"
    if (!home_.empty() && d == Clean(home_)) return true;
    for (const fs::path& k : keep_out_) {
      if (IsWithin(k, d)) return true;
    }
    return false;
  }

  void Bind(const fs::path& p) {
    std::error_code ec;
    if (fs::exists(p, ec)) same_path_.push_back(Clean(p));
  }

  void AddPathDir(const std::string& dir) {
    if (std::find(path_dirs_.begin(), path_dirs_.end(), dir) == path_dirs_.end()) {
      path_dirs_.push_back(dir);
    }
  }

  // The prefix a file was installed into: <prefix>/bin/<file> binds <prefix>
  // (a venv, an npm or nvm prefix, a standalone Python), otherwise the file's
  // own folder.
  void BindInstallOf(const fs::path& file) {
    fs::path dir = Clean(file).parent_path();
    fs::path root = dir;
    if (dir.filename() == "bin" && !TooBroad(dir.parent_path())) root = dir.parent_path();
    Bind(TooBroad(root) ? file : root);
  }

  void AddPathFolderOf(const fs::path& found) {
    const fs::path dir = Clean(found).parent_path();
    if (IsSystemPath(dir)) return;
    Bind(TooBroad(dir) ? found : dir);
    AddPathDir(dir.string());
  }

  // "#!/venv/bin/python" or "#!/usr/bin/env node": what the kernel or env
  // needs to start the script must be inside too.
  void AddInterpreterOf(const fs::path& script) {
    std::ifstream in(script, std::ios::binary);
    char buf[256] = {};
    in.read(buf, sizeof(buf) - 1);
    std::string head(buf, static_cast<size_t>(in.gcount()));
    if (head.rfind("#!", 0) != 0) return;
    std::istringstream line(head.substr(2, head.find('\n') - 2));
    std::vector<std::string> words{std::istream_iterator<std::string>(line),
                                   std::istream_iterator<std::string>()};
    if (words.empty()) return;
    const fs::path interpreter = words[0];
    if (interpreter.filename() == "env") {
      std::string name;
      for (size_t i = 1; i < words.size() && name.empty(); ++i) {
        if (words[i][0] != '-' && words[i].find('=') == std::string::npos) name = words[i];
      }
      if (name.empty() || name.find('/') != std::string::npos) return;
      if (auto found = FindOnHostPath(name)) {
        const fs::path real = Canonical(*found);
        if (!IsSystemPath(real)) BindInstallOf(real);
        AddPathFolderOf(*found);
      }
    } else if (interpreter.is_absolute()) {
      const fs::path real = Canonical(interpreter);
      if (!IsSystemPath(real)) BindInstallOf(real);
      // A venv's python is a link into another installation, and Python finds
      // its venv from where the link lies: bind both.
      if (!IsSystemPath(interpreter)) BindInstallOf(interpreter);
    }
  }

  std::vector<fs::path> keep_out_;
  fs::path home_;
  std::vector<fs::path> same_path_;
  std::vector<std::pair<std::string, std::string>> mounts_;
  std::vector<std::string> path_dirs_;
};

// ---------------------------------------------------------------- the run

// Files the run puts into the workspace (prompt, secrets, usage output); all
// are removed afterwards, whatever happened.
class ScratchFiles {
 public:
  explicit ScratchFiles(fs::path workspace) : workspace_(std::move(workspace)) {}
  ~ScratchFiles() {
    for (const std::string& name : names_) {
      std::error_code ec;
      fs::remove(workspace_ / name, ec);
    }
  }
  ScratchFiles(const ScratchFiles&) = delete;
  ScratchFiles& operator=(const ScratchFiles&) = delete;

  // Registers `name` for removal (removing a stale one now); returns its host path.
  std::string Add(const std::string& name) {
    names_.push_back(name);
    std::error_code ec;
    fs::remove(workspace_ / name, ec);
    return (workspace_ / name).string();
  }

 private:
  fs::path workspace_;
  std::vector<std::string> names_;
};

Status WritePrivateFile(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Internal("cannot create " + path + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::string why = std::strerror(errno);
      close(fd);
      return Internal("cannot write " + path + ": " + why);
    }
    done += static_cast<size_t>(n);
  }
  close(fd);
  return OkStatus();
}

std::string RandomSuffix() {
  std::random_device rd;
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%08x%08x", rd(), rd());
  return buf;
}

std::string Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// The prompt when the core rendered none: the task's own words plus the
// workspace's rules.
std::string FallbackPrompt(const AgentRequest& request) {
  const TaskSpec& task = *request.task;
  std::ostringstream s;
  s << "You are optimizing a GPU kernel (task " << task.id << ") in the current folder.\n\n";
  if (!task.instructions.empty()) s << task.instructions << "\n\n";
  s << "Files you may edit: " << Join(task.editable, ", ")
    << ". Only these are collected at the end; INSTRUCTIONS.md and configs.json describe the "
       "task.\n";
  s << "Run `" << (request.feedback_command.empty() ? "./feedback" : request.feedback_command)
    << "` to compile, check and time your current files on the tuning configurations "
       "(exit 0: correct).\n";
  s << "Work on your own without asking questions, keep the kernel correct, and stop when it is "
       "as fast as you can make it.\n";
  return s.str();
}

struct ArgValues {
  std::string prompt;
  std::string prompt_file;
  std::string output_file;
  const std::vector<std::string>* permission_args = nullptr;
  const CliAgentConfig* config = nullptr;
  const std::vector<std::string>* editable = nullptr;
};

std::vector<std::string> ExpandArgs(const CliSpec& spec, const ArgValues& v) {
  std::vector<std::string> out;
  auto append = [&out](const std::vector<std::string>& more) {
    out.insert(out.end(), more.begin(), more.end());
  };
  for (const std::string& a : spec.args) {
    if (a == "{prompt}") {
      out.push_back(v.prompt);
    } else if (a == "{prompt_file}") {
      out.push_back(v.prompt_file);
    } else if (a == "{output_file}") {
      out.push_back(v.output_file);
    } else if (a == "{permission_args}") {
      append(*v.permission_args);
    } else if (a == "{model_args}") {
      if (v.config->model.empty()) continue;
      for (const std::string& m : spec.model_args) {
        out.push_back(ReplaceAll(m, "{model}", v.config->model));
      }
    } else if (a == "{effort_args}") {
      if (v.config->effort.empty()) continue;
      for (const std::string& e : spec.effort_args) {
        out.push_back(ReplaceAll(e, "{effort}", v.config->effort));
      }
    } else if (a == "{extra_args}") {
      append(v.config->extra_args);
    } else if (a == "{editable_files}") {
      append(*v.editable);
    } else {
      out.push_back(a);
    }
  }
  return out;
}

// The command as a person would retype it, with the prompt elided.
std::string DisplayCommand(const std::string& exe, const std::vector<std::string>& args,
                           const std::string& prompt, bool prompt_in_argv) {
  std::string line = exe;
  for (const std::string& a : args) {
    if (prompt_in_argv && a == prompt) {
      line += " '<prompt: " + std::to_string(prompt.size()) + " chars>'";
    } else if (a.find_first_of(" \t\n'\"$`\\") != std::string::npos || a.empty()) {
      line += " " + ShellQuote(a);
    } else {
      line += " " + a;
    }
  }
  return line;
}

std::string LastLine(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  }
  if (last.size() > 200) last = last.substr(0, 197) + "...";
  return last;
}

// Host variables the CLI may read: its API keys and the config's pass_env,
// those set on the host, in order.
std::vector<std::pair<std::string, std::string>> PassedEnv(const CliSpec& spec,
                                                           const CliAgentConfig& config) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  auto take = [&](const std::string& name) {
    if (!seen.insert(name).second) return;
    if (const char* v = std::getenv(name.c_str())) out.emplace_back(name, v);
  };
  for (const std::string& n : spec.api_key_env) take(n);
  for (const std::string& n : config.pass_env) take(n);
  return out;
}

// The endpoints a sandboxed CLI may reach: its own, the config's, and the
// base URLs among the variables passed in (OPENAI_BASE_URL, ...).
std::vector<Endpoint> AllowedEndpoints(const CliSpec& spec, const CliAgentConfig& config,
                                       const std::vector<std::pair<std::string, std::string>>& passed) {
  std::vector<Endpoint> out;
  auto add = [&](const std::string& text) {
    auto e = ParseEndpoint(text);
    if (e.ok() && std::find(out.begin(), out.end(), *e) == out.end()) out.push_back(*e);
  };
  for (const std::string& e : spec.endpoints) add(e);
  for (const std::string& e : config.endpoints) add(e);
  for (const auto& [name, value] : passed) {
    if (name.find("BASE") != std::string::npos && value.find("://") != std::string::npos) add(value);
  }
  return out;
}

// The folder of the endpoint forwarder's socket: a scratch folder of this
// process (an arena killed mid-run has it removed at the next start),
// removed when the agent is done, on every path.
struct NetFolder {
  std::string path;
  ~NetFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

}  // namespace

SectionSchema CliAgent::ConfigSchema() const {
  return {"",
          {{"model", FieldType::kString},
           {"effort", FieldType::kString},
           {"timeout_s", FieldType::kNumber},
           {"extra_args", FieldType::kStringList},
           {"mounts", FieldType::kStringList},
           {"pass_env", FieldType::kStringList},
           {"endpoints", FieldType::kStringList},
           {"sandbox", FieldType::kBool}}};
}

Result<CliAgentConfig> ParseCliAgentConfig(const CliSpec& spec, const Json& config) {
  const std::string who = spec.agent + " agent config";
  CliAgentConfig c;
  if (config.is_null()) return c;
  if (!config.is_object()) return InvalidArgument(who + ": expected a mapping, got " + config.dump());
  for (const auto& item : config.items()) {
    const std::string& key = item.key();
    const Json& v = item.value();
    if (key == "model" || key == "effort") {
      if (!v.is_string() || v.get<std::string>().empty()) {
        return InvalidArgument(who + ": '" + key + "' must be a non-empty string");
      }
      (key == "model" ? c.model : c.effort) = v.get<std::string>();
    } else if (key == "timeout_s") {
      if (!v.is_number() || v.get<double>() <= 0) {
        return InvalidArgument(who + ": 'timeout_s' must be a positive number of seconds");
      }
      c.timeout_s = v.get<double>();
    } else if (key == "extra_args") {
      ARENA_ASSIGN_OR_RETURN(c.extra_args, StringList(v, key, who, /*allow_scalars=*/true));
    } else if (key == "mounts") {
      ARENA_ASSIGN_OR_RETURN(c.mounts, StringList(v, key, who, /*allow_scalars=*/false));
    } else if (key == "pass_env") {
      ARENA_ASSIGN_OR_RETURN(c.pass_env, StringList(v, key, who, /*allow_scalars=*/false));
    } else if (key == "endpoints") {
      ARENA_ASSIGN_OR_RETURN(c.endpoints, StringList(v, key, who, /*allow_scalars=*/false));
      for (const std::string& e : c.endpoints) {
        auto parsed = ParseEndpoint(e);
        if (!parsed.ok()) return InvalidArgument(who + ": endpoints: " + parsed.status().message());
      }
    } else if (key == "sandbox") {
      if (!v.is_boolean()) return InvalidArgument(who + ": 'sandbox' must be true or false");
      c.sandbox = v.get<bool>();
    } else {
      return InvalidArgument(who + ": unknown key '" + key +
                             "' (known: model, effort, timeout_s, extra_args, mounts, pass_env, "
                             "endpoints, sandbox)");
    }
  }
  if (!c.effort.empty() && spec.effort_args.empty()) {
    return InvalidArgument(who + ": " + spec.display_name + " has no effort setting");
  }
  for (const std::string& name : c.pass_env) {
    if (!IsEnvName(name)) {
      return InvalidArgument(who + ": pass_env: '" + name + "' is not a variable name");
    }
  }
  for (const std::string& m : c.mounts) {
    const std::string host = m.substr(0, m.find(':'));
    const std::string inside = m.find(':') == std::string::npos ? host : m.substr(m.find(':') + 1);
    if (host.empty() || host[0] != '/' || inside.empty() || inside[0] != '/') {
      return InvalidArgument(who + ": mounts: '" + m + "' must be /HOST or /HOST:/INSIDE");
    }
    std::error_code ec;
    if (!fs::exists(host, ec)) {
      return InvalidArgument(who + ": mounts: '" + host + "' does not exist");
    }
  }
  return c;
}

Result<AgentOutcome> CliAgent::Run(const AgentRequest& request) {
  const std::string who = spec_.agent + " agent";
  if (request.task == nullptr) return InvalidArgument(who + ": no task");
  ARENA_ASSIGN_OR_RETURN(CliAgentConfig config, ParseCliAgentConfig(spec_, request.config));
  std::error_code ec;
  if (!fs::is_directory(request.workspace, ec)) {
    return InvalidArgument(who + ": workspace '" + request.workspace + "' is not a folder");
  }
  if (!request.arena_binary.empty() && !fs::is_regular_file(request.arena_binary, ec)) {
    return InvalidArgument(who + ": arena binary '" + request.arena_binary + "' does not exist");
  }
  const double time_limit_s = request.time_budget_s > 0 ? request.time_budget_s
                              : config.timeout_s > 0    ? config.timeout_s
                                                        : kDefaultCliTimeoutS;

  AgentOutcome outcome;
  const std::optional<fs::path> found = FindOnHostPath(spec_.executable);
  if (!found) {
    outcome.ok = false;
    outcome.exit_code = -1;
    outcome.detail = spec_.executable + " not found on PATH (install " + spec_.display_name +
                     " or set PATH)";
    outcome.transcript =
        "[arena] " + outcome.detail + "\n[arena] to install: " + spec_.install_hint + "\n";
    return outcome;
  }

  const fs::path workspace = Clean(fs::absolute(request.workspace));
  // Where the CLI sees the workspace: the sandbox shows it at a fixed path.
  const std::string seen_workspace = config.sandbox ? kSandboxWorkspace : workspace.string();
  std::string prompt = request.prompt.empty() ? FallbackPrompt(request) : request.prompt;
  // As one argv element, a prompt starting with "-" would be parsed as an
  // option; a leading newline changes nothing for the model.
  if (spec_.prompt_channel == PromptChannel::kArgument && prompt.rfind('-', 0) == 0) {
    prompt = "\n" + prompt;
  }
  const std::vector<std::string>& permissions = config.sandbox
                                                    ? spec_.permission_args_sandboxed
                                                    : spec_.permission_args_unsandboxed;

  ScratchFiles scratch(workspace);
  ArgValues values;
  values.prompt = prompt;
  values.permission_args = &permissions;
  values.config = &config;
  values.editable = &request.task->editable;
  if (spec_.prompt_channel == PromptChannel::kFile) {
    ARENA_RETURN_IF_ERROR(WriteFileAtomic(scratch.Add(kPromptFileName), prompt));
    values.prompt_file = seen_workspace + "/" + kPromptFileName;
  }
  std::string output_file_host;
  if (!spec_.output_file_name.empty()) {
    output_file_host = scratch.Add(spec_.output_file_name);
    values.output_file = seen_workspace + "/" + spec_.output_file_name;
  }
  const std::vector<std::string> args = ExpandArgs(spec_, values);
  const bool prompt_in_argv = spec_.prompt_channel == PromptChannel::kArgument;

  std::vector<std::string> header;
  ProcessOptions process;
  std::vector<Endpoint> allowed;
  NetFolder net_dir;  // before the forwarder: it outlives it
  std::unique_ptr<EndpointForwarder> forwarder;
  if (config.sandbox) {
    const char* home = std::getenv("HOME");
    std::vector<fs::path> keep_out = {workspace, Clean(fs::current_path(ec))};
    if (!request.project_root.empty()) keep_out.push_back(Clean(fs::absolute(request.project_root)));
    SandboxBinds binds(keep_out, home ? fs::path(home) : fs::path());
    const fs::path program = binds.AddProgram(*found);
    for (const std::string& m : config.mounts) {
      const size_t colon = m.find(':');
      binds.AddMount(m.substr(0, colon), colon == std::string::npos ? m : m.substr(colon + 1));
    }
    SandboxOptions sb;
    sb.workspace = workspace.string();
    sb.read_only = binds.ReadOnly();
    if (!request.sandbox_mounts.empty()) {
      // What ./feedback needs inside: the arena binary and its socket.
      for (const auto& mount : request.sandbox_mounts) sb.read_only.push_back(mount);
    } else if (!request.arena_binary.empty()) {
      // ./feedback in the workspace runs the arena from this fixed path.
      sb.read_only.emplace_back(Clean(fs::absolute(request.arena_binary)).string(),
                                kSandboxArena);
    }
    sb.env = spec_.fixed_env;
    sb.env["PATH"] = binds.SearchPath();
    sb.max_processes = kMaxProcesses;

    std::vector<std::string> argv = {program.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto secrets = PassedEnv(spec_, config);
    // No network of its own: its model endpoints, and nothing else, through
    // the arena's forwarder (core/net_forward.h) and the proxy the arena
    // binary runs inside.
    allowed = AllowedEndpoints(spec_, config, secrets);
    const bool arena_inside = !request.sandbox_mounts.empty() || !request.arena_binary.empty();
    if (arena_inside && !allowed.empty()) {
      // Under /tmp itself, not $TMPDIR: a socket's path has at most 107 bytes.
      net_dir.path = "/tmp/" + ScratchName("net") + "-" + RandomSuffix();
      ARENA_RETURN_IF_ERROR(ResetDir(net_dir.path));
      auto started = EndpointForwarder::Start(net_dir.path + "/s", allowed);
      if (!started.ok()) return started.status();
      forwarder = std::move(*started);
      sb.read_write.push_back({net_dir.path, kNetInside});
      const std::string proxy = std::string("http://") + kProxyListen;
      for (const char* name : {"HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy"}) {
        sb.env[name] = proxy;
      }
      sb.env["NO_PROXY"] = "";
      sb.env["no_proxy"] = "";
      argv.insert(argv.begin(), {"/bin/sh", "-c", kForwardLauncher, kSandboxArena});
    }
    if (!secrets.empty()) {
      const std::string name = ".arena-env-" + RandomSuffix();
      std::string script;
      std::vector<std::string> names;
      for (const auto& [k, v] : secrets) {
        script += "export " + k + "=" + ShellQuote(v) + "\n";
        names.push_back(k);
      }
      ARENA_RETURN_IF_ERROR(WritePrivateFile(scratch.Add(name), script));
      argv.insert(argv.begin(), {"/bin/sh", "-c", kSecretsLauncher, seen_workspace + "/" + name});
      header.push_back("passed in from the host: " + Join(names, ", ") + " (values not shown)");
    }
    ARENA_ASSIGN_OR_RETURN(process, SandboxedProcess(sb, argv));

    std::vector<std::string> names;
    for (const auto& e : allowed) names.push_back(e.ToString());
    header.insert(header.begin(),
                  spec_.display_name + " at " + program.string() + ", in the sandbox (workspace at " +
                      kSandboxWorkspace + "); no network but " +
                      (forwarder ? "its endpoints through the arena's proxy: " + Join(names, ", ")
                                 : std::string("none: no endpoint to reach (set endpoints:)")));
    std::vector<std::string> shown;
    for (const auto& [host, inside] : sb.read_only) {
      shown.push_back(host == inside ? host : host + " -> " + inside);
    }
    header.push_back("read-only in the sandbox: " + (shown.empty() ? "-" : Join(shown, ", ")));
  } else {
    process.argv = {found->string()};
    process.argv.insert(process.argv.end(), args.begin(), args.end());
    process.cwd = workspace.string();
    process.env = spec_.fixed_env;  // the rest of the host's environment is inherited
    header.push_back(spec_.display_name + " at " + found->string() +
                     ", NOT sandboxed (sandbox: false): it sees this machine as you do");
    if (!config.mounts.empty()) header.push_back("mounts are ignored without the sandbox");
  }
  process.timeout_s = time_limit_s;
  process.output_cap = kTranscriptCapBytes;
  if (spec_.prompt_channel == PromptChannel::kStdin) process.stdin_data = prompt;
  header.push_back("$ " + DisplayCommand(spec_.executable, args, prompt, prompt_in_argv) +
                   (spec_.prompt_channel == PromptChannel::kStdin
                        ? "  (prompt on stdin, " + std::to_string(prompt.size()) + " chars)"
                        : ""));
  header.push_back("time limit " + SecondsText(time_limit_s));

  std::string transcript;
  for (const std::string& h : header) transcript += "[arena] " + h + "\n";

  Result<ProcessResult> run = RunProcess(process);
  if (!run.ok()) {
    outcome.ok = false;
    outcome.exit_code = -1;
    outcome.detail = "cannot start " + spec_.executable + ": " + run.status().message();
    outcome.transcript = transcript + "[arena] " + outcome.detail + "\n";
    return outcome;
  }
  const ProcessResult& r = *run;

  transcript += "--- stdout ---\n" + r.out;
  if (!r.out.empty() && r.out.back() != '\n') transcript += "\n";
  if (r.out_dropped) {
    transcript += "[arena] " + std::to_string(r.out_dropped) + " more bytes of stdout dropped\n";
  }
  transcript += "--- stderr ---\n" + r.err;
  if (!r.err.empty() && r.err.back() != '\n') transcript += "\n";
  if (r.err_dropped) {
    transcript += "[arena] " + std::to_string(r.err_dropped) + " more bytes of stderr dropped\n";
  }
  transcript += "[arena] " + r.Describe() + "\n";

  std::string output_file_text;
  if (!output_file_host.empty()) {
    auto text = ReadFile(output_file_host);
    if (text.ok()) output_file_text = *text;
  }

  outcome.transcript = std::move(transcript);
  outcome.wall_s = r.wall_s;
  outcome.exit_code = (r.timed_out || r.signal != 0) ? -1 : r.exit_code;
  outcome.usage = ParseUsage(spec_.usage_format, r.out, r.err, output_file_text);
  Json reached = Json::array(), endpoints = Json::array();
  if (forwarder) {
    for (const std::string& line : forwarder->Log()) reached.push_back(line);
    forwarder.reset();
  }
  for (const auto& e : allowed) endpoints.push_back(e.ToString());
  outcome.usage["sandbox"] = {{"enabled", config.sandbox},
                              {"network", config.sandbox ? "endpoints only" : "host"},
                              {"endpoints", endpoints},
                              {"connections", reached}};
  for (const auto& line : reached) outcome.transcript += "[arena] network: " + line.get<std::string>() + "\n";

  // A CLI that cannot authenticate often retries until the time limit, so
  // the login message is the more useful reason and is checked first.
  if (auto message = FindLoggedOutMessage(spec_.logged_out_markers, r.out, r.err)) {
    outcome.ok = false;
    outcome.detail = spec_.display_name + " is not logged in: " + *message;
  } else if (r.timed_out) {
    outcome.ok = false;
    outcome.detail = "timed out after " + SecondsText(time_limit_s);
  } else if (!r.disk_exceeded.empty()) {
    outcome.ok = false;
    outcome.detail = spec_.executable + " " + r.Describe();
  } else if (r.signal != 0) {
    outcome.ok = false;
    outcome.detail = spec_.executable + " " + r.Describe();
  } else if (r.exit_code != 0) {
    outcome.ok = false;
    const std::string last = LastLine(r.err);
    outcome.detail = spec_.executable + " exited with code " + std::to_string(r.exit_code) +
                     (last.empty() ? "" : ": " + last);
  } else if (auto error = FindReportedError(r.out)) {
    outcome.ok = false;
    outcome.detail = spec_.display_name + " reported an error: " + *error;
  }
  return outcome;
}

namespace {

// Registers one agent per entry of the spec table, so adding a CLI is adding
// an entry there (the core's one-name macro cannot loop over a table).
struct CliAgentRegistrar {
  CliAgentRegistrar() {
    for (const CliSpec& spec : CliSpecs()) {
      const CliSpec* s = &spec;
      Status st = AgentRegistry::Global().Register(
          spec.agent, [s] { return std::unique_ptr<AgentAdapter>(new CliAgent(*s)); });
      if (!st.ok()) {
        std::fprintf(stderr, "arena: plugin registration failed: %s\n", st.ToString().c_str());
        std::abort();
      }
    }
  }
};

const CliAgentRegistrar registrar;

}  // namespace
}  // namespace arena
