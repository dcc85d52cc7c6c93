#include "plugins/common/hip/runner/runner_client.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <thread>

#include "core/process.h"

namespace arena::hip2hip {
namespace {

constexpr rlim_t kLogCap = 8 << 20;

// Whether this kernel lists a thread's children in /proc (CONFIG_PROC_CHILDREN).
bool ChildrenListed() {
  static const bool listed = [] {
    const std::string self = "/proc/" + std::to_string(getpid()) + "/task/" + std::to_string(getpid()) + "/children";
    return access(self.c_str(), R_OK) == 0;
  }();
  return listed;
}

// /proc/PID/task/TID of every thread of `pid` (none once it ended).
std::vector<std::string> ThreadDirs(pid_t pid) {
  const std::string task = "/proc/" + std::to_string(pid) + "/task";
  std::vector<std::string> dirs;
  if (DIR* d = opendir(task.c_str())) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') dirs.push_back(task + "/" + e->d_name);
    }
    closedir(d);
  }
  return dirs;
}

// The fields of a /proc stat file after the name, which is in parentheses
// (state, parent, ...); empty once the process or thread ended.
std::string StatFields(const std::string& path) {
  std::ifstream f(path);
  const std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() ? std::string() : stat.substr(close + 2);
}

// The children of every thread of `pid`, from /proc/PID/task/TID/children
// (a thread or process that ended meanwhile has none).
void ChildrenOf(pid_t pid, std::vector<pid_t>* out) {
  for (const std::string& thread : ThreadDirs(pid)) {
    std::ifstream f(thread + "/children");
    for (long child; f >> child;) out->push_back(static_cast<pid_t>(child));
  }
}

// Every process's children, from every process's parent in /proc (for a
// kernel without children lists).
std::map<pid_t, std::vector<pid_t>> ChildrenByParent() {
  std::map<pid_t, std::vector<pid_t>> children;
  if (DIR* d = opendir("/proc")) {
    while (dirent* e = readdir(d)) {
      char* end = nullptr;
      const long pid = std::strtol(e->d_name, &end, 10);
      if (end == e->d_name || *end != '\0') continue;
      std::istringstream rest(StatFields("/proc/" + std::string(e->d_name) + "/stat"));
      std::string state;
      long ppid = 0;
      if (rest >> state >> ppid) children[static_cast<pid_t>(ppid)].push_back(static_cast<pid_t>(pid));
    }
    closedir(d);
  }
  return children;
}

// Every process below `root` (the sandbox's PID namespace hides them from
// each other, not from the judge): followed through the children files,
// or, where there are none, from every process's parent in /proc.
std::vector<pid_t> Tree(pid_t root) {
  const bool listed = ChildrenListed();
  std::map<pid_t, std::vector<pid_t>> by_parent;
  if (!listed) by_parent = ChildrenByParent();
  std::vector<pid_t> tree, todo{root};
  while (!todo.empty()) {
    const pid_t p = todo.back();
    todo.pop_back();
    tree.push_back(p);
    if (listed) {
      ChildrenOf(p, &todo);
    } else if (auto it = by_parent.find(p); it != by_parent.end()) {
      todo.insert(todo.end(), it->second.begin(), it->second.end());
    }
  }
  return tree;
}

