#include "core/sandbox.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "core/files.h"

namespace arena {
namespace fs = std::filesystem;

namespace {

constexpr long long kShmBytes = 256LL << 20;  // the sandbox's /dev/shm at most

constexpr const char* kEtcAllowed[] = {
    "passwd", "group", "hosts", "hostname", "resolv.conf", "nsswitch.conf", "host.conf",
    "gai.conf", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ssl", "ca-certificates",
    "ca-certificates.conf", "alternatives", "localtime", "timezone", "mime.types", "os-release",
    "debian_version", "lsb-release", "protocols", "services", "python3", "gitconfig", "inputrc",
    "terminfo", "magic", "bash.bashrc", "profile", "fonts", "xdg", "pki", "crypto-policies"};

std::string Bwrap() {
  if (const char* env = std::getenv("ARENA_BWRAP"); env != nullptr && *env) return env;
  for (const char* p : {"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"}) {
    if (fs::exists(p)) return p;
  }
  return "";
}

#if defined(__x86_64__)
constexpr uint32_t kNativeArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
#else
#error "the sandbox's system-call filter knows x86-64 and AArch64"
#endif

// What no subject (an agent, a compiler, code under test) needs and the
// kernel's most exposed code lies behind, refused with an error number its
// libraries expect: namespaces and mounts of its own (a nested namespace
// in which it is root), io_uring (whose operations no filter sees), eBPF,
// userfaultfd, performance counters, the kernel's keyrings and log, opening
// files by handle, modules and kexec. And preallocation: one fallocate
// takes any amount of disk at once, past the disk watch between two of its
// measurements; refused, glibc's posix_fallocate writes instead, at the
// disk's own pace.
struct Refused {
  long nr;
  int error;
};
constexpr Refused kRefused[] = {
    {SYS_fallocate, EOPNOTSUPP},
    {SYS_io_uring_setup, ENOSYS}, {SYS_io_uring_enter, ENOSYS}, {SYS_io_uring_register, ENOSYS},
    // Its argument is a structure a filter cannot read; glibc then uses
    // clone, whose flags are checked below.
    {SYS_clone3, ENOSYS},
    {SYS_unshare, EPERM}, {SYS_setns, EPERM}, {SYS_mount, EPERM}, {SYS_umount2, EPERM},
    {SYS_pivot_root, EPERM}, {SYS_fsopen, EPERM}, {SYS_fsconfig, EPERM}, {SYS_fsmount, EPERM},
    {SYS_fspick, EPERM}, {SYS_open_tree, EPERM}, {SYS_move_mount, EPERM},
    {SYS_mount_setattr, EPERM}, {SYS_bpf, EPERM}, {SYS_userfaultfd, EPERM},
    {SYS_perf_event_open, EPERM}, {SYS_keyctl, EPERM}, {SYS_add_key, EPERM},
    {SYS_request_key, EPERM}, {SYS_syslog, EPERM}, {SYS_open_by_handle_at, EPERM},
    {SYS_kexec_load, EPERM}, {SYS_kexec_file_load, EPERM}, {SYS_init_module, EPERM},
    {SYS_finit_module, EPERM}, {SYS_delete_module, EPERM}, {SYS_swapon, EPERM},
    {SYS_swapoff, EPERM}, {SYS_reboot, EPERM}, {SYS_acct, EPERM}, {SYS_quotactl, EPERM},
};
constexpr uint32_t kNewNamespaces = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
                                    CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;

// The filter as classic BPF over struct seccomp_data (nr at 0, arch at 4,
// the first argument's low word at 16 on these little-endian machines).
std::vector<sock_filter> SyscallFilter() {
  auto errno_ret = [](int error) -> uint32_t {
    return SECCOMP_RET_ERRNO | (static_cast<uint32_t>(error) & SECCOMP_RET_DATA);
  };
  std::vector<sock_filter> f = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kNativeArch, 1, 0),
      // Another ABI's calls (numbered differently) are none of these.
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
  };
#if defined(__x86_64__)
  // x32's calls: the same numbers with this bit set.
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif
  for (const Refused& r : kRefused) {
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(r.nr), 0, 1));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, errno_ret(r.error)));
  }
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(SYS_clone), 0, 3));
  f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 16));
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, kNewNamespaces, 0, 1));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, errno_ret(EPERM)));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  return f;
}

