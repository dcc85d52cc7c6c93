// The native-code guard: an rtld-audit module (LD_AUDIT) of the Triton
// runner's process, below Python. Once the runner locks it (just before a
// subject's code is loaded), every library the dynamic linker loads in the
// process, whoever asks (Python's import, ctypes, or C++ code of torch's
// calling dlopen, which raises no audit event Python can see), must be a
// file of the installation (under a root the judge named, on a read-only
// mount) or a launcher of the runner's builder (in the launchers' folder);
// anything else ends the process with kRefusedStatus and a line on its
// standard error: the subject's own native code never runs there.
//
// The environment it reads when the process starts (never again):
//   NATIVE_GUARD_ROOTS      folders of the installation, ':'-separated
//   NATIVE_GUARD_LAUNCHERS  the launchers' folder
// Without NATIVE_GUARD_ROOTS it does nothing. (Not named ARENA_*: nothing
// of the arena's own is in a subject's environment.)
//
// Locking: dlopen() of kLockPrefix followed by this library's own path. The
// guard locks (for good: nothing unlocks it) and hands the linker its own
// path, so the caller's load succeeds exactly when the guard is active and
// locked (a process without it finds no such file).
//
// Two checks, both against the file itself: before a load, the name's
// resolved path (a name the subject gave that is not allowed is refused
// there, with the reason); after it, the file the kernel says the library's
// dynamic section is mapped from (/proc/self/maps): a name whose folders the
// subject swapped between the check and the open still leaves a mapped file
// on a writable mount, which ends the process.
//
// Plain C library calls only: it runs in the linker's audit namespace,
// before the process's own C++ runtime exists.

#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>

