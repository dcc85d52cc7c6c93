// Where a task's tunables live in its editable files, and how to change one.
//
// A tunable is a constant of an editable file, written in one of the forms
//   NAME = value                   (Python: a module-level assignment)
//   #define NAME value             (C, C++, HIP)
//   constexpr <type> NAME = value; (C++)
//
//   std::optional<TunableSite> site = FindTunable(text, "BLOCK_SIZE");  // value "256", line 5
//   RewriteTunable(&text, "BLOCK_SIZE", "1024");
#ifndef ARENA_CORE_TUNABLES_H_
#define ARENA_CORE_TUNABLES_H_

#include <optional>
#include <string>

namespace arena {

struct TunableSite {
  std::string value;  // as written
  int line = 0;       // 1-based
};

// The first definition of `name` in `text`, if any.
std::optional<TunableSite> FindTunable(const std::string& text, const std::string& name);

// Sets the first definition of `name` to `value`; false if there is none.
bool RewriteTunable(std::string* text, const std::string& name, const std::string& value);

}  // namespace arena

#endif  // ARENA_CORE_TUNABLES_H_
