// A process for native_guard_test: runs its arguments in order and says
// what each did, one line each, on its standard output.
//   copy:FROM:TO   copies a file (mode 0755)
//   load:PATH      dlopen(PATH): "loaded PATH" or "failed PATH"
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

bool Copy(const std::string& from, const std::string& to) {
  const int in = open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return false;
  const int out = open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  bool ok = out >= 0;
  char buffer[1 << 16];
  ssize_t got;
  while (ok && (got = read(in, buffer, sizeof(buffer))) > 0) ok = write(out, buffer, got) == got;
  close(in);
  if (out >= 0) close(out);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("copy:", 0) == 0) {
      const std::string rest = arg.substr(5);
      const size_t colon = rest.find(':');
      const bool ok = colon != std::string::npos && Copy(rest.substr(0, colon), rest.substr(colon + 1));
      std::printf("%s %s\n", ok ? "copied" : "not-copied", rest.c_str());
    } else if (arg.rfind("load:", 0) == 0) {
      void* handle = dlopen(arg.c_str() + 5, RTLD_NOW | RTLD_LOCAL);
      std::printf("%s %s\n", handle ? "loaded" : "failed", arg.c_str() + 5);
    } else {
      std::printf("unknown %s\n", arg.c_str());
      return 2;
    }
    std::fflush(stdout);
  }
  return 0;
}