// Until every thread of `pids` is stopped (a signal is delivered, not
// waited for: a thread running on another core goes on for a moment), or
// `limit` passed.
void WaitStopped(const std::vector<pid_t>& pids, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (pid_t p : pids) {
    for (const std::string& thread : ThreadDirs(p)) {
      while (std::chrono::steady_clock::now() < deadline) {
        const std::string fields = StatFields(thread + "/stat");
        if (fields.empty()) break;  // gone
        if (fields[0] == 'T' || fields[0] == 't' || fields[0] == 'Z' || fields[0] == 'X') break;
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }
  }
}

// A thread of `pids` that is neither stopped nor ended nor in an
// uninterruptible wait (which it leaves only to stop: a pending stop is
// taken before any of its own code runs), as "thread TID (state S)"; ""
// if none. One that runs or sleeps on after its stop had time to take
// effect evaded it: its tracer let the stop go (ptrace), say.
std::string NotStopped(const std::vector<pid_t>& pids) {
  for (pid_t p : pids) {
    for (const std::string& thread : ThreadDirs(p)) {
      const std::string fields = StatFields(thread + "/stat");
      if (!fields.empty() && (fields[0] == 'R' || fields[0] == 'S')) {
        return "thread " + thread.substr(thread.rfind('/') + 1) + " (state " + fields[0] + ")";
      }
    }
  }
  return "";
}

uint64_t TickNs() {
  static const uint64_t tick_ns = 1000000000ULL / static_cast<uint64_t>(std::max(1L, sysconf(_SC_CLK_TCK)));
  return tick_ns;
}

// The time every thread of `pids` has run on a CPU, in nanoseconds (each
// process's CPU-time clock; where it cannot be read, its threads'
// schedstat, or, where the kernel keeps none, their stat file's user and
// system time, in clock ticks: then `coarse`, where given, is set).
uint64_t CpuNs(const std::vector<pid_t>& pids, bool* coarse = nullptr) {
  const uint64_t tick_ns = TickNs();
  uint64_t ns = 0;
  for (pid_t p : pids) {
    // The process's CPU-time clock first (one system call, its ended
    // threads' time included, readable for any process).
    clockid_t clock;
    timespec t{};
    if (clock_getcpuclockid(p, &clock) == 0 && clock_gettime(clock, &t) == 0) {
      ns += static_cast<uint64_t>(t.tv_sec) * 1000000000ULL + static_cast<uint64_t>(t.tv_nsec);
      continue;
    }
    for (const std::string& thread : ThreadDirs(p)) {
      std::ifstream sched(thread + "/schedstat");
      uint64_t on_cpu = 0;
      if (sched >> on_cpu) {
        ns += on_cpu;
        continue;
      }
      std::istringstream fields(StatFields(thread + "/stat"));
      std::string field;
      uint64_t user = 0, system = 0;
      for (int i = 3; i <= 15 && fields >> field; ++i) {  // fields 14 and 15 (utime, stime)
        if (i == 14) user = std::strtoull(field.c_str(), nullptr, 10);
        if (i == 15) system = std::strtoull(field.c_str(), nullptr, 10);
      }
      ns += (user + system) * tick_ns;
      if (coarse != nullptr) *coarse = true;
    }
  }
  return ns;
}

// CpuNs of a tree just stopped, once it has settled. A thread's account
// is brought up to date as it leaves a CPU (and at the scheduler's ticks),
// and a thread already marked stopped can still be on one for a moment:
// read then, its last stretch of running is missing, and shows up later as
// time run while stopped (an honest runner was charged 0.5 and 1.3 ms so in
// docs/results/hip-trials-h200-2026-12-07/). Read until two readings 200 us
// apart agree, or `limit` passed.
uint64_t SettledCpuNs(const std::vector<pid_t>& pids, bool* coarse, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  uint64_t last = CpuNs(pids, coarse);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    const uint64_t now = CpuNs(pids, coarse);
    if (now == last) break;
    last = now;
  }
  return last;
}

// How many times the thread at `thread` (/proc/PID/task/TID) was put on
// a CPU (schedstat's third field), or, where the kernel keeps no
// schedstat, how many times it left one (status's context switches); -1
// once it ended. Both only grow, and a stopped thread's stand still: the
// kernel puts a stopped thread on a CPU again only once it is continued
// (SIGCONT) or killed.
int64_t Slices(const std::string& thread) {
  {
    std::ifstream sched(thread + "/schedstat");
    uint64_t on_cpu = 0, waited = 0;
    int64_t slices = 0;
    if (sched >> on_cpu >> waited >> slices) return slices;
  }
  std::ifstream status(thread + "/status");
  if (!status) return -1;
  int64_t switches = 0;
  bool any = false;
  for (std::string line; std::getline(status, line);) {
    for (const char* key : {"voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:"}) {
      if (line.rfind(key, 0) == 0) {
        switches += std::strtoll(line.c_str() + std::strlen(key), nullptr, 10);
        any = true;
      }
    }
  }
  return any ? switches : -1;
}

