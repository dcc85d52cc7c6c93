// Probes the sandbox: reads host secrets, the judge's files and memory,
// connects to the host, writes outside its folder. It computes correctly
// only when every probe fails, so "passed" means the sandbox held; else
// arena_run returns 10 + the number of the first probe that got through.
// expect: passed
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "arena_hip.h"

__global__ void silu_mul_kernel(const __half* a, const __half* b, __half* y, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float av = __half2float(a[i]);
    float bv = __half2float(b[i]);
    y[i] = __float2half(av / (1.0f + expf(-av)) * bv);
  }
}

static int Launch(const ArenaTensor* in, ArenaTensor* out, hipStream_t stream) {
  const long long n = in[0].numel;
  hipLaunchKernelGGL(silu_mul_kernel, dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream,
                     static_cast<const __half*>(in[0].data), static_cast<const __half*>(in[1].data),
                     static_cast<__half*>(out[0].data), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cstdlib>
#include <cstring>
// The first probe that got through (its number), or 0.
static int Leaks() {
  for (const char* p : {"/etc/shadow", "/root/.bash_history", "/home", "/runs"}) {
    int fd = open(p, O_RDONLY);
    if (fd >= 0) {
      char c;
      bool got = read(fd, &c, 1) == 1;
      close(fd);
      if (got) return 1;
    }
  }
  // The environment of the sandbox's first process: the sandbox's own
  // few variables at most, nothing of the arena's.
  if (int fd = open("/proc/1/environ", O_RDONLY); fd >= 0) {
    char env[8192];
    const ssize_t n = read(fd, env, sizeof(env) - 1);
    close(fd);
    for (ssize_t at = 0; n > 0 && at < n; at += static_cast<ssize_t>(strlen(env + at)) + 1) {
      env[n] = 0;
      const char* v = env + at;
      if (strncmp(v, "PATH=", 5) != 0 && strncmp(v, "HOME=", 5) != 0 && strncmp(v, "TMPDIR=", 7) != 0 &&
          strncmp(v, "LANG=", 5) != 0 && strncmp(v, "CUDA_VISIBLE_DEVICES=", 21) != 0 && *v != 0) {
        return 2;
      }
    }
  }
  // Another process than this sandbox's own two (the judge, the arena).
  if (DIR* d = opendir("/proc")) {
    int pids = 0;
    while (dirent* e = readdir(d)) pids += std::atoi(e->d_name) > 0;
    closedir(d);
    if (pids > 3) return 3;
  }
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s >= 0) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(22);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool connected = connect(s, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
    close(s);
    if (connected) return 4;
  }
  int w = open("/workspace/planted", O_WRONLY | O_CREAT, 0644);
  if (w >= 0) {
    close(w);
    return 5;
  }
  // The task's harness files, wherever the arena keeps them.
  for (const char* p : {"/workspace/reference.cpp", "../reference.cpp", "/opt/arena/runner/../reference.cpp"}) {
    if (access(p, R_OK) == 0) return 6;
  }
  return 0;
}

extern "C" int arena_run(const ArenaTensor* in, int, ArenaTensor* out, int, const ArenaParam*, int,
                         hipStream_t stream) {
  static const int leak = Leaks();
  if (leak != 0) return 10 + leak;  // "arena_run returned 1N" names the probe
  return Launch(in, out, stream);
}