// Where bubblewrap reads the filter from: a file of this process's own
// scratch folder (only its user may enter it; a subject, in its sandbox,
// sees no host /tmp), written once and removed when the process ends (by
// the next arena if it was killed). Not a memory file named through /proc:
// a judge in a user namespace of its own, which starts runners, may not
// open another process's descriptors there.
Result<std::string> SyscallFilterPath() {
  // One file per user the process runs as: one that dropped its privileges
  // could not read root's.
  static std::mutex mu;
  static std::map<uid_t, std::string> paths;
  std::lock_guard<std::mutex> lock(mu);
  const uid_t user = geteuid();
  if (auto it = paths.find(user); it != paths.end()) return it->second;
  const std::vector<sock_filter> f = SyscallFilter();
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);
  if (ec) return Internal("sandbox: no folder for the system-call filter: " + ec.message());
  const fs::path dir = tmp / (ScratchName("filter") + "-" + std::to_string(user));
  const std::string file = (dir / "syscalls.bpf").string();
  Status written = MakeDirs(dir.string());
  if (written.ok() && chmod(dir.c_str(), 0700) != 0) written = Internal(std::strerror(errno));
  if (written.ok()) {
    written = WriteFileAtomic(
        file, std::string(reinterpret_cast<const char*>(f.data()), f.size() * sizeof(sock_filter)));
  }
  if (!written.ok()) {
    return Internal("sandbox: cannot write the system-call filter to " + file + ": " +
                    written.message());
  }
  if (paths.empty()) {
    static const pid_t owner = getpid();
    // A forked child that exits normally runs this too: only the owner
    // removes what it wrote.
    std::atexit([] {
      if (getpid() != owner) return;
      for (const auto& [user, path] : paths) (void)RemoveTree(fs::path(path).parent_path().string());
    });
  }
  return paths[user] = file;
}

// A command line's start: a shell opens the filter on descriptor 9 and
// becomes bubblewrap, which reads it there and applies it to the command.
Result<std::vector<std::string>> FilteredBwrap(const std::string& bwrap) {
  ARENA_ASSIGN_OR_RETURN(std::string filter, SyscallFilterPath());
  return std::vector<std::string>{"/bin/sh", "-c", "exec \"$@\" 9<\"$0\"", filter,
                                  bwrap,     "--seccomp", "9"};
}

}  // namespace

std::string SandboxUnavailableReason() {
  const std::string bwrap = Bwrap();
  if (bwrap.empty()) return "bubblewrap (bwrap) is not installed";
  // Probed once per binary: every evaluation and every HIP build asks.
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = known.find(bwrap); it != known.end()) return it->second;
  auto start = FilteredBwrap(bwrap);
  if (!start.ok()) return known[bwrap] = start.status().message();
  ProcessOptions probe;
  probe.argv = std::move(*start);
  probe.argv.insert(probe.argv.end(),
                    {"--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink",
                     "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc",
                     "--dev", "/dev", "--unshare-all", "--die-with-parent", "/bin/true"});
  probe.timeout_s = 20;
  auto r = RunProcess(probe);
  std::string why;
  if (!r.ok()) {
    why = r.status().message();
  } else if (!r->success()) {
    why = "bubblewrap cannot create a sandbox here: " + r->err;
  }
  return known[bwrap] = why;
}

void AllowDevice(const DeviceInfo& device, SandboxOptions* sb) {
  const DeviceAccess access = AccessTo(device);
  sb->devices.insert(sb->devices.end(), access.nodes.begin(), access.nodes.end());
  for (const auto& path : access.read_only) sb->read_only.push_back({path, path});
  for (const auto& [k, v] : access.env) sb->env[k] = v;
}

Result<ProcessOptions> SandboxedProcess(const SandboxOptions& sb,
                                        const std::vector<std::string>& argv) {
  ARENA_ASSIGN_OR_RETURN(std::vector<std::string> a, SandboxArgv(sb, argv));
  ProcessOptions p;
  p.argv = std::move(a);
  p.memory_limit_bytes = sb.memory_bytes;
  p.killed_first_out_of_memory = true;
  p.max_processes = sb.max_processes;
  if (!sb.workspace_read_only) p.disk_folders.push_back(fs::absolute(sb.workspace).string());
  for (const auto& [host, inside] : sb.read_write) p.disk_folders.push_back(fs::absolute(host).string());
  p.disk_bytes = sb.disk_bytes;
  p.disk_entries = sb.disk_entries;
  // Bubblewrap's own first process is pid 1 inside and keeps the
  // environment it was started with (/proc/1/environ): it gets none.
  p.clear_env = true;
  p.env = {{"PATH", "/usr/bin:/bin"}};
  return p;
}