namespace {

// Also in arena_judge.py (the runner's exit status that names the guard).
constexpr int kRefusedStatus = 86;
constexpr char kLockPrefix[] = "arena-native-lock:";
constexpr int kMaxRoots = 64;
constexpr char kPassedOver[] = "/proc/arena-native-guard/passed-over";

char g_roots[kMaxRoots][PATH_MAX];
int g_root_count = 0;
char g_launchers[PATH_MAX];
bool g_active = false;
bool g_locked = false;
char g_self[PATH_MAX];  // this library's own path, as LD_AUDIT names it

void Say(const char* a, const char* b = "", const char* c = "") {
  for (const char* s : {"arena native-code guard: ", a, b, c, "\n"}) {
    size_t n = strlen(s);
    while (n > 0) {
      ssize_t w = write(2, s, n);
      if (w <= 0) return;
      s += w;
      n -= static_cast<size_t>(w);
    }
  }
}

[[noreturn]] void Refuse(const char* what, const char* path) {
  Say("refused: ", what, path);
  _exit(kRefusedStatus);
}

// PATH is ROOT or lies inside it (both canonical).
bool Inside(const char* path, const char* root) {
  const size_t n = strlen(root);
  if (n == 0 || strncmp(path, root, n) != 0) return false;
  return path[n] == '/' || path[n] == '\0' || root[n - 1] == '/';
}

bool OnReadOnlyMount(const char* path) {
  struct statvfs s;
  return statvfs(path, &s) == 0 && (s.f_flag & ST_RDONLY) != 0;
}

// Whether a library whose file is at canonical PATH may load once locked.
bool Allowed(const char* path) {
  if (g_launchers[0] != '\0' && Inside(path, g_launchers)) return true;
  for (int i = 0; i < g_root_count; ++i) {
    if (Inside(path, g_roots[i])) return OnReadOnlyMount(path);
  }
  return false;
}

// ':'-separated folders into g_roots, each resolved (one that does not
// exist is left out: nothing loads from it).
void ReadRoots(const char* list) {
  char one[PATH_MAX];
  while (*list != '\0' && g_root_count < kMaxRoots) {
    const char* end = strchr(list, ':');
    const size_t n = end ? static_cast<size_t>(end - list) : strlen(list);
    if (n > 0 && n < sizeof(one)) {
      memcpy(one, list, n);
      one[n] = '\0';
      if (realpath(one, g_roots[g_root_count]) != nullptr) ++g_root_count;
    }
    list += n;
    if (*list == ':') ++list;
  }
}

// Parses one line of /proc/self/maps ("start-end perms offset dev inode
// path"): the path into OUT where ADDRESS lies in the range; whether it does.
bool LineMaps(char* line, uintptr_t address, char* out, size_t size, bool* named) {
  char* rest = nullptr;
  const uintptr_t start = strtoull(line, &rest, 16);
  if (rest == nullptr || *rest != '-') return false;
  const uintptr_t end = strtoull(rest + 1, &rest, 16);
  if (address < start || address >= end) return false;
  // Four more fields, then the path (which may hold spaces).
  char* p = rest;
  for (int field = 0; field < 4; ++field) {
    while (*p == ' ') ++p;
    while (*p != ' ' && *p != '\0') ++p;
  }
  while (*p == ' ') ++p;
  *named = *p != '\0' && strlen(p) < size;
  if (*named) strcpy(out, p);
  return true;
}

// The file mapped at ADDRESS, as the kernel names it, into OUT; false where
// the address is in no file's mapping (or the table cannot be read).
bool MappedFileAt(uintptr_t address, char* out, size_t size) {
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  // A line is at most a path (PATH_MAX) and a hundred characters.
  static char buffer[4 * PATH_MAX];
  size_t held = 0;
  bool ended = false, named = false, found = false;
  while (!found) {
    char* newline = static_cast<char*>(memchr(buffer, '\n', held));
    if (newline == nullptr && !ended && held < sizeof(buffer) - 1) {
      const ssize_t got = read(fd, buffer + held, sizeof(buffer) - 1 - held);
      if (got < 0) break;
      if (got == 0) ended = true;
      held += static_cast<size_t>(got);
      continue;
    }
    if (newline == nullptr) {
      if (held == 0) break;
      newline = buffer + held;  // the last line, or one too long: read as it is
    }
    *newline = '\0';
    found = LineMaps(buffer, address, out, size, &named);
    const size_t used = std::min(held, static_cast<size_t>(newline - buffer) + 1);
    memmove(buffer, buffer + used, held - used);
    held -= used;
  }
  close(fd);
  return found && named;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) unsigned int la_version(unsigned int version) {
  const char* roots = getenv("NATIVE_GUARD_ROOTS");
  if (roots != nullptr && *roots != '\0') {
    ReadRoots(roots);
    const char* launchers = getenv("NATIVE_GUARD_LAUNCHERS");
    if (launchers != nullptr && strlen(launchers) < sizeof(g_launchers)) strcpy(g_launchers, launchers);
    g_active = true;
  }
  // This library's own path: the entry of LD_AUDIT that names it.
  const char* audit = getenv("LD_AUDIT");
  while (audit != nullptr && *audit != '\0') {
    const char* end = strpbrk(audit, ":");
    const size_t n = end ? static_cast<size_t>(end - audit) : strlen(audit);
    if (n < sizeof(g_self) && memmem(audit, n, "libarena_native_guard", 21) != nullptr) {
      memcpy(g_self, audit, n);
      g_self[n] = '\0';
      break;
    }
    audit = end ? end + 1 : nullptr;
  }
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

__attribute__((visibility("default"))) unsigned int la_objopen(struct link_map* map, Lmid_t lmid,
                                                               uintptr_t* cookie) {
  if (!g_locked) return 0;
  char file[PATH_MAX];
  if (!MappedFileAt(reinterpret_cast<uintptr_t>(map->l_ld), file, sizeof(file))) {
    Refuse("a library mapped from no file: ", map->l_name ? map->l_name : "");
  }
  if (strcmp(file, "[vdso]") == 0) return 0;
  if (!Allowed(file)) Refuse("native code from outside the installation: ", file);
  return 0;
}

__attribute__((visibility("default"))) char* la_objsearch(const char* name, uintptr_t* cookie,
                                                          unsigned int flag) {
  if (!g_active) return const_cast<char*>(name);
  if (flag == LA_SER_ORIG && strncmp(name, kLockPrefix, sizeof(kLockPrefix) - 1) == 0) {
    // Only the runner's own start asks for this (the subject's code cannot
    // load anything before it): from here on, the rule holds.
    g_locked = true;
    if (g_self[0] == '\0' || strcmp(name + sizeof(kLockPrefix) - 1, g_self) != 0) return nullptr;
    return g_self;
  }
  if (!g_locked) return const_cast<char*>(name);
  // A bare name is searched for: each place tried comes back here.
  if (flag == LA_SER_ORIG && strchr(name, '/') == nullptr) return const_cast<char*>(name);
  char real[PATH_MAX];
  // A file that is not there is left for the open to miss (one that
  // appears before it is checked once mapped).
  if (realpath(name, real) == nullptr) return const_cast<char*>(name);
  if (Allowed(real)) return const_cast<char*>(name);
  // A place of a search outside the installation is passed over: a name
  // no file has, so that the search goes on (the linker takes no answer
  // as the search's end).
  if (flag != LA_SER_ORIG) return const_cast<char*>(kPassedOver);
  Refuse("native code from outside the installation: ", real);
}

}  // extern "C"