// Whether the thread at `thread` waits off every CPU's run queue: its
// wchan names where it sleeps. A thread is marked stopped before it leaves
// its CPU, and one preempted in between waits on a run queue, marked
// stopped, to be put on a CPU once more to leave it: its wchan is "0"
// (Linux 5.16 on), as it is where the judge may not read it.
bool OffTheRunQueue(const std::string& thread) {
  std::ifstream f(thread + "/wchan");
  std::string where;
  return (f >> where) && where != "0";
}

// Every thread of `pids` that is stopped now, off the run queue, with its
// Slices.
std::map<std::string, int64_t> StoppedSlices(const std::vector<pid_t>& pids) {
  std::map<std::string, int64_t> stopped;
  for (pid_t p : pids) {
    for (const std::string& thread : ThreadDirs(p)) {
      const std::string fields = StatFields(thread + "/stat");
      if (fields.empty() || (fields[0] != 'T' && fields[0] != 't') || !OffTheRunQueue(thread)) continue;
      if (const int64_t slices = Slices(thread); slices >= 0) stopped[thread] = slices;
    }
  }
  return stopped;
}

}  // namespace

Status RunnerClient::Start(double timeout_s) {
  ARENA_RETURN_IF_ERROR(Launch());
  return AwaitReady(timeout_s);
}

Status RunnerClient::Launch() {
  Stop();
  ready_ = false;
  if (argv_.empty()) return InvalidArgument(subject_ + ": no runner command");
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return Internal(std::string("socketpair: ") + std::strerror(errno));
  }
  const int log = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  std::vector<char*> args;
  for (auto& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  char path_env[] = "PATH=/usr/bin:/bin";
  char* env[] = {path_env, nullptr};
  const pid_t judge = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    if (log >= 0) close(log);
    return Internal(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    setsid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != judge) _exit(127);
    // A runner has no memory limit (see its sandbox).
    KilledFirstOutOfMemory();
    dup2(sv[1], 0);
    if (log >= 0) {
      dup2(log, 1);
      dup2(log, 2);
    }
    rlimit fsize{kLogCap, kLogCap}, core{0, 0};
    setrlimit(RLIMIT_FSIZE, &fsize);
    setrlimit(RLIMIT_CORE, &core);
    const long max_fd = std::min<long>(sysconf(_SC_OPEN_MAX), 65536);
    for (long fd = 3; fd < max_fd; ++fd) close(static_cast<int>(fd));
    execve(args[0], args.data(), env);
    _exit(127);
  }
  close(sv[1]);
  if (log >= 0) close(log);
  pid_ = pid;
  reaped_ = false;
  channel_ = std::make_unique<Channel>(sv[0]);
  channel_->set_spin_s(spin_s_);
  return OkStatus();
}

Status RunnerClient::AwaitReady(double timeout_s) {
  if (ready_) return OkStatus();
  if (channel_ == nullptr) return FailedPrecondition(subject_ + ": runner not launched");
  auto ready = channel_->Receive(timeout_s);
  if (!ready.ok()) return Failure("runner did not start: " + ready.status().message());
  for (int fd : ready->fds) close(fd);
  if (!ready->body.value("ok", false)) {
    const std::string why = ready->body.value("why", std::string("no reason given"));
    Stop();
    return FailedPrecondition(subject_ + ": " + why);
  }
  ready_ = true;
  return OkStatus();
}

void RunnerClient::Stop() {
  if (pid_ > 0) {
    Freeze(false);
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    if (!reaped_) {
      waitpid(pid_, &status_, 0);
      reaped_ = true;
    }
  }
  pid_ = -1;
  ready_ = false;
  frozen_.clear();
  channel_.reset();
  ReleaseSlab();
}

void RunnerClient::Kill() {
  if (pid_ > 0 && !reaped_) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
  }
}

void RunnerClient::ReleaseSlab() {
  if (vmm_ != nullptr && slab_.ptr != 0) vmm_->Release(slab_);
  slab_ = VmmMemory{};
}

bool RunnerClient::alive() {
  if (pid_ <= 0 || reaped_) return false;
  if (waitpid(pid_, &status_, WNOHANG) == pid_) {
    reaped_ = true;
    return false;
  }
  return true;
}