Result<std::vector<std::string>> SandboxArgv(const SandboxOptions& sb,
                                             const std::vector<std::string>& argv) {
  if (argv.empty()) return InvalidArgument("sandbox: no command");
  if (sb.tmp_bytes <= 0) return InvalidArgument("sandbox: tmp_bytes must be positive");
  if (!fs::is_directory(sb.workspace)) {
    return InvalidArgument("sandbox: workspace '" + sb.workspace + "' is not a folder");
  }
  std::string bwrap = Bwrap();
  if (bwrap.empty()) return Unavailable("sandbox: bubblewrap (bwrap) is not installed");
  ARENA_ASSIGN_OR_RETURN(std::vector<std::string> a, FilteredBwrap(bwrap));
  if (sb.libraries.empty()) a.insert(a.end(), {"--ro-bind", "/usr", "/usr"});
  a.insert(a.end(), {
      "--symlink", "usr/bin", "/bin",
      "--symlink", "usr/sbin", "/sbin",
      "--symlink", "usr/lib", "/lib",
      "--symlink", "usr/lib64", "/lib64",
      "--proc", "/proc",
      "--dev", "/dev",
      "--size", std::to_string(std::min(sb.tmp_bytes, kShmBytes)), "--tmpfs", "/dev/shm",
      "--size", std::to_string(sb.tmp_bytes), "--tmpfs", "/tmp",
      "--dir", "/tmp/home",
      sb.workspace_read_only ? "--ro-bind" : "--bind", fs::absolute(sb.workspace).string(),
      kSandboxWorkspace,
      "--chdir", kSandboxWorkspace,
      "--unshare-all",
      "--die-with-parent",
      "--new-session",
      "--clearenv",
      "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin",
      "--setenv", "HOME", "/tmp/home",
      "--setenv", "TMPDIR", "/tmp",
      "--setenv", "LANG", "C.UTF-8",
  });
  for (const auto& [host, name] : sb.libraries) {
    if (!fs::is_regular_file(host)) return InvalidArgument("sandbox: library '" + host + "' is not a file");
    std::string inside = std::string(kSandboxLibraries) + "/" + name;
    if (!name.empty() && name[0] == '/') {
      inside = name.rfind("/lib", 0) == 0 ? "/usr" + name : name;
    } else if (name.empty() || name.find('/') != std::string::npos) {
      return InvalidArgument("sandbox: library name '" + name + "' is not a file name");
    }
    a.insert(a.end(), {"--ro-bind", fs::canonical(host).string(), inside});
  }
  if (!sb.libraries.empty()) a.insert(a.end(), {"--setenv", "LD_LIBRARY_PATH", kSandboxLibraries});
  // Of /etc, what programs need to start, resolve names and trust
  // certificates; never shadow, keys or the host's other secrets.
  a.insert(a.end(), {"--tmpfs", "/etc"});
  for (const char* name : kEtcAllowed) {
    const std::string path = std::string("/etc/") + name;
    if (fs::exists(path)) a.insert(a.end(), {"--ro-bind", path, path});
  }
  a.insert(a.end(), {"--remount-ro", "/etc"});
  if (sb.network) a.push_back("--share-net");
  for (const auto& [host, inside] : sb.read_only) {
    if (!fs::exists(host)) return InvalidArgument("sandbox: '" + host + "' does not exist");
    a.insert(a.end(), {"--ro-bind", host, inside});
  }
  for (const auto& [host, inside] : sb.read_write) {
    if (!fs::is_directory(host)) return InvalidArgument("sandbox: '" + host + "' is not a folder");
    a.insert(a.end(), {"--bind", fs::absolute(host).string(), inside});
  }
  for (const auto& node : sb.devices) {
    if (!fs::exists(node)) return InvalidArgument("sandbox: device '" + node + "' does not exist");
    a.insert(a.end(), {"--dev-bind", node, node});
  }
  // Nothing more is made in /dev (a folder in memory, without a size);
  // its devices are still read and written.
  a.insert(a.end(), {"--remount-ro", "/dev"});
  for (const auto& [k, v] : sb.env) a.insert(a.end(), {"--setenv", k, v});
  a.push_back("--");
  a.insert(a.end(), argv.begin(), argv.end());
  return a;
}

Result<std::vector<std::pair<std::string, std::string>>> SharedLibraryClosure(
    const std::vector<std::string>& files) {
  std::vector<std::pair<std::string, std::string>> libs;
  std::set<std::string> seen;
  for (const auto& file : files) {
    ProcessOptions p;
    p.argv = {"ldd", file};
    p.timeout_s = 30;
    ARENA_ASSIGN_OR_RETURN(ProcessResult r, RunProcess(p));
    if (!r.success()) return Internal("ldd " + file + " failed: " + r.err + r.out);
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      // "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or
      // "\t/lib64/ld-linux-x86-64.so.2 (0x...)"; vdso lines name no file.
      std::istringstream words(line);
      std::string name, arrow, path;
      words >> name >> arrow >> path;
      if (arrow != "=>") path = name;
      if (path == "not") return NotFound("ldd " + file + ": " + name + " not found");
      if (path.empty() || path[0] != '/' || !fs::is_regular_file(path)) continue;
      if (arrow == "=>" && name.find('/') != std::string::npos) name = fs::path(name).filename().string();
      if (seen.insert(name).second) libs.emplace_back(path, name);
    }
  }
  return libs;
}

}  // namespace arena
