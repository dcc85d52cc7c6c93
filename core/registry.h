// Name-keyed registries of plugins, filled at static initialization.
//
// A plugin registers itself at the bottom of its own .cc file:
//
//   ARENA_REGISTER_TASK_FAMILY("triton2triton", TritonFamily);
//   ARENA_REGISTER_AGENT("noop", NoopAgent);
//
// and its Bazel target is made with arena_plugin() (tools/bazel/defs.bzl),
// which sets alwayslink so the registration survives static linking. A second
// registration under the same name is refused: at start-up that aborts the
// program with a message naming the duplicate.
#ifndef ARENA_CORE_REGISTRY_H_
#define ARENA_CORE_REGISTRY_H_

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/status.h"

namespace arena {

template <typename Interface>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Interface>()>;

  // The process-wide registry for this interface.
  static Registry& Global() {
    static Registry* registry = new Registry();  // never destroyed
    return *registry;
  }

  Status Register(const std::string& name, Factory factory) {
    std::lock_guard<std::mutex> lock(mu_);
    if (name.empty()) return InvalidArgument("a plugin needs a name");
    if (!factories_.emplace(name, std::move(factory)).second) {
      return AlreadyExists("a plugin named '" + name + "' is already registered");
    }
    return OkStatus();
  }

  Result<std::unique_ptr<Interface>> Create(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = factories_.find(name);
    if (it == factories_.end()) {
      std::string known;
      for (const auto& [n, f] : factories_) known += (known.empty() ? "" : ", ") + n;
      return NotFound("no plugin named '" + name + "' (known: " + known + ")");
    }
    return it->second();
  }

  bool Contains(const std::string& name) const {
    std::lock_guard<std::mutex> lock(mu_);
    return factories_.count(name) > 0;
  }

  std::vector<std::string> Names() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> out;
    for (const auto& [n, f] : factories_) out.push_back(n);
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, Factory> factories_;
};

namespace internal {

template <typename Interface, typename Impl>
struct Registrar {
  explicit Registrar(const char* name) {
    Status s = Registry<Interface>::Global().Register(
        name, [] { return std::unique_ptr<Interface>(new Impl()); });
    if (!s.ok()) {
      std::fprintf(stderr, "arena: plugin registration failed: %s\n", s.ToString().c_str());
      std::abort();
    }
  }
};

}  // namespace internal
}  // namespace arena

#define ARENA_REGISTER_PLUGIN_IMPL(Interface, name, Impl, line)            \
  static ::arena::internal::Registrar<Interface, Impl>                     \
      ARENA_STATUS_CONCAT(arena_registrar_, line)(name)

#endif  // ARENA_CORE_REGISTRY_H_