std::string RunnerClient::ExitDescription() {
  if (pid_ <= 0) return "not running";
  if (alive()) return "";
  if (WIFEXITED(status_)) return "exited with status " + std::to_string(WEXITSTATUS(status_));
  if (WIFSIGNALED(status_)) return std::string("killed by ") + strsignal(WTERMSIG(status_));
  return "ended";
}

std::string RunnerClient::LogTail(size_t max_bytes) const {
  std::ifstream f(log_path_, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (text.size() > max_bytes) text = text.substr(text.size() - max_bytes);
  return text;
}

Status RunnerClient::Failure(const std::string& what) {
  std::string message = subject_ + ": " + what;
  // A runner that broke the channel may still be dying: give it a moment
  // so that its exit (a signal, a status) is what the message says.
  for (int i = 0; i < 20 && alive(); ++i) usleep(5000);
  const std::string exit = ExitDescription();
  if (!exit.empty()) message += " (the runner " + exit + ")";
  Stop();
  return Unavailable(message);
}

Result<nlohmann::json> RunnerClient::Request(const nlohmann::json& req, double timeout_s,
                                             const std::vector<int>& fds) {
  if (channel_ == nullptr) return Unavailable(subject_ + ": the runner is not running");
  if (!ready_) return FailedPrecondition(subject_ + ": the runner's start not awaited");
  if (Status s = channel_->Send(req, fds); !s.ok()) return Failure("the runner's channel: " + s.message());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  const std::string op = req.value("op", "");
  int splits = 0;
  int64_t last_pause = -1;
  Result<Channel::Message> m = channel_->Receive(timeout_s);
  // A witness first (runner.cc): a pause after an eager call of a request
  // of several sets, the end of a replay's first part; each answered once
  // the judge's handler for it has returned.
  while (m.ok() && m->fds.empty() && m->body.size() == 1 &&
         (m->body.contains("pause") || m->body.contains("split"))) {
    const bool split = m->body.contains("split");
    const nlohmann::json& call = m->body.begin().value();
    // A pause follows a call of the request's, each call's once, in order.
    if (!call.is_number_integer() ||
        (split ? op != "replay" || ++splits > 1
               : op != "call" || req.value("sets", 0) < 2 || call.get<int64_t>() <= last_pause ||
                     call.get<int64_t>() >= req.value("sets", int64_t{0}))) {
      return Failure("broke the protocol: a witness out of place (" + m->body.dump().substr(0, 200) + ")");
    }
    if (!split) last_pause = call.get<int64_t>();
    const std::function<void(int64_t)>& handler = split ? on_split : on_pause;
    if (handler) handler(call.get<int64_t>());
    if (Status s = channel_->Send({{"op", split ? "go" : "resume"}}); !s.ok()) {
      return Failure("the runner's channel: " + s.message());
    }
    m = channel_->Receive(
        std::max(0.0, std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count()));
  }
  if (!m.ok()) {
    if (m.status().code() == StatusCode::kDeadlineExceeded) {
      Stop();
      char within[32];
      std::snprintf(within, sizeof(within), "%.1f", timeout_s);
      return DeadlineExceeded(subject_ + ": no answer within " + within + " s (hung or too slow)");
    }
    if (m.status().code() == StatusCode::kDataLoss) {
      return Failure("broke the protocol: " + m.status().message());
    }
    return Failure("the runner is gone: " + m.status().message());
  }
  for (int fd : m->fds) close(fd);
  if (!m->fds.empty()) return Failure("broke the protocol: sent descriptors");
  const nlohmann::json& body = m->body;
  bool runners = body.contains("ok") && body["ok"].is_boolean();
  const bool observe = req.value("op", "") == "observe";
  for (const auto& [key, value] : body.items()) {
    bool known = key == "ok" || (key == "why" && value.is_string());
    if (observe) {
      known |= (key == "launches" || key == "graph_launches") && value.is_number_integer();
      known |= key == "unobserved" && value.is_string();
      if (key == "findings" && value.is_array() && value.size() <= 64) {
        known = true;
        for (const auto& f : value) known &= f.is_string() && f.get_ref<const std::string&>().size() <= 4096;
      }
    }
    runners &= known;
  }
  if (!runners) {
    return Failure("broke the protocol: an answer that is not a runner's");
  }
  return body;
}

void RunnerClient::Freeze(bool stopped) {
  if (!alive()) return;
  if (stopped || frozen_.empty()) frozen_ = Tree(pid_);
  for (pid_t p : frozen_) kill(p, stopped ? SIGSTOP : SIGCONT);
  if (stopped) {
    // A process forked after the tree was read, by one not yet stopped,
    // would never be: once what was read has stopped, the tree is read
    // again and what is new stopped, until nothing is (a stopped process
    // forks nothing).
    std::vector<pid_t> fresh = frozen_;
    for (int pass = 0; pass < 64 && !fresh.empty(); ++pass) {
      WaitStopped(fresh, std::chrono::milliseconds(200));
      fresh.clear();
      for (pid_t p : Tree(pid_)) {
        if (std::find(frozen_.begin(), frozen_.end(), p) == frozen_.end()) fresh.push_back(p);
      }
      for (pid_t p : fresh) kill(p, SIGSTOP);
      frozen_.insert(frozen_.end(), fresh.begin(), fresh.end());
    }
    // Every thread stopped by now, or in an uninterruptible wait; one that
    // is not gets a second more.
    not_stopped_ = NotStopped(frozen_);
    if (!not_stopped_.empty()) {
      WaitStopped(frozen_, std::chrono::milliseconds(1000));
      not_stopped_ = NotStopped(frozen_);
    }
    stopped_coarse_ = false;
    const std::vector<pid_t> tree = Tree(pid_);
    stopped_cpu_ns_ = SettledCpuNs(tree, &stopped_coarse_, std::chrono::milliseconds(20));
    stopped_slices_ = StoppedSlices(tree);
    tally_.fewest_counted =
        tally_.stops == 0 ? stopped_slices_.size() : std::min(tally_.fewest_counted, stopped_slices_.size());
    ++tally_.stops;
  }
  if (!stopped) {
    frozen_.clear();
    stopped_slices_.clear();
    not_stopped_.clear();
  }
}

RunnerClient::StopTally RunnerClient::TakeStopTally() {
  const StopTally t = tally_;
  tally_ = StopTally();
  return t;
}

std::string RunnerClient::RanWhileStopped() {
  if (frozen_.empty() || !alive()) return "";
  const std::string ran = "tampering: " + subject_ + "'s runner ran while it was stopped (";
  const std::string why =
      "): a process that resumes itself (a timer's SIGCONT) works while the other subject is timed";
  // A process the stopped tree did not hold: something in it forked.
  const std::vector<pid_t> tree = Tree(pid_);
  for (pid_t p : tree) {
    if (std::find(frozen_.begin(), frozen_.end(), p) == frozen_.end()) return ran + "a process was started in it" + why;
  }
  // A thread that did not stop, then or now.
  if (const std::string lag = !not_stopped_.empty() ? not_stopped_ : NotStopped(tree); !lag.empty()) {
    return ran + "it never stopped: " + lag + why;
  }
  bool coarse = stopped_coarse_;
  const uint64_t now = CpuNs(tree, &coarse);
  // Counted in clock ticks, a tree that ran up to the stop can be charged
  // one more tick as the kernel settles its account: the slack is then
  // the counter's own step too.
  const uint64_t slack = kStoppedSlackNs + (coarse ? TickNs() : 0);
  if (now > stopped_cpu_ns_) {
    tally_.most_ns_while_stopped = std::max(tally_.most_ns_while_stopped, now - stopped_cpu_ns_);
  }
  if (now > stopped_cpu_ns_ + slack) {
    char ms[64];
    std::snprintf(ms, sizeof(ms), "%.1f ms", static_cast<double>(now - stopped_cpu_ns_) / 1e6);
    return ran + ms + " on a CPU" + why;
  }
  // Time on a CPU under the slack is still running: one resumed for a
  // moment to queue work on the GPU, and stopped again, is put on a CPU at
  // least once, which a thread that stayed stopped never is. A stopped
  // thread that ended ran too (it was continued or killed, and the judge
  // kills none while the runner lives).
  int scheduled = 0, ended = 0;
  for (const auto& [thread, slices] : stopped_slices_) {
    const int64_t later = Slices(thread);
    if (later < 0) {
      ++ended;
    } else if (later != slices) {
      ++scheduled;
    }
  }
  if (scheduled == 0 && ended == 0) return "";
  if (!alive()) return "";  // the whole runner ended meanwhile: its exit tells
  std::string what;
  if (scheduled > 0) what = std::to_string(scheduled) + " of its stopped threads put on a CPU again";
  if (ended > 0) what += (what.empty() ? "" : ", ") + std::to_string(ended) + " of them ended";
  return ran + what + why;
}

namespace {

// The pieces lent memory comes in for slabs of `bytes`: Vmm::PieceFor, or
// $ARENA_LEND_PIECE_BYTES (as the Triton judge reads it; 0: one
// allocation a slab, as before pieces).
size_t LendPiece(const Vmm& vmm, size_t bytes) {
  const char* env = std::getenv("ARENA_LEND_PIECE_BYTES");
  if (env == nullptr || *env == '\0') return vmm.PieceFor(bytes);
  const unsigned long long piece = std::strtoull(env, nullptr, 10);
  return piece == 0 ? bytes : std::max<size_t>(piece, (bytes + Vmm::kMaxPieces - 1) / Vmm::kMaxPieces);
}

}  // namespace

Status RunnerClient::Unlend(double timeout_s) {
  if (slab_.ptr == 0) return OkStatus();
  ARENA_ASSIGN_OR_RETURN(nlohmann::json r, Request({{"op", "unbind"}, {"id", slab_id_}}, timeout_s));
  ReleaseSlab();
  together_ = 0;
  return OkStatus();
}

Status RunnerClient::Reserve(const Vmm& vmm, size_t bytes, double timeout_s) {
  if (slab_.ptr != 0 && slab_.size >= bytes) return OkStatus();  // however it was made
  RunnerClient* failed = nullptr;
  return ReserveTogether({this}, vmm, bytes, timeout_s, &failed);
}

Status RunnerClient::ReserveTogether(const std::vector<RunnerClient*>& runners, const Vmm& vmm, size_t bytes,
                                     double timeout_s, RunnerClient** failed) {
  *failed = nullptr;
  bool fit = !runners.empty();
  for (RunnerClient* r : runners) {
    fit = fit && r->slab_.ptr != 0 && r->slab_.size >= bytes && r->together_ != 0 &&
          r->together_ == runners.front()->together_;
  }
  if (fit) return OkStatus();
  for (RunnerClient* r : runners) {
    *failed = r;
    ARENA_RETURN_IF_ERROR(r->Unlend(timeout_s));
  }
  *failed = nullptr;
  // Grown by half again, so that a sequence of growing configurations
  // lends memory a few times, not every time.
  const size_t want = bytes + bytes / 2;
  ARENA_ASSIGN_OR_RETURN(std::vector<VmmMemory> slabs,
                         vmm.CreateTogether(std::vector<size_t>(runners.size(), want), LendPiece(vmm, want)));
  static std::atomic<uint64_t> lendings{0};
  const uint64_t together = ++lendings;
  for (size_t i = 0; i < runners.size(); ++i) {
    runners[i]->vmm_ = &vmm;
    runners[i]->slab_ = std::move(slabs[i]);
    runners[i]->together_ = together;
  }
  for (RunnerClient* r : runners) {
    *failed = r;
    ARENA_RETURN_IF_ERROR(r->Lend(timeout_s));
  }
  *failed = nullptr;
  return OkStatus();
}

Status RunnerClient::Lend(double timeout_s) {
  // Its pieces' descriptors, a message's worth at a time (the runner maps
  // the slab once the last has come).
  ++slab_id_;
  for (size_t first = 0; first < slab_.pieces.size(); first += Channel::kMaxFds) {
    auto fds = vmm_->Export(slab_, first, Channel::kMaxFds);
    if (!fds.ok()) {
      ReleaseSlab();
      return fds.status();
    }
    auto r = Request({{"op", "bind"}, {"id", slab_id_}, {"size", slab_.size}, {"piece", slab_.piece}}, timeout_s,
                     *fds);
    for (int fd : *fds) close(fd);
    if (!r.ok()) return r.status();
    if (!r->value("ok", false)) {
      ReleaseSlab();
      return Internal(subject_ + ": cannot lend memory: " + r->value("why", std::string()));
    }
  }
  return OkStatus();
}

}  // namespace arena::hip2hip
