// The HIP judge's process (judge.h): one JSON request and reply per line on
// stdin and stdout, until "quit" or the end of input.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "plugins/common/hip/worker/judge.h"

int main() {
  // Replies go to the real stdout; anything else printed goes to stderr.
  int reply_fd = dup(1);
  dup2(2, 1);
  FILE* reply = fdopen(reply_fd, "w");
  arena::hip2hip::Judge judge;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    nlohmann::json req = nlohmann::json::parse(line, nullptr, false);
    if (req.is_discarded()) continue;
    if (req.value("op", "") == "quit") {
      judge.End();
      std::fflush(nullptr);
      _exit(0);
    }
    auto start = std::chrono::steady_clock::now();
    nlohmann::json r;
    try {
      r = judge.Handle(req);
    } catch (const nlohmann::json::exception& e) {
      r = {{"status", "error"}, {"detail", std::string("malformed request: ") + e.what()}, {"log", ""},
           {"metrics", nlohmann::json::object()}};
    }
    r["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::string out = r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::fputs(out.c_str(), reply);
    std::fflush(reply);
  }
  return 0;
}
