// Run inside a runner's sandbox by runner_sandbox_test: for each argument,
// "NAME: loaded" or "NAME: absent" (a library, by dlopen), or "PATH:
// exists" or "PATH: absent" (an absolute path), one per line.
#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a[0] == '/') {
      struct stat st;
      std::printf("%s: %s\n", a.c_str(), stat(a.c_str(), &st) == 0 ? "exists" : "absent");
    } else {
      void* h = dlopen(a.c_str(), RTLD_NOW | RTLD_LOCAL);
      std::printf("%s: %s\n", a.c_str(), h != nullptr ? "loaded" : "absent");
    }
  }
  return 0;
}
