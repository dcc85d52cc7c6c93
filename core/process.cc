#include "core/process.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <thread>

#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>

namespace arena {
namespace bp = boost::process;
namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string SecondsText(double seconds) {
  char buf[48];
  const bool whole = std::fabs(seconds - std::round(seconds)) < 1e-9;
  std::snprintf(buf, sizeof(buf), whole ? "%.0f s" : "%.1f s", seconds);
  return buf;
}

std::string SignalName(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

std::string BytesText(long long bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024 && unit < 3) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), v == std::floor(v) ? "%.0f %s" : "%.1f %s", v, kUnits[unit]);
  return buf;
}

namespace {

// Input written to a child that died (killed, crashed, ended without
// reading it) is that child's failure, reported where it is written:
// never a SIGPIPE that ends the process holding it. Once, for the process.
void IgnorePipeSignal() {
  static const bool ignored = [] { return ::signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  (void)ignored;
}

// `name` (below `at`) opened as a folder to read, not through a link
// (`flags` add to that). One its owner made unreadable (as the arena's
// user owns what a sandbox writes) is made readable first, so that nothing
// hides in it; never through a link put in its place meanwhile, which
// could name a file of the host. -1 with errno on failure.
int OpenFolder(int at, const char* name, int flags = 0) {
  flags |= O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  int fd = openat(at, name, flags);
  struct stat st;
  if (fd < 0 && errno == EACCES && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (fchmodat(at, name, (st.st_mode & 07777) | S_IRWXU, AT_SYMLINK_NOFOLLOW) == 0) {
      fd = openat(at, name, flags);
    }
  }
  return fd;
}

// One folder's walk, below an open descriptor of it.
class DiskWalk {
 public:
  DiskWalk(long long max_entries, DiskUsage* usage) : max_entries_(max_entries), usage_(usage) {}

  bool Full() const {
    return !usage_->unmeasured.empty() || (max_entries_ > 0 && usage_->entries > max_entries_);
  }

  // Counts `st` once; false when it was counted before.
  bool Count(const struct stat& st) {
    if (!seen_.insert({st.st_dev, st.st_ino}).second) return false;
    usage_->bytes += static_cast<long long>(st.st_blocks) * 512;
    ++usage_->entries;
    return true;
  }

  // The folder open as `fd` (owned), named `path` for messages.
  void Folder(int fd, const std::string& path, int depth) {
    DIR* dir = fdopendir(fd);
    if (dir == nullptr) {
      ::close(fd);
      usage_->unmeasured = "cannot read '" + path + "'";
      return;
    }
    while (!Full()) {
      errno = 0;
      const struct dirent* e = readdir(dir);
      if (e == nullptr) break;
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      struct stat st;
      if (fstatat(dirfd(dir), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone
      if (!Count(st) || !S_ISDIR(st.st_mode)) continue;
      if (depth + 1 > kMaxDiskDepth) {
        usage_->unmeasured = "a folder nested deeper than " + std::to_string(kMaxDiskDepth) +
                             " levels under '" + path + "'";
        break;
      }
      const int child = OpenFolder(dirfd(dir), name.c_str(), O_NOFOLLOW);
      if (child < 0) {
        if (errno == ENOENT || errno == ENOTDIR) continue;  // replaced while walked
        usage_->unmeasured = "cannot read '" + path + "/" + name + "': " + strerror(errno);
        break;
      }
      Folder(child, path + "/" + name, depth + 1);
    }
    closedir(dir);
  }

 private:
  long long max_entries_;
  DiskUsage* usage_;
  std::set<std::pair<dev_t, ino_t>> seen_;
};

}  // namespace

DiskUsage MeasureDiskUsage(const std::vector<std::string>& folders, long long max_entries) {
  DiskUsage usage;
  DiskWalk walk(max_entries, &usage);
  for (const auto& folder : folders) {
    if (walk.Full()) break;
    const int fd = OpenFolder(AT_FDCWD, folder.c_str());
    if (fd < 0) {
      if (errno != ENOENT) usage.unmeasured = "cannot read '" + folder + "': " + strerror(errno);
      continue;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && walk.Count(st)) {
      walk.Folder(fd, folder, 0);
    } else {
      ::close(fd);
    }
  }
  return usage;
}

std::string ProcessResult::Describe() const {
  std::ostringstream out;
  if (!disk_exceeded.empty()) {
    out << "killed: " << disk_exceeded;
  } else if (timed_out) {
    out.precision(1);
    out << std::fixed << "timed out after " << wall_s << " s";
  } else if (signal != 0) {
    out << "killed by signal " << signal << " (" << SignalName(signal) << ")";
  } else {
    out << "exit " << exit_code;
  }
  return out.str();
}

void KilledFirstOutOfMemory() {
  const int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t ignored = ::write(fd, "1000", 4);
  (void)ignored;
  ::close(fd);
}

namespace {

// Appends what a pipe delivers to a string, keeping at most `cap` bytes.
class CappedReader {
 public:
  CappedReader(bp::async_pipe& pipe, size_t cap) : pipe_(pipe), cap_(cap) {}

  void Start() {
    pipe_.async_read_some(asio::buffer(buf_), [this](const boost::system::error_code& ec,
                                                     size_t n) {
      size_t keep = data_.size() < cap_ ? std::min(n, cap_ - data_.size()) : 0;
      data_.append(buf_.data(), keep);
      dropped_ += n - keep;
      if (ec) {
        eof_ = true;
        return;
      }
      Start();
    });
  }

  bool eof() const { return eof_; }
  std::string& data() { return data_; }
  size_t dropped() const { return dropped_; }

 private:
  bp::async_pipe& pipe_;
  size_t cap_;
  std::array<char, 8192> buf_{};
  std::string data_;
  size_t dropped_ = 0;
  bool eof_ = false;
};

bp::environment BuildEnvironment(const ProcessOptions& o) {
  bp::environment env = boost::this_process::environment();
  if (o.clear_env) env.clear();
  for (const auto& name : o.unset_env) env.erase(name);
  for (const auto& [k, v] : o.env) env[k] = v;
  return env;
}

Result<boost::filesystem::path> ResolveProgram(const std::string& argv0) {
  if (argv0.empty()) return InvalidArgument("empty program name");
  if (argv0.find('/') != std::string::npos) return boost::filesystem::path(argv0);
  boost::filesystem::path p = bp::search_path(argv0);
  if (p.empty()) return NotFound("program '" + argv0 + "' is not on PATH");
  return p;
}

void DecodeStatus(int status, ProcessResult* r) {
  if (WIFSIGNALED(status)) {
    r->signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    r->exit_code = WEXITSTATUS(status);
  }
}

constexpr char kPidsRoot[] = "/sys/fs/cgroup/pids";

// A pids cgroup (v1) of its own for one child: limits how many processes it
// may have, and finds every one of them at the end, even those that left
// its process group.
class PidsCgroup {
 public:
  explicit PidsCgroup(int max_processes) {
    if (max_processes <= 0) return;
    static std::atomic<int> counter{0};
    path_ = std::string(kPidsRoot) + "/arena-" + std::to_string(getpid()) + "-" +
            std::to_string(counter++);
    if (mkdir(path_.c_str(), 0755) != 0 ||
        !WriteTo(path_ + "/pids.max", std::to_string(max_processes))) {
      rmdir(path_.c_str());
      path_.clear();
      return;
    }
    procs_ = path_ + "/cgroup.procs";
  }
  ~PidsCgroup() {
    if (path_.empty()) return;
    for (int round = 0; round < 50; ++round) {
      KillAll();
      if (rmdir(path_.c_str()) == 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // The file a child writes its pid to, between fork and exec ("" if none).
  const std::string& procs_file() const { return procs_; }

  void KillAll() {
    if (path_.empty()) return;
    std::ifstream in(procs_);
    int pid;
    while (in >> pid) kill(pid, SIGKILL);
  }

 private:
  static bool WriteTo(const std::string& file, const std::string& text) {
    std::ofstream out(file);
    out << text;
    out.flush();
    return static_cast<bool>(out);
  }
  std::string path_;
  std::string procs_;
};

// Sets the child's limits between fork and exec (async-signal-safe calls only).
// Moves the calling process into a network namespace of its own: directly
// as root, else (when `via_user_namespace`) inside a user namespace mapping
// the caller's ids.
bool UnshareNetwork(bool via_user_namespace = true) {
  if (unshare(CLONE_NEWNET) == 0) return true;
  if (!via_user_namespace) return false;
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) return false;
  auto write_file = [](const char* path, const char* text, size_t n) {
    int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool ok = ::write(fd, text, n) == static_cast<ssize_t>(n);
    ::close(fd);
    return ok;
  };
  char map[64];
  int n = snprintf(map, sizeof(map), "%u %u 1\n", uid, uid);
  write_file("/proc/self/setgroups", "deny", 4);
  bool ok = write_file("/proc/self/uid_map", map, static_cast<size_t>(n));
  n = snprintf(map, sizeof(map), "%u %u 1\n", gid, gid);
  return write_file("/proc/self/gid_map", map, static_cast<size_t>(n)) && ok;
}

// Marks every descriptor above stderr close-on-exec in the child, so that a
// long-lived worker cannot hold on to the parent's sockets and pipes (a
// feedback connection open while a worker starts would otherwise never see
// its end). Async-signal-safe.
void CloseInheritedDescriptors() {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */) == 0) return;
#endif
  struct rlimit lim;
  rlim_t n = getrlimit(RLIMIT_NOFILE, &lim) == 0 ? lim.rlim_cur : 1024;
  if (n == RLIM_INFINITY || n > 65536) n = 65536;
  for (int fd = 3; fd < static_cast<int>(n); ++fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}

struct ChildLimits {
  long long bytes;
  int nproc;               // RLIMIT_NPROC; 0: none
  const char* procs_file;  // join this pids cgroup; null: none
  bool isolate_network = false;
  // The arena: the child is killed when it dies (a SIGKILLed arena leaves no
  // worker or candidate running). 0: not asked for.
  pid_t parent = 0;
  bool network_via_user_namespace = true;
  bool killed_first_out_of_memory = false;
  template <typename Executor>
  void operator()(Executor&) const {
    if (parent > 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(127);  // it died before the line above
    }
    if (killed_first_out_of_memory) KilledFirstOutOfMemory();
    CloseInheritedDescriptors();
    if (isolate_network) UnshareNetwork(network_via_user_namespace);
    if (bytes > 0) {
      struct rlimit lim;
      lim.rlim_cur = lim.rlim_max = static_cast<rlim_t>(bytes);
      setrlimit(RLIMIT_AS, &lim);
    }
    if (nproc > 0) {
      struct rlimit lim;
      lim.rlim_cur = lim.rlim_max = static_cast<rlim_t>(nproc);
      setrlimit(RLIMIT_NPROC, &lim);
    }
    if (procs_file != nullptr) {
      int fd = ::open(procs_file, O_WRONLY | O_CLOEXEC);
      if (fd >= 0) {
        char buf[24];
        int n = 0;
        for (long v = getpid(); v > 0; v /= 10) buf[n++] = static_cast<char>('0' + v % 10);
        char out[24];
        for (int i = 0; i < n; ++i) out[i] = buf[n - 1 - i];
        ssize_t ignored = ::write(fd, out, static_cast<size_t>(n));
        (void)ignored;
        ::close(fd);
      }
    }
  }
};

// ProcessOptions::disk_folders under their limits, measured at most every
// quarter second and never more than a fifth of the time.
class DiskWatch {
 public:
  explicit DiskWatch(const ProcessOptions& o) : o_(o), next_(Clock::now()) {}

  // Why the folders are over their limits, or "".
  std::string Check(bool now = false) {
    if (o_.disk_folders.empty() || (o_.disk_bytes <= 0 && o_.disk_entries <= 0)) return "";
    const auto begin = Clock::now();
    if (!now && begin < next_) return "";
    const DiskUsage u = MeasureDiskUsage(o_.disk_folders, o_.disk_entries);
    const auto took = Clock::now() - begin;
    next_ = Clock::now() + std::max<Clock::duration>(std::chrono::milliseconds(250), 4 * took);
    if (!u.unmeasured.empty()) return "its writable folders cannot all be measured: " + u.unmeasured;
    if (o_.disk_bytes > 0 && u.bytes > o_.disk_bytes) {
      return "its writable folders held " + BytesText(u.bytes) + ", over their limit of " +
             BytesText(o_.disk_bytes);
    }
    if (o_.disk_entries > 0 && u.entries > o_.disk_entries) {
      return "its writable folders held more than " + std::to_string(o_.disk_entries) +
             " files and folders, their limit";
    }
    return "";
  }

 private:
  const ProcessOptions& o_;
  Clock::time_point next_;
};

}  // namespace

bool NetworkIsolationAvailable() {
  static const bool available = [] {
    pid_t pid = fork();
    if (pid == 0) _exit(UnshareNetwork() ? 0 : 1);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }();
  return available;
}

bool ProcessLimitAvailable() {
  PidsCgroup probe(1);
  return !probe.procs_file().empty();
}

Result<ProcessResult> RunProcess(const ProcessOptions& o) {
  IgnorePipeSignal();
  if (o.argv.empty()) return InvalidArgument("no program to run");
  ARENA_ASSIGN_OR_RETURN(boost::filesystem::path exe, ResolveProgram(o.argv[0]));
  std::vector<std::string> args(o.argv.begin() + 1, o.argv.end());
  asio::io_context ios;
  bp::async_pipe out_pipe(ios), err_pipe(ios), in_pipe(ios);
  bp::group group;
  PidsCgroup cgroup(o.max_processes);
  // Without a writable pids cgroup (not root, or inside another sandbox),
  // RLIMIT_NPROC limits the processes of the user instead.
  const int nproc =
      o.max_processes > 0 && cgroup.procs_file().empty() ? o.max_processes : 0;
  std::error_code ec;
  auto start = Clock::now();
  bp::child child(
      exe, bp::args(args), bp::std_out > out_pipe, bp::std_err > err_pipe, bp::std_in < in_pipe,
      BuildEnvironment(o), group, bp::start_dir(o.cwd.empty() ? "." : o.cwd),
      bp::extend::on_exec_setup =
          ChildLimits{o.memory_limit_bytes, nproc,
                      cgroup.procs_file().empty() ? nullptr : cgroup.procs_file().c_str(),
                      o.isolate_network, getpid(), o.network_via_user_namespace,
                      o.killed_first_out_of_memory},
      ec);
  if (ec) return Unavailable("cannot start '" + o.argv[0] + "': " + ec.message());

  // Feed stdin asynchronously, then close it so the child sees EOF.
  auto stdin_copy = std::make_shared<std::string>(o.stdin_data);
  if (stdin_copy->empty()) {
    in_pipe.close();
  } else {
    asio::async_write(in_pipe, asio::buffer(*stdin_copy),
                      [&in_pipe, stdin_copy](const boost::system::error_code&, size_t) {
                        boost::system::error_code ignored;
                        in_pipe.close(ignored);
                      });
  }
  CappedReader out(out_pipe, o.output_cap), err(err_pipe, o.output_cap);
  out.Start();
  err.Start();

  ProcessResult r;
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(o.timeout_s));
  DiskWatch disk(o);
  while (true) {
    ios.run_for(std::chrono::milliseconds(10));
    if (ios.stopped()) {
      ios.restart();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::error_code run_ec;
    if (!child.running(run_ec)) break;
    if (Clock::now() >= deadline) {
      r.timed_out = true;
      break;
    }
    r.disk_exceeded = disk.Check();
    if (!r.disk_exceeded.empty()) break;
  }
  // Whatever is left of the group (the child on a time limit, or processes
  // it left behind) is killed, so nothing outlives its evaluation.
  std::error_code kill_ec;
  group.terminate(kill_ec);
  cgroup.KillAll();
  std::error_code wait_ec;
  child.wait(wait_ec);
  // Drain what the pipes still hold.
  auto drain_until = Clock::now() + std::chrono::milliseconds(500);
  while ((!out.eof() || !err.eof()) && Clock::now() < drain_until) {
    ios.run_for(std::chrono::milliseconds(10));
    if (ios.stopped()) ios.restart();
  }
  r.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  if (!r.timed_out) DecodeStatus(child.native_exit_code(), &r);
  // What it wrote just before it ended counts too.
  if (r.disk_exceeded.empty()) r.disk_exceeded = disk.Check(/*now=*/true);
  r.out = std::move(out.data());
  r.err = std::move(err.data());
  r.out_dropped = out.dropped();
  r.err_dropped = err.dropped();
  return r;
}

struct WorkerProcess::Impl {
  asio::io_context ios;
  bp::async_pipe in_pipe{ios};
  bp::async_pipe out_pipe{ios};
  bp::async_pipe err_pipe{ios};
  bp::group group;
  bp::child child;
  asio::streambuf out_buf;
  std::array<char, 8192> err_chunk{};
  std::string err_data;
  bool dead = false;
  std::string exit_description;

  void ReadStderr() {
    err_pipe.async_read_some(asio::buffer(err_chunk), [this](const boost::system::error_code& ec,
                                                              size_t n) {
      err_data.append(err_chunk.data(), n);
      if (err_data.size() > (1u << 20)) err_data.erase(0, err_data.size() - (1u << 19));
      if (!ec) ReadStderr();
    });
  }

  void MarkDead() {
    if (dead) return;
    std::error_code ec;
    group.terminate(ec);
    child.wait(ec);
    ProcessResult r;
    DecodeStatus(child.native_exit_code(), &r);
    exit_description = r.Describe();
    dead = true;
  }
};

WorkerProcess::WorkerProcess(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WorkerProcess::~WorkerProcess() { Kill(); }

Result<std::unique_ptr<WorkerProcess>> WorkerProcess::Start(const ProcessOptions& o) {
  if (o.argv.empty()) return InvalidArgument("no program to run");
  IgnorePipeSignal();
  ARENA_ASSIGN_OR_RETURN(boost::filesystem::path exe, ResolveProgram(o.argv[0]));
  std::vector<std::string> args(o.argv.begin() + 1, o.argv.end());
  auto impl = std::make_unique<Impl>();
  std::error_code ec;
  impl->child = bp::child(exe, bp::args(args), bp::std_out > impl->out_pipe,
                          bp::std_err > impl->err_pipe, bp::std_in < impl->in_pipe,
                          BuildEnvironment(o), impl->group,
                          bp::start_dir(o.cwd.empty() ? "." : o.cwd),
                          bp::extend::on_exec_setup =
                              ChildLimits{o.memory_limit_bytes, 0, nullptr, o.isolate_network, getpid(),
                                          o.network_via_user_namespace, o.killed_first_out_of_memory},
                          ec);
  if (ec) return Unavailable("cannot start '" + o.argv[0] + "': " + ec.message());
  impl->ReadStderr();
  return std::unique_ptr<WorkerProcess>(new WorkerProcess(std::move(impl)));
}

Result<std::string> WorkerProcess::Request(const std::string& line, double timeout_s) {
  Impl& w = *impl_;
  if (w.dead) return FailedPrecondition("worker already ended: " + w.exit_description);
  boost::system::error_code wec;
  std::string msg = line + "\n";
  asio::write(w.in_pipe, asio::buffer(msg), wec);
  if (wec) {
    w.MarkDead();
    return Unavailable("worker ended (" + w.exit_description + ") before the request");
  }
  bool done = false;
  boost::system::error_code rec;
  asio::async_read_until(w.out_pipe, w.out_buf, '\n',
                         [&](const boost::system::error_code& ec, size_t) {
                           rec = ec;
                           done = true;
                         });
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(timeout_s));
  while (!done && Clock::now() < deadline) {
    w.ios.run_for(std::chrono::milliseconds(10));
    if (w.ios.stopped()) w.ios.restart();
  }
  if (!done) {
    w.out_pipe.cancel();
    w.MarkDead();
    w.exit_description = "timed out after " + SecondsText(timeout_s);
    // Run the cancelled handler so nothing refers to this frame later.
    w.ios.restart();
    w.ios.poll();
    return DeadlineExceeded("worker gave no reply within " + SecondsText(timeout_s) +
                            "; killed");
  }
  if (rec) {
    w.MarkDead();
    return Unavailable("worker ended (" + w.exit_description + ") without a reply");
  }
  std::istream in(&w.out_buf);
  std::string reply;
  std::getline(in, reply);
  return reply;
}

bool WorkerProcess::alive() const { return !impl_->dead; }

std::string WorkerProcess::StderrTail(size_t max_bytes) {
  impl_->ios.poll();
  if (impl_->ios.stopped()) impl_->ios.restart();
  const std::string& s = impl_->err_data;
  return s.size() <= max_bytes ? s : s.substr(s.size() - max_bytes);
}

void WorkerProcess::Kill() {
  if (!impl_ || impl_->dead) return;
  boost::system::error_code ec;
  impl_->in_pipe.close(ec);
  impl_->MarkDead();
  // Collect the last words on stderr.
  auto until = Clock::now() + std::chrono::milliseconds(200);
  while (Clock::now() < until) {
    impl_->ios.run_for(std::chrono::milliseconds(10));
    if (impl_->ios.stopped()) break;
  }
}

std::string WorkerProcess::ExitDescription() const { return impl_->exit_description; }

}  // namespace arena
