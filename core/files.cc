#include "core/files.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <vector>

namespace arena {
namespace fs = std::filesystem;

Status WriteFileAtomic(const std::string& path, const std::string& contents) {
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  std::random_device rd;
  std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(rd());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Internal(path + ": cannot create: " + strerror(errno));
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Internal(path + ": write failed: " + strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    return Internal(path + ": fsync failed");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return Internal(path + ": rename failed: " + strerror(errno));
  }
  return OkStatus();
}

int RemoveStaleTemporaries(const std::string& dir) {
  // WriteFileAtomic's temporaries: "<path>.tmp.<pid>.<random>".
  static const std::regex kTemporary(R"(.+\.tmp\.(\d+)\.\d+)");
  int removed = 0;
  std::error_code ec;
  std::vector<fs::path> stale;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it); it.increment(ec)) {
    std::smatch m;
    const std::string name = it->path().filename().string();
    if (!it->is_regular_file() || !std::regex_match(name, m, kTemporary)) continue;
    const long pid = std::stol(m[1]);
    // A live writer (this process's other threads included) is left alone.
    if (pid == getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    stale.push_back(it->path());
  }
  for (const auto& p : stale) removed += fs::remove(p, ec) ? 1 : 0;
  return removed;
}

namespace {

std::string PidNamespace() {
  std::error_code ec;
  const std::string link = fs::read_symlink("/proc/self/ns/pid", ec).string();  // "pid:[4026531836]"
  std::string digits;
  for (char c : link) {
    if (c >= '0' && c <= '9') digits += c;
  }
  return digits.empty() ? "0" : digits;
}

}  // namespace

std::string ScratchName(const std::string& what) {
  return "arena-" + what + "-" + std::to_string(getpid()) + "-" + PidNamespace();
}

int RemoveOrphanedScratch(const std::string& dir) {
  static const std::regex kScratch(R"(arena-[a-z]+-(\d+)-(\d+)(-.*)?)");
  const std::string ours = PidNamespace();
  std::error_code ec;
  std::vector<fs::path> orphaned;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::smatch m;
    const std::string name = it->path().filename().string();
    if (!std::regex_match(name, m, kScratch) || m[2].str() != ours ||
        fs::is_symlink(it->symlink_status(ec)) || !it->is_directory(ec)) {
      continue;
    }
    const long pid = std::stol(m[1].str().substr(0, 9));
    if (pid == getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    orphaned.push_back(it->path());
  }
  int removed = 0;
  for (const auto& p : orphaned) removed += fs::remove_all(p, ec) > 0 ? 1 : 0;
  return removed;
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot open");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status CopyFile(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::path dst(to);
  if (dst.has_parent_path()) fs::create_directories(dst.parent_path(), ec);
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) return Internal("copy " + from + " -> " + to + ": " + ec.message());
  return OkStatus();
}

Status CopyTree(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) return Internal(to + ": " + ec.message());
  for (auto it = fs::recursive_directory_iterator(from, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) return Internal(from + ": " + ec.message());
    fs::path rel = it->path().lexically_relative(from);
    fs::path dst = fs::path(to) / rel;
    if (it->is_symlink()) {
      // Runfiles trees are made of links: follow them to regular files only.
      fs::path resolved = fs::canonical(it->path(), ec);
      if (ec || !fs::is_regular_file(resolved)) continue;
      ARENA_RETURN_IF_ERROR(CopyFile(resolved.string(), dst.string()));
    } else if (it->is_directory()) {
      fs::create_directories(dst, ec);
    } else if (it->is_regular_file()) {
      ARENA_RETURN_IF_ERROR(CopyFile(it->path().string(), dst.string()));
    }
  }
  return OkStatus();
}

namespace {

// `from`'s regular files and folders at `to` (links and the rest left out).
bool CopyPlain(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(from, ec);
  if (ec) return false;
  if (fs::is_regular_file(st)) return fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec) && !ec;
  if (!fs::is_directory(st)) return true;
  if (!fs::create_directory(to, ec) && ec) return false;
  for (auto it = fs::directory_iterator(from, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (!CopyPlain(it->path(), to / it->path().filename())) return false;
  }
  return !ec;
}

}  // namespace

int AddMissingEntries(const std::string& from, const std::string& to) {
  std::error_code ec;
  if (!fs::is_directory(from, ec) || !fs::is_directory(to, ec)) return 0;
  int added = 0;
  for (auto it = fs::directory_iterator(from, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code e;
    const fs::path dest = fs::path(to) / name;
    if (fs::exists(fs::symlink_status(dest, e))) continue;
    const fs::path temp = fs::path(to) / ("." + name + ".copy-" + std::to_string(getpid()));
    fs::remove_all(temp, e);
    if (CopyPlain(it->path(), temp)) {
      fs::rename(temp, dest, e);
      added += e ? 0 : 1;
    }
    fs::remove_all(temp, e);
  }
  return added;
}

Status MakeDirs(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Internal(path + ": " + ec.message());
  return OkStatus();
}

Status RemoveTree(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) return Internal(path + ": " + ec.message());
  return OkStatus();
}

Status ResetDir(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(path, ec))) {
    // Emptied in place: a sandbox may have this very folder bound.
    for (const auto& e : fs::directory_iterator(path, ec)) fs::remove_all(e.path(), ec);
    if (ec) return Internal(path + ": " + ec.message());
    return OkStatus();
  }
  ARENA_RETURN_IF_ERROR(RemoveTree(path));
  return MakeDirs(path);
}

Result<std::vector<std::string>> CopyRegularFiles(const std::string& from,
                                                  const std::vector<std::string>& files,
                                                  const std::string& to) {
  std::vector<std::string> missing;
  for (const auto& rel : files) {
    const fs::path src = fs::path(from) / rel;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(src, ec)) || !fs::is_regular_file(src, ec)) {
      missing.push_back(rel);
      continue;
    }
    ARENA_RETURN_IF_ERROR(CopyFile(src.string(), (fs::path(to) / rel).string()));
  }
  return missing;
}

std::string TaskIdToFileName(const std::string& task_id) {
  std::string out;
  for (char c : task_id) {
    if (c == '/') out += "__";
    else out += c;
  }
  return out;
}

std::string UserCacheDir(const char* env_var, const std::string& what) {
  if (const char* v = std::getenv(env_var); v != nullptr && *v) {
    return std::string(v) == "off" ? "" : v;
  }
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x) {
    return (fs::path(x) / "arena" / what).string();
  }
  if (const char* h = std::getenv("HOME"); h != nullptr && *h) {
    return (fs::path(h) / ".cache/arena" / what).string();
  }
  return "";
}

}  // namespace arena
